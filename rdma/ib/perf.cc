// rdma perf show TARGET [port LIST|all] [GROUP...] [reset [COUNTER...]],
// rdma perf reset TARGET [port LIST|all] [GROUP...] [COUNTER...]: the
// counter attributes of the target's PMA, one word per group of them
// (PortCounters by default); show also with rates (-w SECONDS [-c COUNT])
// and as OpenMetrics.
#include <algorithm>
#include <set>

#include "lib/error.h"
#include "lib/ib/node_name_map.h"
#include "lib/ib/pma.h"
#include "lib/ib/port_labels_probe.h"
#include "lib/ib/port_select.h"
#include "lib/ib/rates.h"
#include "lib/mad/result.h"
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
      "where  TARGET := { lid LID | LID | guid GUID | gid GID | dr PATH |\n"
      "              dr lid LID PATH | name NAME } (default: the local port)\n"
      "       PORTS := { N | N-M | N,M,... | all | each }\n"
      "       GROUP := { counters | extended | details | vl | sl | op | flowctl | congestion |\n"
      "                  speeds | samples }\n"
      "       COUNTER := a counter's name as show prints it (symbol_errors, xmit_wait_vl2, ...)\n"
      "show takes -w SECONDS [-c COUNT] (rates per second), --openmetrics and --prometheus.\n",
      c.help_out);
}

struct PerfArgs {
  ib::PortChoice ports;                    // `port LIST|all|each`; none: the default port
  std::vector<const mad::AttrDef*> attrs;  // the groups', in table order; empty: none given
  bool reset = false;                      // show: `reset` after reading
  std::vector<std::string> counters;       // the counters a reset clears; empty: all
};

// show: counters are named after `reset`; reset: anywhere after the target.
PerfArgs parse(Args& w, bool show) {
  PerfArgs a;
  std::set<const ib::CounterGroup*> groups;
  while (!w.empty()) {
    std::string k = w.next();
    const ib::CounterGroup* group = nullptr;
    for (const ib::CounterGroup& g : ib::counter_groups())
      if (!group && matches(k, g.word)) group = &g;
    if ((!show || a.reset) && ib::is_counter_name(k)) {
      a.counters.push_back(k);
    } else if (matches(k, "port")) {
      a.ports.each = !w.empty() && w.peek() == "each";
      if (a.ports.each) {
        w.next();
        a.ports.all = false;
        a.ports.list.clear();
        continue;
      }
      std::optional<std::vector<uint8_t>> ports = w.need_port_list("port number or \"all\"");
      a.ports.all = !ports;
      a.ports.list = ports.value_or(std::vector<uint8_t>{});
    } else if (group) {
      groups.insert(group);
    } else if (show && matches(k, "reset")) {
      a.reset = true;
    } else {
      std::vector<std::string> words = {"port"};
      for (const ib::CounterGroup& g : ib::counter_groups()) words.push_back(g.word);
      if (show) words.push_back("reset");
      if (!show || a.reset) words.push_back("COUNTER");
      throw UsageError(unknown_word("perf argument", k, words));
    }
  }
  for (const ib::CounterGroup& g : ib::counter_groups())
    if (groups.contains(&g)) a.attrs.insert(a.attrs.end(), g.attrs.begin(), g.attrs.end());
  return a;
}

