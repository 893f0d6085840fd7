#include "lib/res/frmr.h"

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>

#include "lib/error.h"
#include "lib/nl/nldev.h"
#include "lib/res/driver.h"
#include "lib/view/number.h"

namespace rdma::res {

namespace {

// iproute2's frmr_pools_valid_filters, in its order: all numeric.
constexpr FilterKey kKeys[] = {
    {"dev", Src::kScope},
    {"ats", Src::kNum, nldev::kAttrFrmrPoolKeyAts},
    {"access_flags", Src::kNum, nldev::kAttrFrmrPoolKeyAccessFlags},
    {"vendor_key", Src::kNum, nldev::kAttrFrmrPoolKeyVendorKey},
    {"num_dma_blocks", Src::kNum, nldev::kAttrFrmrPoolKeyNumDmaBlocks},
    {"queue", Src::kNum, nldev::kAttrFrmrPoolQueueHandles},
    {"in_use", Src::kNum, nldev::kAttrFrmrPoolInUse},
    {"max_in_use", Src::kNum, nldev::kAttrFrmrPoolMaxInUse},
    {"pinned", Src::kNum, nldev::kAttrFrmrPoolPinnedHandles},
};

uint64_t read_num(const nl::Attrs& a, int attr) {
  switch (nl::attr_type(attr)) {
    case nl::AttrType::U8:
      return a.u8(attr);
    case nl::AttrType::U32:
      return a.u32(attr);
    default:
      return a.u64(attr);
  }
}

// "name value " in text, the number in JSON (iproute2's res_print_u32/u64).
void add_num(const nl::Attrs& a, int attr, const char* name, view::Record& r) {
  if (!a.has(attr)) return;
  uint64_t v = read_num(a, attr);
  std::string text = name;
  text += ' ';
  text += std::to_string(v);
  text += ' ';
  r.add(name, text, v);
}

}  // namespace

FrmrKey parse_frmr_key(std::string_view text) {
  std::string s(text);
  auto bad = [&](const std::string& why) {
    return Error("invalid FRMR pool key \"" + s + "\": " + why +
                 " (expected VENDOR:NDMA:ACCESS:ATS, hex)");
  };
  FrmrKey k;
  size_t field = 0;
  size_t pos = 0;
  while (pos <= s.size()) {
    size_t colon = s.find(':', pos);
    std::string part = s.substr(pos, colon == std::string::npos ? std::string::npos : colon - pos);
    std::string digits = part;
    if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X'))
      digits = digits.substr(2);
    if (digits.empty() || digits.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
      throw bad("field " + std::to_string(field + 1) + " \"" + part + "\" is not a hex number");
    std::optional<uint64_t> n = view::parse_number(digits, {.hex = true});
    if (!n) throw bad("field " + std::to_string(field + 1) + " \"" + part + "\" is out of range");
    uint64_t v = *n;
    switch (field) {
      case 0:
        k.vendor_key = v;
        break;
      case 1:
        k.num_dma_blocks = v;
        break;
      case 2:
        if (v > UINT32_MAX) throw bad("access flags \"" + part + "\" exceed 32 bits");
        k.access_flags = static_cast<uint32_t>(v);
        break;
      case 3:
        if (v > 1) throw bad("ats \"" + part + "\" is neither 0 nor 1");
        k.ats = static_cast<uint8_t>(v);
        break;
      default:
        // Fields of newer keys: this tool cannot send them, so only 0 passes.
        if (v) throw bad("field " + std::to_string(field + 1) + " is not supported");
    }
    ++field;
    if (colon == std::string::npos) break;
    pos = colon + 1;
  }
  if (field < 4) throw bad("it has " + std::to_string(field) + " fields, not 4");
  return k;
}

std::string frmr_key_text(const FrmrKey& k) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%" PRIx64 ":%" PRIx64 ":%x:%u", k.vendor_key, k.num_dma_blocks,
                k.access_flags, k.ats ? 1u : 0u);
  return buf;
}

std::span<const FilterKey> frmr_filter_keys() {
  return kKeys;
}

bool frmr_record(const nl::Attrs& entry, uint32_t ifindex, std::string_view ifname, int details,
                 const Filters& filters, view::Record& r) {
  const nlattr* key_nest = entry.get(nldev::kAttrFrmrPoolKey);
  nl::Attrs key = key_nest ? nl::Attrs::of_nest(key_nest) : nl::Attrs();
  // A filter on a value the pool lacks hides it (iproute2's
  // rd_is_filtered_attr); key fields are looked for in the key nest.
  for (const Filter& f : filters.all()) {
    int attr = f.key->attr;
    bool in_key = attr >= nldev::kAttrFrmrPoolKeyAts && attr <= nldev::kAttrFrmrPoolKeyNumDmaBlocks;
    const nl::Attrs& from = in_key ? key : entry;
    if (!from.has(attr) || !f.match(read_num(from, attr))) return false;
  }
  r.clear();
  r.add("ifindex", "", ifindex);
  r.add("ifname", "dev " + std::string(ifname) + " ", std::string(ifname));
  if (key_nest) {
    FrmrKey k;
    k.ats = key.u8(nldev::kAttrFrmrPoolKeyAts);
    k.access_flags = key.u32(nldev::kAttrFrmrPoolKeyAccessFlags);
    k.vendor_key = key.u64(nldev::kAttrFrmrPoolKeyVendorKey);
    k.num_dma_blocks = key.u64(nldev::kAttrFrmrPoolKeyNumDmaBlocks);
    std::string text = frmr_key_text(k);
    r.pair("key", text);
    if (details) {
      add_num(key, nldev::kAttrFrmrPoolKeyAts, "ats", r);
      add_num(key, nldev::kAttrFrmrPoolKeyAccessFlags, "access_flags", r);
      add_num(key, nldev::kAttrFrmrPoolKeyVendorKey, "vendor_key", r);
      add_num(key, nldev::kAttrFrmrPoolKeyNumDmaBlocks, "num_dma_blocks", r);
      add_num(key, nldev::kAttrFrmrPoolKeyKernelVendorKey, "kernel_vendor_key", r);
    }
  }
  add_num(entry, nldev::kAttrFrmrPoolQueueHandles, "queue", r);
  add_num(entry, nldev::kAttrFrmrPoolInUse, "in_use", r);
  add_num(entry, nldev::kAttrFrmrPoolMaxInUse, "max_in_use", r);
  add_num(entry, nldev::kAttrFrmrPoolPinnedHandles, "pinned", r);
  if (details >= 2 && entry.has(RDMA_NLDEV_ATTR_DRIVER))
    append_driver(entry.get(RDMA_NLDEV_ATTR_DRIVER), false, r);
  return true;
}

}  // namespace rdma::res
