// rdma perf show TARGET [port N|all] [extended], rdma perf reset TARGET
// [port N|all]: PortCounters and PortCountersExtended from the target's PMA;
// show also with rates (-w SECONDS [-c COUNT]) and as OpenMetrics.
#include <chrono>

#include "lib/error.h"
#include "lib/ib/node_name_map.h"
#include "lib/ib/port_select.h"
#include "lib/ib/rates.h"
#include "lib/ib/smp.h"
#include "lib/mad/attrs.h"
#include "lib/mad/format.h"
#include "rdma/ib/session.h"
#include "rdma/objects.h"
#include "rdma/stat_watch.h"

namespace rdma {

namespace {

void perf_help(Ctx& c) {
  std::fputs(
      "Usage: rdma perf show TARGET [ port N | port all ] [ extended ] [via DEV/PORT]\n"
      "       rdma perf reset TARGET [ port N | port all ] [via DEV/PORT]\n"
      "where  TARGET := { lid LID | LID | guid GUID | gid GID }\n"
      "show takes -w SECONDS [-c COUNT] (rates per second), --openmetrics and --prometheus.\n",
      c.help_out);
}

struct PerfArgs {
  mad::Route route;
  bool all = false;
  std::optional<uint8_t> port;
  bool extended = false;
};

PerfArgs parse(Args& w, bool allow_extended) {
  PerfArgs a;
  while (!w.empty()) {
    std::string k = w.next();
    if (matches(k, "port")) {
      std::string v = w.need_word("port number or \"all\"");
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
std::vector<uint8_t> ports_of(MadSession& s, const mad::Route& r, const PerfArgs& a,
                              ib::NodeInfo* info = nullptr) {
  ib::NodeInfo node = ib::NodeInfo::from(s.smp(r, mad::kGet, mad::kNodeInfo, 0).data());
  if (info) *info = node;
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

mad::Mad read_counters(MadSession& s, const mad::Route& r, const mad::AttrDef& attr, uint8_t port) {
  mad::Mad body = mad::make_gmp(mad::kClassPerf, mad::kGet, attr, 0);
  body.set_attr(attr, "PortSelect", port);
  return s.gmp(r.lid, mad::kClassPerf, mad::kGet, attr, 0, &body);
}

// The sum of every port (AllPortSelect) says "port all" in text; in JSON
// (and so metrics) port stays a number: 255, the PortSelect that asked for
// it, as perfquery -a prints it.
void add_port(view::Record& rec, const mad::Route& route, uint8_t port) {
  add_target(rec, route);
  if (port == ib::kAllPorts)
    rec.pair("port", "all", view::Json(port));
  else
    rec.pair("port", port);
}

// -w SECONDS: the counters each interval with their rates per second
// (lib/ib/rates.h); text with an empty line between intervals, JSON one
// document per interval.
void perf_watch(Ctx& c, MadSession& s, const mad::Route& route, const mad::AttrDef& attr,
                const std::vector<uint8_t>& ports) {
  using Clock = std::chrono::steady_clock;
  std::vector<const mad::FieldDef*> fields;
  for (const mad::FieldDef& f : attr.fields)
    if (f.level == mad::kShow) fields.push_back(&f);
  own_json_output(c, "-w");
  ib::CounterRates rates;
  std::optional<Clock::time_point> last;
  view::Record rec;
  watch_loop(c.opt.watch_s, c.opt.count, [&](int n) {
    Clock::time_point start = Clock::now();
    double seconds = last ? std::chrono::duration<double>(start - *last).count() : 0;
    last = start;
    Interval iv(c, n);
    try {
      for (uint8_t port : ports) {
        mad::Mad reply = read_counters(s, route, attr, port);
        rec.clear();
        add_port(rec, route, port);
        ib::add_counter_rates(rates.update({0, port}, ib::readings(fields, reply.data()), seconds),
                              rec);
        iv.out().record(rec);
      }
    } catch (...) {
      iv.end_json();
      throw;
    }
    rates.end_interval();
    iv.end();
  });
}

void perf_show(Ctx& c) {
  std::optional<mad::Target> target = c.args.target();
  std::string via = c.args.take_via();
  PerfArgs a = parse(c.args, true);
  check_lid_target(target);
  if (c.opt.count && !c.opt.watch_s) throw UsageError("-c COUNT needs -w SECONDS");
  if (c.opt.watch_s) refuse_in_json_batch(c, "-w");
  no_metrics_watch(c);
  MadSession s(c, via);
  a.route = s.route(target);
  const mad::AttrDef& attr = a.extended ? mad::kPortCountersExtended : mad::kPortCounters;
  ib::NodeInfo node;
  std::vector<uint8_t> ports = ports_of(s, a.route, a, &node);
  if (c.opt.watch_s) return perf_watch(c, s, a.route, attr, ports);
  std::unique_ptr<view::Printer> metrics;
  if (c.opt.exposition != Options::Exposition::None) {
    // The labels fabric errors gives the same counters: the node's GUID and
    // description (one SMP more), and the port.
    mad::Mad nd = s.smp(a.route, mad::kGet, mad::kNodeDescription, 0);
    std::string desc = ib::load_node_name_map(c.opt.node_name_map)
                           .name(node.node_guid, mad::c_string(nd.data().first(64)));
    metrics = openmetrics_output(
        c, {"rdma_ib_port_",
            "InfiniBand PMA counter",
            {{"port", "port"}},
            {{"node_guid", mad::guid_text(node.node_guid)}, {"description", desc}},
            {"port_select", "counter_select", "counter_select2"}});
  }
  view::Printer& out = metrics ? *metrics : c.out;
  for (uint8_t port : ports) {
    mad::Mad reply = read_counters(s, a.route, attr, port);
    view::Record rec;
    add_port(rec, a.route, port);
    mad::decode(attr, reply.data(), c.opt.details, rec);
    out.record(rec);
  }
  if (metrics) metrics->finish();
}

void perf_reset(Ctx& c) {
  std::optional<mad::Target> target = c.args.target();
  std::string via = c.args.take_via();
  PerfArgs a = parse(c.args, false);
  check_lid_target(target);
  MadSession s(c, via);
  a.route = s.route(target);
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
      // perf_show refuses -w with --openmetrics after reading its words.
      {nullptr, perf_help},
      {"show", perf_show, Takes::Watch | Takes::Metrics},
      {"list", perf_show, Takes::Watch | Takes::Metrics},
      {"reset", perf_reset},
      {"help", perf_help},
  };
  dispatch(c, kTable, "perf command");
}

}  // namespace rdma