// The PMA's route: the target's (a directed route: PmaClient resolves it to
// its LID); without one the local port's own LID (the port `via` names),
// as perfquery without a destination.
mad::Route perf_route(MadSession& s, const std::optional<mad::Target>& t) {
  if (t) return s.route(t);
  const mad::LocalPort& l = s.local();
  if (!l.lid)
    throw Error("local port " + l.ca + "/" + std::to_string(l.port) +
                " has no LID (no subnet manager has assigned one): give a target");
  return {false, l.lid, {}};
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

// One port's attributes: the replies of those the PMA answered. An
// optional one it lacks (its capability bit clear, a bad status, no reply)
// is a warning line and exit status 1, once per port and attribute
// (lacking remembers them for -w); PortCounters failing is an error.
using Lacking = std::set<std::pair<uint8_t, const mad::AttrDef*>>;
std::vector<ib::PortReply> read_port(Ctx& c, ib::PmaClient& pma,
                                     std::span<const mad::AttrDef* const> attrs,
                                     const ib::PmaCaps& caps, uint8_t port, Lacking& lacking) {
  std::vector<ib::PortReply> out;
  for (const mad::AttrDef* attr : attrs) {
    if (lacking.contains({port, attr})) continue;
    std::optional<std::string> why = pma.lacks(*attr, caps);
    if (!why) {
      try {
        out.push_back(pma.read(*attr, port, caps));
        continue;
      } catch (const mad::MadError& e) {
        // PortCounters is mandatory: without it the PMA is not there. The
        // others are optional, and some PMAs (ibsim) do not answer those
        // they lack at all.
        if (attr == &ib::port_counters()) throw;
        why = e.what();
      }
    }
    warn_lacking(c, pma.route(), port, *attr, *why);
    lacking.insert({port, attr});
  }
  return out;
}

// A name after `reset` that none of the attributes read has.
void check_counters(std::span<const mad::AttrDef* const> attrs,
                    std::span<const std::string> counters) {
  if (const std::string* name = ib::unknown_counter(attrs, counters))
    throw UsageError("counter \"" + *name + "\" is not one of the groups given");
}

// -w SECONDS: the counters each interval with their rates per second
// (lib/ib/rates.h); text with an empty line between intervals, JSON one
// document per interval.
void perf_watch(Ctx& c, ib::PmaClient& pma, const PerfArgs& a, const ib::PmaCaps& caps,
                const std::vector<uint8_t>& ports) {
  ib::CounterRates rates;
  view::Record rec;
  Lacking lacking;
  watch_view(c, [&](Interval& iv) {
    for (uint8_t port : ports) {
      std::vector<ib::PortReply> replies = read_port(c, pma, a.attrs, caps, port, lacking);
      if (replies.empty()) continue;
      rec.clear();
      add_port(rec, pma.route(), port);
      ib::add_counter_rates(rates.update({0, port}, ib::counter_readings(replies), iv.since()),
                            rec);
      iv.out().record(rec);
    }
    rates.end_interval();
  });
}

void perf_show(Ctx& c) {
  std::optional<mad::Target> target = c.args.target();
  std::string via = c.args.take_via();
  PerfArgs a = parse(c.args, true);
  if (c.opt.watch_s && a.reset) throw UsageError("-w with reset: the rates would be of nothing");
  if (a.attrs.empty()) a.attrs.push_back(&ib::port_counters());
  bool metrics_asked = c.opt.exposition != Options::Exposition::None;
  if (!ib::has_counters(*a.attrs.back()) && (c.opt.watch_s || a.reset || metrics_asked))
    throw UsageError(std::string("samples (PortSamplesControl) has no counters: not with ") +
                     (c.opt.watch_s ? "-w"
                      : a.reset     ? "reset"
                                    : "--openmetrics/--prometheus"));
  check_counters(a.attrs, a.counters);
  MetricsRun metrics(c, ib::port_metrics_spec(), "rdma_ib_perf_", "perf show");
  MadSession s(c, via);
  ib::PmaClient pma(s, perf_route(s, target));
  pma.node();  // NodeInfo first: a LID nobody has fails before anything else is asked
  ib::PmaCaps caps = pma.caps_for(a.ports.all, a.attrs);
  std::vector<uint8_t> ports = pma.ports(a.ports, caps);
  if (c.opt.watch_s) return perf_watch(c, pma, a, caps, ports);
  std::optional<ib::PortLabelProbe> labels;  // both ends of each port's cable
  if (metrics.printer())
    labels.emplace(s, pma.route(), pma.node(), ib::load_node_name_map(c.opt.node_name_map));
  view::Printer& out = metrics.printer() ? *metrics.printer() : c.out;
  Lacking lacking;
  for (uint8_t port : ports) {
    std::vector<ib::PortReply> replies = read_port(c, pma, a.attrs, caps, port, lacking);
    if (replies.empty()) continue;
    view::Record rec;
    if (labels) labels->add(port, rec);
    add_port(rec, pma.route(), port);
    ib::add_counters(replies, c.opt.details, rec);
    out.record(rec);
    if (a.reset)
      for (const ib::PortReply& r : replies) {
        try {
          pma.reset(*r.asked, port, a.counters);
        } catch (const mad::MadError& e) {
          throw reset_failed(pma.route(), port, *r.asked, e);
        }
      }
  }
  metrics.succeed();
}

void perf_reset(Ctx& c) {
  std::optional<mad::Target> target = c.args.target();
  std::string via = c.args.take_via();
  PerfArgs a = parse(c.args, false);
  if (std::any_of(a.attrs.begin(), a.attrs.end(),
                  [](const mad::AttrDef* attr) { return !ib::has_counters(*attr); }))
    throw UsageError("samples (PortSamplesControl) has no counters to reset");
  // No group: PortCounters and PortCountersExtended, where the PMA has it.
  bool defaults = a.attrs.empty();
  if (defaults) a.attrs.assign(ib::default_reset_attrs().begin(), ib::default_reset_attrs().end());
  check_counters(a.attrs, a.counters);
  MadSession s(c, via);
  ib::PmaClient pma(s, perf_route(s, target));
  pma.node();  // NodeInfo first: a LID nobody has fails before anything else is asked
  // ClassPortInfo only for `port all` or a group named, as before.
  ib::PmaCaps caps = pma.caps_for(
      a.ports.all, defaults ? std::span<const mad::AttrDef* const>{} : std::span(a.attrs));
  std::vector<uint8_t> ports = pma.ports(a.ports, caps);
  for (uint8_t port : ports)
    for (const mad::AttrDef* attr : a.attrs) {
      try {
        pma.reset(*attr, port, a.counters);
      } catch (const mad::MadError& e) {
        // Without a group, as before: PMAs without PortCountersExtended
        // answer "unsupported", nothing to reset; any other failure is
        // the MAD's error.
        bool unsupported = e.failure.unsupported();
        if (defaults && (attr == &ib::port_counters() || !unsupported)) throw;
        if (defaults) continue;
        if (!unsupported) throw reset_failed(pma.route(), port, *attr, e);
        warn_lacking(c, pma.route(), port, *attr, e.what());
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
  MadSession s(c, via);
  ib::PmaClient pma(s, perf_route(s, target));
  view::Record rec;
  add_target(rec, pma.route());
  ib::add_class_port_info(pma.class_port_info(), c.opt.details, rec);
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
