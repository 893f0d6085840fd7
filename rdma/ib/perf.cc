// rdma perf show TARGET [port LIST|all] [GROUP...] [reset [COUNTER...]],
// rdma perf reset TARGET [port LIST|all] [GROUP...] [COUNTER...]: the
// counter attributes of the target's PMA, one word per group of them
// (PortCounters by default); show also with rates (-w SECONDS [-c COUNT])
// and as OpenMetrics.
#include <algorithm>
#include <chrono>
#include <set>

#include "lib/error.h"
#include "lib/ib/node_name_map.h"
#include "lib/ib/port_labels_probe.h"
#include "lib/ib/port_select.h"
#include "lib/ib/rates.h"
#include "lib/ib/smp.h"
#include "lib/mad/attrs.h"
#include "lib/mad/attrs_ext.h"
#include "lib/mad/attrs_pma.h"
#include "lib/mad/format.h"
#include "lib/mad/result.h"
#include "lib/mad/speed.h"
#include "rdma/ib/session.h"
#include "rdma/metrics_run.h"
#include "rdma/objects.h"
#include "rdma/stat_watch.h"

namespace rdma {

namespace {

void perf_help(Ctx& c) {
  std::fputs(
      "Usage: rdma perf show [ TARGET ] [ port PORTS ] [ GROUP ]... [ reset [ COUNTER ]... ]\n"
      "                                 [via DEV/PORT]\n"
      "       rdma perf reset [ TARGET ] [ port PORTS ] [ GROUP ]... [ COUNTER ]... [via "
      "DEV/PORT]\n"
      "       rdma perf caps [ TARGET ] [via DEV/PORT]\n"
      "where  TARGET := { lid LID | LID | guid GUID | gid GID } (default: the local port)\n"
      "       PORTS := { N | N-M | N,M,... | all | each }\n"
      "       GROUP := { counters | extended | details | vl | sl | op | flowctl | congestion |\n"
      "                  speeds | samples }\n"
      "       COUNTER := a counter's name as show prints it (symbol_errors, xmit_wait_vl2, ...)\n"
      "show takes -w SECONDS [-c COUNT] (rates per second), --openmetrics and --prometheus.\n",
      c.help_out);
}

// A word after the target and the PMA attributes it reads (lib/mad
// attrs.h, attrs_pma.h), in the order they print.
struct PerfGroup {
  const char* word;
  std::span<const mad::AttrDef* const> attrs;
};
constexpr const mad::AttrDef* kCountersAttrs[] = {&mad::kPortCounters};
constexpr const mad::AttrDef* kExtendedAttrs[] = {&mad::kPortCountersExtended};
constexpr const mad::AttrDef* kDetailsAttrs[] = {&mad::kPortRcvErrorDetails,
                                                 &mad::kPortXmitDiscardDetails};
constexpr const mad::AttrDef* kVlAttrs[] = {&mad::kPortVLXmitWaitCounters};
constexpr const mad::AttrDef* kSlAttrs[] = {&mad::kPortXmitDataSL, &mad::kPortRcvDataSL};
constexpr const mad::AttrDef* kOpAttrs[] = {&mad::kPortOpRcvCounters, &mad::kPortVLOpPackets,
                                            &mad::kPortVLOpData};
constexpr const mad::AttrDef* kFlowCtlAttrs[] = {&mad::kPortFlowCtlCounters,
                                                 &mad::kPortVLXmitFlowCtlUpdateErrors};
constexpr const mad::AttrDef* kCongestionAttrs[] = {
    &mad::kSwPortVLCongestion, &mad::kPortRcvConCtrl,  &mad::kPortSLRcvFECN,
    &mad::kPortSLRcvBECN,      &mad::kPortXmitConCtrl, &mad::kPortVLXmitTimeCong};
constexpr const mad::AttrDef* kSpeedsAttrs[] = {&mad::kPortExtendedSpeedsCounters};
constexpr const mad::AttrDef* kSamplesAttrs[] = {&mad::kPortSamplesControl};
constexpr PerfGroup kPerfGroups[] = {
    {"counters", kCountersAttrs},
    {"extended", kExtendedAttrs},
    {"details", kDetailsAttrs},
    {"vl", kVlAttrs},
    {"sl", kSlAttrs},
    {"op", kOpAttrs},
    {"flowctl", kFlowCtlAttrs},
    {"congestion", kCongestionAttrs},
    {"speeds", kSpeedsAttrs},
    {"samples", kSamplesAttrs},
};

// PortSamplesControl is a sampling set-up: nothing to reset or rate.
bool has_counters(const mad::AttrDef* a) {
  return a != &mad::kPortSamplesControl;
}

// What the PMA's ClassPortInfo says it has (lib/mad/attrs_pma.h):
// IsExtendedWidthSupported (bit 9) and its NoIETF form (bit 10) say it has
// PortCountersExtended (as perfquery reads them), CapabilityMask2's
// IsAdditionalPortCountersExtendedSupported that PortCountersExtended holds
// the 64-bit error counters too, IsRSFECCountersSupported that
// PortExtendedSpeedsCounters may have its RS-FEC layout. The other
// optional attributes have no capability bit: a PMA without one answers
// "unsupported".
struct PmaCaps {
  uint16_t mask = 0;
  uint32_t mask2 = 0;
};

struct PerfArgs {
  mad::Route route;
  bool all = false;
  bool each = false;                       // `port each`: every port in turn (perfquery -l)
  std::vector<uint8_t> ports;              // `port LIST`; empty: the default port
  std::vector<const mad::AttrDef*> attrs;  // the groups', in table order; empty: none given
  bool reset = false;                      // show: `reset` after reading
  std::vector<std::string> counters;       // the counters a reset clears; empty: all
};

// The counter whose text name the word is, in any group's attribute.
bool is_counter_name(const std::string& w) {
  for (const PerfGroup& g : kPerfGroups)
    for (const mad::AttrDef* a : g.attrs)
      for (const mad::FieldDef& f : a->fields)
        if (has_counters(a) && f.level == mad::kShow && w == f.label) return true;
  return false;
}

// show: counters are named after `reset`; reset: anywhere after the target.
PerfArgs parse(Args& w, bool show) {
  PerfArgs a;
  std::set<const PerfGroup*> groups;
  while (!w.empty()) {
    std::string k = w.next();
    const PerfGroup* group = nullptr;
    for (const PerfGroup& g : kPerfGroups)
      if (!group && matches(k, g.word)) group = &g;
    if ((!show || a.reset) && is_counter_name(k)) {
      a.counters.push_back(k);
    } else if (matches(k, "port")) {
      a.each = !w.empty() && w.peek() == "each";
      if (a.each) {
        w.next();
        a.all = false;
        a.ports.clear();
        continue;
      }
      std::optional<std::vector<uint8_t>> ports = w.need_port_list("port number or \"all\"");
      a.all = !ports;
      a.ports = ports.value_or(std::vector<uint8_t>{});
    } else if (group) {
      groups.insert(group);
    } else if (show && matches(k, "reset")) {
      a.reset = true;
    } else {
      throw UsageError("unknown perf argument \"" + k + "\"");
    }
  }
  for (const PerfGroup& g : kPerfGroups)
    if (groups.contains(&g)) a.attrs.insert(a.attrs.end(), g.attrs.begin(), g.attrs.end());
  return a;
}

// The ports a command covers (lib/ib/port_select.h); `port all` asks the
// PMA whether it has AllPortSelect; `port each` is every port in turn
// whatever it has, port 0 first on a switch with an enhanced port 0 (one
// SMP more, as perfquery -l). A port the node lacks is an error.
std::vector<uint8_t> ports_of(MadSession& s, const PerfArgs& a, const ib::NodeInfo& node,
                              uint16_t caps) {
  // Every port named is checked before anything is read or reset.
  for (uint8_t p : a.ports) ib::check_port(node, p, mad::route_text(a.route));
  if (!a.ports.empty()) return a.ports;
  if (a.each) {
    std::vector<uint8_t> out = ib::perf_ports(node, std::nullopt, true, false);
    if (node.is_switch() &&
        ib::SwitchInfo::from(s.smp(a.route, mad::kGet, mad::kSwitchInfo, 0).data()).enhanced_port0)
      out.insert(out.begin(), 0);
    return out;
  }
  return ib::perf_ports(node, std::nullopt, a.all, caps & mad::kPmaCapAllPortSelect);
}

// The target as a word: none (the local port), or not a directed route.
void check_lid_target(const std::optional<mad::Target>& t) {
  if (t && t->kind == mad::Target::Kind::Dr)
    throw UsageError("perf needs a LID target: the PMA is not reachable by directed route");
}

// The PMA's route: the target's; without one the local port's own LID (the
// port `via` names), as perfquery without a destination.
mad::Route perf_route(MadSession& s, const std::optional<mad::Target>& t) {
  if (t) return s.route(t);
  const mad::LocalPort& l = s.local();
  if (!l.lid)
    throw Error("local port " + l.ca + "/" + std::to_string(l.port) +
                " has no LID (no subnet manager has assigned one): give a target");
  return {false, l.lid, {}};
}

// The PMA's ClassPortInfo CapabilityMask and CapabilityMask2, read when
// something depends on them (`port all`, an attribute besides
// PortCounters); 0 otherwise.
PmaCaps pma_caps(MadSession& s, const PerfArgs& a) {
  bool need = a.all;
  for (const mad::AttrDef* attr : a.attrs) need |= attr != &mad::kPortCounters;
  if (!need) return {};
  mad::Mad cpi = s.gmp(a.route.lid, mad::kClassPerf, mad::kGet, mad::kClassPortInfo, 0);
  return {static_cast<uint16_t>(cpi.get_attr(mad::kClassPortInfo, "CapabilityMask")),
          static_cast<uint32_t>(cpi.get_attr(mad::kClassPortInfo, "CapabilityMask2"))};
}

// Whether port runs RS-FEC, which gives PortExtendedSpeedsCounters its
// other layout. As perfquery -T: asked only when the PMA has
// IsRSFECCountersSupported, then PortInfo (a switch's port 0's) must have
// IsPortInfoExtendedSupported and PortInfoExtended say RS-FEC. An SMA that
// does not answer: the plain layout, as perfquery.
bool port_rs_fec(MadSession& s, const mad::Route& r, bool is_switch, uint16_t caps, uint8_t port) {
  if (!(caps & mad::kPmaCapRsFecCounters)) return false;
  try {
    mad::Mad pi = s.smp(r, mad::kGet, mad::kPortInfo, is_switch ? 0 : port);
    if (!(pi.get_attr(mad::kPortInfo, "CapabilityMask") & mad::kCapMask2Supported) ||
        !(pi.get_attr(mad::kPortInfo, "CapabilityMask2") & mad::kPortCap2PortInfoExtended))
      return false;
    return mad::rs_fec_active(s.smp(r, mad::kGet, mad::kPortInfoExtended, port).data());
  } catch (const mad::MadError&) {
    return false;
  }
}

// The layout attr has in the PMA's reply for port (the capability bits and
// the port's FEC mode decide).
const mad::AttrDef* reply_layout(MadSession& s, const mad::Route& r, bool is_switch,
                                 const PmaCaps& caps, const mad::AttrDef* attr, uint8_t port) {
  if (attr == &mad::kPortCountersExtended && (caps.mask2 & mad::kPmaCap2AdditionalExtCounters))
    return &mad::kPortCountersExtendedFull;
  if (attr == &mad::kPortExtendedSpeedsCounters && port != ib::kAllPorts &&
      port_rs_fec(s, r, is_switch, caps.mask, port))
    return &mad::kPortExtendedSpeedsRsFecCounters;
  return attr;
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

std::string port_text(const mad::Route& route, uint8_t port) {
  return "lid " + std::to_string(route.lid) + " port " +
         (port == ib::kAllPorts ? std::string("all") : std::to_string(port));
}

// An attribute the PMA lacks at a port: a warning line, exit status 1.
void warn_lacking(Ctx& c, const mad::Route& route, uint8_t port, const mad::AttrDef& attr,
                  const std::string& why) {
  c.warn(port_text(route, port) + ": no " + attr.name + ": " + why);
}

// A Set that failed: the error, naming the port and attribute.
Error reset_failed(const mad::Route& route, uint8_t port, const mad::AttrDef& attr,
                   const mad::MadError& e) {
  return Error(port_text(route, port) + ": cannot reset " + attr.name + ": " + e.failure.message);
}

// One port's attributes: the replies of those the PMA answered, each
// with the layout it is decoded by (reply_layout). An optional one it lacks
// (its capability bit clear, a bad status, no reply) is a warning line and
// exit status 1, once per port and attribute (lacking remembers them for
// -w); PortCounters failing is an error.
struct PortReply {
  const mad::AttrDef* asked;  // the group's attribute: what a reset sets
  const mad::AttrDef* attr;   // its layout in this reply
  mad::Mad reply;
};
using Lacking = std::set<std::pair<uint8_t, const mad::AttrDef*>>;
std::vector<PortReply> read_port(Ctx& c, MadSession& s, const mad::Route& route, bool is_switch,
                                 std::span<const mad::AttrDef* const> attrs, const PmaCaps& caps,
                                 uint8_t port, Lacking& lacking) {
  std::vector<PortReply> out;
  for (const mad::AttrDef* attr : attrs) {
    if (lacking.contains({port, attr})) continue;
    std::string why;
    if (attr == &mad::kPortCountersExtended &&
        !(caps.mask & (mad::kPmaCapExtendedWidth | mad::kPmaCapExtendedWidthNoIetf))) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%04x", caps.mask);
      why = std::string("not in the PMA's CapabilityMask ") + hex;
    } else {
      try {
        mad::Mad reply = read_counters(s, route, *attr, port);
        out.push_back({attr, reply_layout(s, route, is_switch, caps, attr, port), reply});
        continue;
      } catch (const mad::MadError& e) {
        // PortCounters is mandatory: without it the PMA is not there. The
        // others are optional, and some PMAs (ibsim) do not answer those
        // they lack at all.
        if (attr == &mad::kPortCounters) throw;
        why = e.what();
      }
    }
    warn_lacking(c, route, port, *attr, why);
    lacking.insert({port, attr});
  }
  return out;
}

// The fields a port's record shows of each reply: those at or below
// detail, each name once. A counter two attributes have (PortCounters'
// and PortCountersExtended's xmit_bytes) shows the later, wider one; the
// other fields (port_select with -d) the first.
std::vector<std::vector<const mad::FieldDef*>> shown_fields(std::span<const PortReply> replies,
                                                            int detail) {
  auto has = [&](size_t i, const mad::FieldDef& f, bool counters_only) {
    for (const mad::FieldDef& g : replies[i].attr->fields)
      if (g.level <= detail && (!counters_only || g.level == mad::kShow) &&
          std::string_view(g.label) == f.label)
        return true;
    return false;
  };
  std::vector<std::vector<const mad::FieldDef*>> out(replies.size());
  for (size_t i = 0; i < replies.size(); ++i)
    for (const mad::FieldDef& f : replies[i].attr->fields) {
      if (f.level > detail) continue;
      bool shown = true, counter = f.level == mad::kShow;
      for (size_t j = 0; j < i && shown && !counter; ++j) shown = !has(j, f, false);
      for (size_t j = i + 1; j < replies.size() && shown && counter; ++j) shown = !has(j, f, true);
      if (shown) out[i].push_back(&f);
    }
  return out;
}

// The CounterSelect (and CounterSelect2) of a Set of attr
// that clears the counters named (every one when none is); select 0: none
// of them is attr's.
struct ResetSelect {
  uint64_t select = 0;
  uint32_t select2 = 0;
};
ResetSelect reset_select(const mad::AttrDef& attr, std::span<const std::string> counters) {
  bool pc = &attr == &mad::kPortCounters, ext = &attr == &mad::kPortCountersExtended;
  if (!has_counters(&attr)) return {};
  if (counters.empty() && &attr == &mad::kPortExtendedSpeedsCounters) return {~0ull, 0};
  // Every counter: PortCountersExtended's CounterSelect2 clears IBA 1.3's
  // 64-bit error counters (reserved where the PMA lacks them), as perfquery
  // -x -R sets it.
  if (counters.empty()) return {ext ? 0xffu : 0xffffu, pc ? 0xffu : ext ? 0xffffu : 0u};
  auto bit_of = [&](const char* name) {
    auto names = pc ? mad::port_counters_select() : mad::port_counters_ext_select();
    if (!pc && !ext) return mad::counter_select_bit(attr, name);
    for (size_t i = 0; i < names.size(); ++i)
      if (std::string_view(names[i]) == name) return static_cast<int>(i);
    return -1;
  };
  ResetSelect r;
  for (const mad::FieldDef& f : attr.fields) {
    if (f.level != mad::kShow ||
        std::find(counters.begin(), counters.end(), f.label) == counters.end())
      continue;
    // CounterSelect2: bit 0 PortXmitWait, bit 1 QP1Dropped (IBA 1.3; as
    // fabric errors reset and perfquery -R set them).
    if (pc && std::string_view(f.name) == "PortXmitWait") {
      r.select2 |= 1;
      continue;
    }
    if (pc && std::string_view(f.name) == "QP1Dropped") {
      r.select2 |= 2;
      continue;
    }
    int bit = bit_of(f.name);
    if (bit >= 0) r.select |= 1ull << bit;
  }
  return r;
}

// Clears the counters of attr at port (a Set; PMAs clear what CounterSelect
// names); false when none of the counters named is attr's.
bool reset_counters(MadSession& s, const mad::Route& route, const mad::AttrDef& attr, uint8_t port,
                    std::span<const std::string> counters) {
  ResetSelect sel = reset_select(attr, counters);
  if (!sel.select && !sel.select2) return false;
  mad::Mad body = mad::make_gmp(mad::kClassPerf, mad::kSet, attr, 0);
  body.set_attr(attr, "PortSelect", port);
  body.set_attr(attr, "CounterSelect", sel.select);
  if (&attr == &mad::kPortCounters) body.set_attr(attr, "CounterSelect2", sel.select2);
  if (&attr == &mad::kPortCountersExtended && sel.select2)  // in the 1.3 layout only
    body.set_attr(mad::kPortCountersExtendedFull, "CounterSelect2", sel.select2);
  s.gmp(route.lid, mad::kClassPerf, mad::kSet, attr, 0, &body);
  return true;
}

// A name after `reset` that none of the attributes read has.
void check_counters(std::span<const mad::AttrDef* const> attrs,
                    std::span<const std::string> counters) {
  for (const std::string& name : counters) {
    bool found = false;
    for (const mad::AttrDef* a : attrs)
      found |=
          reset_select(*a, {&name, 1}).select != 0 || reset_select(*a, {&name, 1}).select2 != 0;
    if (!found) throw UsageError("counter \"" + name + "\" is not one of the groups given");
  }
}

// -w SECONDS: the counters each interval with their rates per second
// (lib/ib/rates.h); text with an empty line between intervals, JSON one
// document per interval.
void perf_watch(Ctx& c, MadSession& s, const PerfArgs& a, bool is_switch, const PmaCaps& caps,
                const std::vector<uint8_t>& ports) {
  using Clock = std::chrono::steady_clock;
  own_json_output(c, "-w");
  ib::CounterRates rates;
  std::optional<Clock::time_point> last;
  view::Record rec;
  Lacking lacking;
  watch_loop(c.opt.watch_s, c.opt.count, [&](int n) {
    Clock::time_point start = Clock::now();
    double seconds = last ? std::chrono::duration<double>(start - *last).count() : 0;
    last = start;
    Interval iv(c, n);
    try {
      for (uint8_t port : ports) {
        std::vector<PortReply> replies =
            read_port(c, s, a.route, is_switch, a.attrs, caps, port, lacking);
        if (replies.empty()) continue;
        std::vector<std::vector<const mad::FieldDef*>> fields = shown_fields(replies, mad::kShow);
        std::vector<ib::CounterReading> now;
        for (size_t i = 0; i < replies.size(); ++i) {
          std::vector<ib::CounterReading> r = ib::readings(fields[i], replies[i].reply.data());
          now.insert(now.end(), r.begin(), r.end());
        }
        rec.clear();
        add_port(rec, a.route, port);
        ib::add_counter_rates(rates.update({0, port}, now, seconds), rec);
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
  if (c.opt.watch_s && a.reset) throw UsageError("-w with reset: the rates would be of nothing");
  if (a.attrs.empty()) a.attrs.push_back(&mad::kPortCounters);
  bool metrics_asked = c.opt.exposition != Options::Exposition::None;
  if (!has_counters(a.attrs.back()) && (c.opt.watch_s || a.reset || metrics_asked))
    throw UsageError(std::string("samples (PortSamplesControl) has no counters: not with ") +
                     (c.opt.watch_s ? "-w"
                      : a.reset     ? "reset"
                                    : "--openmetrics/--prometheus"));
  check_counters(a.attrs, a.counters);
  MetricsRun metrics(c, ib::port_metrics_spec(), "rdma_ib_perf_", "perf show");
  MadSession s(c, via);
  a.route = perf_route(s, target);
  ib::NodeInfo node = ib::NodeInfo::from(s.smp(a.route, mad::kGet, mad::kNodeInfo, 0).data());
  PmaCaps caps = pma_caps(s, a);
  std::vector<uint8_t> ports = ports_of(s, a, node, caps.mask);
  if (c.opt.watch_s) return perf_watch(c, s, a, node.is_switch(), caps, ports);
  std::optional<ib::PortLabelProbe> labels;  // both ends of each port's cable
  if (metrics.printer())
    labels.emplace(s, a.route, node, ib::load_node_name_map(c.opt.node_name_map));
  view::Printer& out = metrics.printer() ? *metrics.printer() : c.out;
  Lacking lacking;
  for (uint8_t port : ports) {
    std::vector<PortReply> replies =
        read_port(c, s, a.route, node.is_switch(), a.attrs, caps, port, lacking);
    if (replies.empty()) continue;
    std::vector<std::vector<const mad::FieldDef*>> fields = shown_fields(replies, c.opt.details);
    view::Record rec;
    if (labels) labels->add(port, rec);
    add_port(rec, a.route, port);
    for (size_t i = 0; i < replies.size(); ++i)
      for (const mad::FieldDef* f : fields[i])
        mad::decode_fields({f, 1}, replies[i].reply.data(), c.opt.details, rec);
    out.record(rec);
    if (a.reset)
      for (const PortReply& r : replies) {
        try {
          reset_counters(s, a.route, *r.asked, port, a.counters);
        } catch (const mad::MadError& e) {
          throw reset_failed(a.route, port, *r.asked, e);
        }
      }
  }
  metrics.succeed();
}

void perf_reset(Ctx& c) {
  std::optional<mad::Target> target = c.args.target();
  std::string via = c.args.take_via();
  PerfArgs a = parse(c.args, false);
  check_lid_target(target);
  if (std::find(a.attrs.begin(), a.attrs.end(), &mad::kPortSamplesControl) != a.attrs.end())
    throw UsageError("samples (PortSamplesControl) has no counters to reset");
  // No group: PortCounters and PortCountersExtended, where the PMA has it.
  bool defaults = a.attrs.empty();
  if (defaults) a.attrs = {&mad::kPortCounters, &mad::kPortCountersExtended};
  check_counters(a.attrs, a.counters);
  MadSession s(c, via);
  a.route = perf_route(s, target);
  ib::NodeInfo node = ib::NodeInfo::from(s.smp(a.route, mad::kGet, mad::kNodeInfo, 0).data());
  PerfArgs asked = a;
  if (defaults) asked.attrs.clear();  // ClassPortInfo only for `port all`, as before
  std::vector<uint8_t> ports = ports_of(s, a, node, pma_caps(s, asked).mask);
  for (uint8_t port : ports)
    for (const mad::AttrDef* attr : a.attrs) {
      try {
        reset_counters(s, a.route, *attr, port, a.counters);
      } catch (const mad::MadError& e) {
        // Without a group, as before: PMAs without PortCountersExtended
        // answer "unsupported", nothing to reset; any other failure is
        // the MAD's error.
        bool unsupported = e.failure.unsupported();
        if (defaults && (attr == &mad::kPortCounters || !unsupported)) throw;
        if (defaults) continue;
        if (!unsupported) throw reset_failed(a.route, port, *attr, e);
        warn_lacking(c, a.route, port, *attr, e.what());
      }
    }
}

// rdma perf caps TARGET: the PMA's ClassPortInfo, what perf show decides
// by, with the bits of CapabilityMask and CapabilityMask2 named after each
// (no name list when none is set).
void perf_caps(Ctx& c) {
  std::optional<mad::Target> target = c.args.target();
  std::string via = c.args.take_via();
  c.args.done();
  check_lid_target(target);
  MadSession s(c, via);
  mad::Route route = perf_route(s, target);
  mad::Mad cpi = s.gmp(route.lid, mad::kClassPerf, mad::kGet, mad::kClassPortInfo, 0);
  view::Record rec;
  add_target(rec, route);
  for (const mad::FieldDef& f : mad::kClassPortInfo.fields) {
    mad::decode_fields({&f, 1}, cpi.data(), c.opt.details, rec);
    std::string_view name = f.name;
    std::string bits;
    if (name == "CapabilityMask")
      bits = mad::pma_caps_names(static_cast<uint16_t>(cpi.get_attr(mad::kClassPortInfo, f.name)));
    else if (name == "CapabilityMask2")
      bits = mad::pma_caps2_names(static_cast<uint32_t>(cpi.get_attr(mad::kClassPortInfo, f.name)));
    if (!bits.empty()) rec.pair(std::string(f.label) + "_names", bits);
  }
  c.out.record(rec);
}

}  // namespace

std::span<const Cmd> perf_commands() {
  static constexpr Cmd kTable[] = {
      {nullptr, perf_help},
      {"show", perf_show, Takes::Watch | Takes::Metrics},
      {"list", perf_show, Takes::Watch | Takes::Metrics},
      {"reset", perf_reset},
      {"caps", perf_caps},
      {"help", perf_help},
  };
  return kTable;
}

void cmd_perf(Ctx& c) {
  dispatch(c, perf_commands(), "perf command");
}

}  // namespace rdma
