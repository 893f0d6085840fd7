// rdma resource: the per-device summary and the objects of each type (QPs,
// CM IDs, CQs, MRs, PDs, contexts, SRQs), filtered, streamed record by record
// as each reply message is decoded. One dump per device covers all ports.
// FRMR pools (show and set) are in res_frmr.cc.
#include <optional>

#include "lib/error.h"
#include "lib/nl/nldev.h"
#include "lib/nldev/devices.h"
#include "lib/res/filter.h"
#include "lib/res/summary.h"
#include "lib/res/types.h"
#include "rdma/objects.h"
#include "rdma/res_frmr.h"
#include "rdma/res_query.h"
#include "rdma/stat_watch.h"

namespace rdma {

namespace {

void res_help(Ctx& c) {
  std::fputs(
      "Usage: rdma resource\n"
      "          resource show [DEV]\n"
      "          resource show [qp|cm_id|pd|mr|cq|ctx|srq|frmr_pools]\n"
      "          resource show qp link [DEV/PORT]\n"
      "          resource show qp link [DEV/PORT] [FILTER-NAME FILTER-VALUE]\n"
      "          resource show cm_id link [DEV/PORT]\n"
      "          resource show cm_id link [DEV/PORT] [FILTER-NAME FILTER-VALUE]\n"
      "          resource show cq dev [DEV]\n"
      "          resource show cq dev [DEV] [FILTER-NAME FILTER-VALUE]\n"
      "          resource show pd dev [DEV]\n"
      "          resource show pd dev [DEV] [FILTER-NAME FILTER-VALUE]\n"
      "          resource show mr dev [DEV]\n"
      "          resource show mr dev [DEV] [FILTER-NAME FILTER-VALUE]\n"
      "          resource show ctx dev [DEV]\n"
      "          resource show ctx dev [DEV] [FILTER-NAME FILTER-VALUE]\n"
      "          resource show srq dev [DEV]\n"
      "          resource show srq dev [DEV] [FILTER-NAME FILTER-VALUE]\n"
      "          resource show frmr_pools dev [DEV]\n"
      "          resource show frmr_pools dev [DEV] [FILTER-NAME FILTER-VALUE]\n"
      "          resource set frmr_pools dev DEV aging AGING_PERIOD\n"
      "          resource set frmr_pools dev DEV pinned POOL_KEY PINNED_VALUE\n",
      c.help_out);
}

const nldev::Device* lookup(const std::vector<nldev::Device>& devs, std::string_view name) {
  for (const nldev::Device& d : devs)
    if (d.name == name) return &d;
  return nullptr;
}

const nldev::Device& need_device(const std::vector<nldev::Device>& devs, std::string_view name) {
  const nldev::Device* d = lookup(devs, name);
  if (!d) throw Error("unknown device \"" + std::string(name) + "\"");
  return *d;
}

// ---------------------------------------------------------------- summary

void print_summary(Ctx& c, nl::Request& req) {
  view::Record& r = c.out.scratch();
  c.session().run(req, [&](const nlmsghdr* nlh) {
    res::summary_record(nlh, r);
    c.out.record(r);
  });
}

void summary_doit(Ctx& c, const nldev::Device& d) {
  nl::Request req(RDMA_NLDEV_CMD_RES_GET, nl::Request::kDoit);
  req.u32(RDMA_NLDEV_ATTR_DEV_INDEX, d.index);
  // With -dd, 6.12 counts the objects it hides by default; 6.1 ignores it.
  if (c.opt.details >= 2) req.u8(nldev::kAttrDriverDetails, 1);
  print_summary(c, req);
}

void summary_all(Ctx& c) {
  if (c.opt.details >= 2) {  // the dump takes no attributes: one doit each
    for (const nldev::Device& d : nldev::list_devices(c.session())) summary_doit(c, d);
    return;
  }
  nl::Request req(RDMA_NLDEV_CMD_RES_GET, nl::Request::kDump);
  print_summary(c, req);
}

void show_type(Ctx& c, const res::TypeSpec& t) {
  ResShow s{c, t, {}, {}};
  while (!c.args.empty()) {
    std::string key = c.args.next();
    if (c.args.empty()) throw UsageError("filter \"" + key + "\" has no value");
    std::string value = c.args.next();
    const res::FilterKey& k = res::find_key(t.keys, key);
    if (k.src == res::Src::kScope)
      parse_res_scope(t, k.name, value, s.scope);
    else
      s.filters.add(k, value);
  }
  std::vector<nldev::Device> devs = nldev::list_devices(c.session());
  if (s.scope.dev) {
    const nldev::Device& d = need_device(devs, *s.scope.dev);
    if (s.scope.port > d.ports)
      throw Error("device \"" + d.name + "\" has no port " + std::to_string(s.scope.port) +
                  " (ports: 1-" + std::to_string(d.ports) + ")");
    show_res_device(s, d);
    return;
  }
  for (const nldev::Device& d : devs) show_res_device(s, d);
}

void res_show(Ctx& c) {
  if (c.args.empty()) return repeat_view(c, summary_all);  // -w SECONDS repeats it
  std::string word = c.args.peek();
  const res::TypeSpec* type = nullptr;
  for (const res::TypeSpec& t : res::types()) {
    if (matches(word, t.name)) {
      type = &t;
      break;
    }
  }
  // "res show DEV" (a device wins over a type, as in iproute2).
  Args rest = c.args;
  rest.next();
  if (rest.empty()) {
    std::vector<nldev::Device> devs = nldev::list_devices(c.session());
    if (const nldev::Device* d = lookup(devs, word)) {
      c.args.next();
      nldev::Device dev = *d;
      return repeat_view(c, [dev](Ctx& each) { summary_doit(each, dev); });
    }
  }
  // frmr_pools comes last in iproute2's table: "f" and "fr" select it.
  bool frmr = !type && matches(word, "frmr_pools");
  if (!type && !frmr) throw UsageError("unknown resource type or device \"" + word + "\"");
  check_takes(c, Takes::Once);  // object listings run once
  c.args.next();
  if (frmr) return res_show_frmr(c);
  show_type(c, *type);
}

}  // namespace

std::span<const Cmd> resource_commands() {
  static constexpr Cmd kTable[] = {
      // res show: -w repeats a summary, a listing runs once (Own: it says
      // which after reading its words; Watch: for the messages).
      {nullptr, res_show, Takes::Own | Takes::Watch},
      {"show", res_show, Takes::Own | Takes::Watch},
      {"set", res_set},  // res_frmr.cc: frmr_pools is all set sets
      {"list", res_show, Takes::Own | Takes::Watch},
      {"help", res_help, Takes::Own},
  };
  return kTable;
}

void cmd_resource(Ctx& c) {
  dispatch(c, resource_commands(), "resource command");
}

}  // namespace rdma
