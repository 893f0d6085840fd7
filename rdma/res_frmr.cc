#include "rdma/res_frmr.h"

#include <optional>

#include "lib/error.h"
#include "lib/nl/attrs.h"
#include "lib/nl/nldev.h"
#include "lib/nldev/devices.h"
#include "lib/res/frmr.h"
#include "rdma/words.h"

namespace rdma {

namespace {

// Kernels before 7.0 answer an nldev command they do not know with EINVAL;
// the device was looked up first, so that is what EINVAL means here.
[[noreturn]] void rethrow_unsupported(const KernelError& e, const char* cmd) {
  std::string head = std::string("the kernel refused ") + cmd + " (" + e.what() + "): ";
  if (e.code == EINVAL) throw KernelError(e.code, head + "FRMR pools need Linux 7.0 or newer");
  if (e.code == EOPNOTSUPP) throw KernelError(e.code, head + "the device has no FRMR pools");
  throw e;
}

// FRMR_POOLS_GET is a dump that needs DEV_INDEX: one per device.
void show_device(Ctx& c, const nldev::Device& d, const res::Filters& filters) {
  nl::Request req(nldev::kCmdFrmrPoolsGet, nl::Request::kDump);
  req.u32(RDMA_NLDEV_ATTR_DEV_INDEX, d.index);
  view::Record r;
  try {
    c.session().run(req, [&](const nlmsghdr* nlh) {
      nl::Attrs msg = nl::Attrs::of_message(nlh);
      const nlattr* table = msg.get(nldev::kAttrFrmrPools);
      if (!table) throw Error("malformed FRMR pools reply: no RDMA_NLDEV_ATTR_FRMR_POOLS");
      std::string_view name = msg.has(RDMA_NLDEV_ATTR_DEV_NAME) ? msg.str(RDMA_NLDEV_ATTR_DEV_NAME)
                                                                : std::string_view(d.name);
      uint32_t index =
          msg.has(RDMA_NLDEV_ATTR_DEV_INDEX) ? msg.u32(RDMA_NLDEV_ATTR_DEV_INDEX) : d.index;
      nl::for_each_nested(table, [&](const nlattr* entry) {
        if (nl::Attrs::type_of(entry) != nldev::kAttrFrmrPoolEntry) return;
        if (res::frmr_record(nl::Attrs::of_nest(entry), index, name, c.opt.details, filters, r))
          c.out.record(r);
      });
    });
  } catch (const KernelError& e) {
    rethrow_unsupported(e, "FRMR_POOLS_GET");
  }
}

// Leading blanks and a sign after them as stoull took them, but no sign first.
uint32_t parse_u32(const std::string& word, const char* what) {
  std::optional<uint64_t> v =
      view::parse_number(word, {.max = UINT32_MAX, .blanks_and_sign = true, .not_first = "-+"});
  if (!v) throw Error(std::string("invalid ") + what + " \"" + word + "\" (expected 0-4294967295)");
  return static_cast<uint32_t>(*v);
}

}  // namespace

void res_show_frmr(Ctx& c) {
  std::optional<std::string> dev;
  res::Filters filters;
  while (!c.args.empty()) {
    std::string key = c.args.next();
    if (c.args.empty()) throw Error("filter \"" + key + "\" has no value");
    std::string value = c.args.next();
    const res::FilterKey& k = res::find_key(res::frmr_filter_keys(), key);
    if (k.src == res::Src::kScope) {
      if (dev) throw Error("\"dev\" given twice");
      dev = value;
    } else {
      filters.add(k, value);
    }
  }
  if (dev) return show_device(c, nldev::find_device(c.session(), *dev), filters);
  for (const nldev::Device& d : nldev::list_devices(c.session())) show_device(c, d, filters);
}

void res_set(Ctx& c) {
  std::string what = c.args.need("resource to set (frmr_pools)");
  if (!matches(what, "frmr_pools"))
    throw Error("unknown resource set object \"" + what + "\" (expected frmr_pools)");
  std::string dev_word = c.args.need("\"dev DEV\"");
  if (!matches(dev_word, "dev")) throw Error("expected \"dev DEV\", not \"" + dev_word + "\"");
  std::string dev_name = c.args.need("device name after \"dev\"");
  std::string param = c.args.need("parameter: aging or pinned");
  nl::Request req(nldev::kCmdFrmrPoolsSet, nl::Request::kDoit);
  if (matches(param, "aging")) {
    uint32_t secs = parse_u32(c.args.need("aging period in seconds"), "aging period");
    if (secs == 0) throw Error("the aging period must be at least 1 second");
    c.args.done();
    nldev::Device d = nldev::find_device(c.session(), dev_name);
    req.u32(RDMA_NLDEV_ATTR_DEV_INDEX, d.index);
    req.u32(nldev::kAttrFrmrPoolsAgingPeriod, secs);
  } else if (matches(param, "pinned")) {
    res::FrmrKey key = res::parse_frmr_key(c.args.need("pool key VENDOR:NDMA:ACCESS:ATS"));
    uint32_t pinned = parse_u32(c.args.need("number of pinned handles"), "pinned value");
    c.args.done();
    nldev::Device d = nldev::find_device(c.session(), dev_name);
    req.u32(RDMA_NLDEV_ATTR_DEV_INDEX, d.index);
    req.u32(nldev::kAttrFrmrPoolPinnedHandles, pinned);
    nlattr* nest = req.begin_nest(nldev::kAttrFrmrPoolKey);
    req.u8(nldev::kAttrFrmrPoolKeyAts, key.ats);
    req.u32(nldev::kAttrFrmrPoolKeyAccessFlags, key.access_flags);
    req.u64(nldev::kAttrFrmrPoolKeyVendorKey, key.vendor_key);
    req.u64(nldev::kAttrFrmrPoolKeyNumDmaBlocks, key.num_dma_blocks);
    req.end_nest(nest);
  } else {
    throw Error("unknown frmr_pools parameter \"" + param + "\" (expected aging or pinned)");
  }
  try {
    c.session().run(req, [](const nlmsghdr*) {});
  } catch (const KernelError& e) {
    rethrow_unsupported(e, "FRMR_POOLS_SET");
  }
}

}  // namespace rdma
