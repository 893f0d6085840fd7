// rdma perf show TARGET [port N|all] [extended], rdma perf reset TARGET
// [port N|all]: PortCounters and PortCountersExtended from the target's PMA.
#include "lib/error.h"
#include "lib/ib/port_select.h"
#include "lib/mad/attrs.h"
#include "lib/mad/format.h"
#include "rdma/ib/session.h"
#include "rdma/objects.h"

namespace rdma {

namespace {

void perf_help(Ctx& c) {
  std::fputs(
      "Usage: rdma perf show TARGET [ port N | port all ] [ extended ] [via DEV/PORT]\n"
      "       rdma perf reset TARGET [ port N | port all ] [via DEV/PORT]\n"
      "where  TARGET := { lid LID | LID | guid GUID | gid GID }\n",
      c.help_out);
}

struct PerfArgs {
  mad::Route route;
  bool all = false;
  std::optional<uint8_t> port;
  bool extended = false;
};

PerfArgs parse(MadWords& w, bool allow_extended) {
  PerfArgs a;
  while (!w.empty()) {
    std::string k = w.next();
    if (matches(k, "port")) {
      std::string v = w.need("port number or \"all\"");
      if (v == "all")
        a.all = true;
      else
        a.port = parse_port(v);
    } else if (allow_extended && matches(k, "extended")) {
      a.extended = true;
    } else {
      throw UsageError("unknown perf argument \"" + k + "\"");
    }
  }
  return a;
}

// The ports a command covers (lib/ib/port_select.h); `port all` asks the
// PMA whether it has AllPortSelect.
std::vector<uint8_t> ports_of(MadSession& s, const mad::Route& r, const PerfArgs& a) {
  ib::NodeInfo node = ib::NodeInfo::from(s.smp(r, mad::kGet, mad::kNodeInfo, 0).data());
  bool all_port_select = false;
  if (a.all) {
    mad::Mad cpi = s.gmp(r.lid, mad::kClassPerf, mad::kGet, mad::kClassPortInfo, 0);
    all_port_select =
        cpi.get_attr(mad::kClassPortInfo, "CapabilityMask") & mad::kPmaCapAllPortSelect;
  }
  return ib::perf_ports(node, a.port, a.all, all_port_select);
}

// The target as a word: given, and not a directed route.
void check_lid_target(const std::optional<mad::Target>& t) {
  if (!t) throw UsageError("missing target (lid N, guid G or gid G)");
  if (t->kind == mad::Target::Kind::Dr)
    throw UsageError("perf needs a LID target: the PMA is not reachable by directed route");
}

void perf_show(Ctx& c) {
  MadWords w(c);
  PerfArgs a = parse(w, true);
  check_lid_target(w.target);
  MadSession s(c, w.via);
  a.route = s.route(w.target);
  const mad::AttrDef& attr = a.extended ? mad::kPortCountersExtended : mad::kPortCounters;
  for (uint8_t port : ports_of(s, a.route, a)) {
    mad::Mad body = mad::make_gmp(mad::kClassPerf, mad::kGet, attr, 0);
    body.set_attr(attr, "PortSelect", port);
    mad::Mad reply = s.gmp(a.route.lid, mad::kClassPerf, mad::kGet, attr, 0, &body);
    view::Record rec;
    add_target(rec, a.route);
    if (port == ib::kAllPorts)
      rec.add("port", "port all ", "all");
    else
      rec.add("port", "port " + std::to_string(port) + " ", port);
    mad::decode(attr, reply.data(), c.opt.details, rec);
    c.out.record(rec);
  }
}

void perf_reset(Ctx& c) {
  MadWords w(c);
  PerfArgs a = parse(w, false);
  check_lid_target(w.target);
  MadSession s(c, w.via);
  a.route = s.route(w.target);
  for (uint8_t port : ports_of(s, a.route, a)) {
    mad::Mad body = mad::make_gmp(mad::kClassPerf, mad::kSet, mad::kPortCounters, 0);
    body.set_attr(mad::kPortCounters, "PortSelect", port);
    body.set_attr(mad::kPortCounters, "CounterSelect", 0xffff);
    body.set_attr(mad::kPortCounters, "CounterSelect2", 0xff);
    s.gmp(a.route.lid, mad::kClassPerf, mad::kSet, mad::kPortCounters, 0, &body);
    mad::Mad ext = mad::make_gmp(mad::kClassPerf, mad::kSet, mad::kPortCountersExtended, 0);
    ext.set_attr(mad::kPortCountersExtended, "PortSelect", port);
    ext.set_attr(mad::kPortCountersExtended, "CounterSelect", 0xff);
    try {
      s.gmp(a.route.lid, mad::kClassPerf, mad::kSet, mad::kPortCountersExtended, 0, &ext);
    } catch (const mad::MadError& e) {
      // PMAs without PortCountersExtended answer "unsupported": nothing to reset.
      if (!e.failure.unsupported()) throw;
    }
  }
}

}  // namespace

void cmd_perf(Ctx& c) {
  static constexpr Cmd kTable[] = {
      {nullptr, perf_help},  {"show", perf_show}, {"list", perf_show},
      {"reset", perf_reset}, {"help", perf_help},
  };
  dispatch(c, kTable, "perf command");
}

}  // namespace rdma
