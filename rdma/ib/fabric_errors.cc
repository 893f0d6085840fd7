// rdma fabric errors [ reset ]: ibqueryerrors over the fabric (the sweep of
// lib/ib/errors.h), once, with -w, or as metrics; and clearing counters.
#include "rdma/ib/fabric_errors.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "lib/error.h"
#include "lib/ib/engine_config.h"
#include "lib/ib/errors.h"
#include "lib/ib/find.h"
#include "lib/ib/node_view.h"
#include "lib/ib/port_counters_view.h"
#include "lib/ib/port_labels.h"
#include "lib/ib/rates.h"
#include "lib/ib/records.h"
#include "lib/mad/attrs.h"
#include "lib/mad/attrs_pma.h"
#include "lib/mad/format.h"
#include "lib/mad/target.h"
#include "lib/view/time_text.h"
#include "rdma/ib/errors_window.h"
#include "rdma/ib/fabric_source.h"
#include "rdma/ib/session.h"
#include "rdma/ib/watch_sweep.h"
#include "rdma/metrics_run.h"
#include "rdma/objects.h"
#include "rdma/stat_watch.h"

namespace rdma {

namespace {

// Leading blanks and a sign after them as strtoull took them, but no '-' first.
uint64_t after_equals(const std::string& s, size_t eq, const char* what) {
  std::optional<uint64_t> n = view::parse_number(
      s.substr(eq + 1), {.c_bases = true, .blanks_and_sign = true, .not_first = "-"});
  if (!n) throw UsageError(std::string("invalid ") + what + " \"" + s + "\" (expected NAME=N)");
  return *n;
}

// `lid LID | guid GUID | dr PATH`: a node by any of its LIDs, by its node
// or port GUID, or by the directed route discovery reached it by
// (ibqueryerrors -D), in the fabric discovered or loaded.
struct NodeWords {
  std::optional<uint16_t> lid;
  std::optional<uint64_t> guid;
  std::optional<mad::Target> dr;
  explicit operator bool() const { return lid || guid || dr; }
};

// Takes the value of k when k is "lid", "guid" or "dr"; false for another
// word. cmd: the command, for the error when a second one is given.
bool node_word(Args& args, const std::string& k, NodeWords& w, const char* cmd) {
  if (k != "lid" && k != "guid" && k != "dr") return false;
  if (w) throw UsageError(std::string(cmd) + " takes one of lid LID, guid GUID or dr PATH");
  std::string v = args.need_value(k, k == "lid" ? "LID" : k == "guid" ? "GUID" : "PATH");
  if (k == "lid") {
    w.lid = mad::parse_lid(v);
  } else if (k == "guid") {
    w.guid = mad::parse_guid(v);
  } else {
    w.dr.emplace();
    w.dr->kind = mad::Target::Kind::Dr;
    w.dr->text = "dr " + v;
    if (v == "lid") {  // "dr lid L PATH": a combined route, as every TARGET
      w.dr->lid = mad::parse_lid(args.need_value("dr lid", "LID"));
      v = args.need_value("dr lid " + std::to_string(w.dr->lid), "PATH");
      w.dr->text += " " + std::to_string(w.dr->lid) + " " + v;
    }
    w.dr->path = mad::parse_path(v);
  }
  return true;
}

// `switches`, `cas` or `routers`: the sweep's nodes of that type only.
bool node_type_word(const std::string& k, ib::NodeSelect& nodes) {
  if (matches(k, "switches"))
    nodes.node_type = static_cast<uint8_t>(ib::NodeType::Switch);
  else if (matches(k, "cas"))
    nodes.node_type = static_cast<uint8_t>(ib::NodeType::Ca);
  else if (matches(k, "routers"))
    nodes.node_type = static_cast<uint8_t>(ib::NodeType::Router);
  else
    return false;
  return true;
}

// The node's index; Error when the fabric has none.
// A directed route other than the one discovery took (or saved) is
// followed: the node whose GUID answers at its end (as ibqueryerrors -D).
uint32_t find_node(const ib::Fabric& f, const NodeWords& w, MadSession& s) {
  std::optional<ib::PortRef> at = w.lid    ? ib::find_port_lid(f, *w.lid)
                                  : w.guid ? ib::find_guid(f, *w.guid)
                                           : ib::find_target(f, *w.dr);
  if (!at && w.dr) {
    try {
      ib::NodeInfo ni = ib::read_node_info(s, s.route(*w.dr));
      if (std::optional<uint32_t> n = ib::find_node_guid(f, ni.node_guid)) return *n;
    } catch (const mad::MadError&) {
      // Nothing answers at its end: no node, said below.
    }
  }
  if (at) return at->node;
  std::string what = w.lid    ? "LID " + std::to_string(*w.lid)
                     : w.guid ? "GUID " + mad::guid_hex(*w.guid)
                              : "directed route " + w.dr->text.substr(3);
  throw Error("no node with " + what + " in the fabric");
}

// What `counters` and `threshold NAME=` take: the error counters' labels
// (their IBA names are taken too).
std::vector<std::string> error_counter_labels() {
  std::vector<std::string> out;
  for (const mad::FieldDef* f : ib::error_counters()) out.push_back(f->label);
  return out;
}

// The words of `fabric errors`: what the sweep reads, which nodes, and the
// clearing after it.
struct ErrorsWords {
  ib::SweepOptions sweep;
  NodeWords node;
  std::optional<uint8_t> port;  // `port N` of the node
  bool peer = false;            // `peer`: the far end of each port (ibqueryerrors -r)
  std::optional<bool> clear;    // clear after reading; true: every counter (clear all)
  std::optional<std::string> thresholds_file;                // `thresholds FILE`
  std::vector<std::pair<std::string, uint64_t>> thresholds;  // `threshold NAME=N`, in order
  WindowMode window;  // window SECONDS, save FILE, since FILE
};

ErrorsWords errors_words(Args& args) {
  ErrorsWords w;
  ib::SweepOptions& o = w.sweep;
  while (!args.empty()) {
    const std::string k = args.next();
    auto value = [&](const char* what) { return args.need_value(k, what); };
    if (node_word(args, k, w.node, "fabric errors")) {
    } else if (k == "peer") {
      w.peer = true;
    } else if (node_type_word(k, o.nodes)) {
    } else if (k == "clear") {
      w.clear = !args.empty() && args.peek() == "all";
      if (*w.clear) args.next();
    } else if (matches(k, "counters")) {
      std::string list = value("LIST");
      o.counters.clear();
      size_t b = 0;
      while (b <= list.size()) {
        size_t e = list.find(',', b);
        if (e == std::string::npos) e = list.size();
        std::string name = list.substr(b, e - b);
        const mad::FieldDef* f = ib::error_counter(name);
        if (!f) throw UsageError(unknown_word("error counter", name, error_counter_labels()));
        o.counters.push_back(f);
        b = e + 1;
      }
    } else if (k == "threshold") {
      std::string t = value("NAME=N");
      size_t eq = t.find('=');
      if (eq == std::string::npos)
        throw UsageError("invalid threshold \"" + t + "\" (expected NAME=N)");
      std::string name = t.substr(0, eq);
      if (!ib::error_counter(name))
        throw UsageError(unknown_word("error counter", name, error_counter_labels()));
      uint64_t v = after_equals(t, eq, "threshold");
      ib::Thresholds().set(name, v);  // the name checked before anything is read
      w.thresholds.emplace_back(name, v);
    } else if (k == "thresholds") {
      w.thresholds_file = value("FILE");  // the last one, as ibqueryerrors' --threshold-file
    } else if (matches(k, "port")) {
      w.port = parse_port(value("port number"));
    } else if (k == "window") {
      std::string v = value("SECONDS");
      std::optional<uint64_t> n = view::parse_number(v, {});
      if (!n || *n == 0 || *n > 86400)
        throw UsageError("invalid window \"" + v + "\" (expected SECONDS, 1 to 86400)");
      w.window.seconds = static_cast<int>(*n);
    } else if (k == "congestion") {
      // PERCENT is optional: a number next is it, anything else a word.
      w.window.congestion = kDefaultCongestionPercent;
      if (!args.empty() && !args.peek().empty() &&
          std::isdigit(static_cast<unsigned char>(args.peek()[0]))) {
        std::string v = args.next();
        std::optional<uint64_t> n = view::parse_number(v, {});
        if (!n || *n == 0 || *n > 100)
          throw UsageError("invalid congestion \"" + v + "\" (expected PERCENT, 1 to 100)");
        w.window.congestion = static_cast<double>(*n);
      }
    } else if (k == "save") {
      w.window.save = value("FILE");
    } else if (k == "since") {
      w.window.since = value("FILE");
    } else if (matches(k, "data")) {
      o.extended = true;
    } else if (matches(k, "details")) {
      o.details = true;
    } else {
      throw UsageError(unknown_word(
          "fabric errors argument", k,
          {"lid", "guid", "dr", "port", "peer", "switches", "cas", "routers", "clear", "counters",
           "threshold", "thresholds", "window", "save", "since", "data", "details"}));
    }
  }
  return w;
}

// One port listed by `fabric errors`: where it is, then the checked
// counters over their thresholds (all of them with all_counters) by the
// names perf show prints; with data the traffic counters
// (PortCountersExtended's 64-bit ones where the PMA has them).
void errors_where(const ib::Fabric& f, const ib::PortCounters& c, view::Record& rec) {
  const ib::Node& n = f.nodes[c.port.node];
  rec.pair("node_guid", mad::guid_hex(n.info.node_guid));
  rec.pair("description", mad::desc_text(n.description), n.description);
  rec.pair("port", c.port.port);
  if (uint64_t g = ib::port_guid(f, c.port)) rec.pair("port_guid", mad::guid_hex(g));
  rec.pair("lid", c.lid);
}

void errors_counters(const ib::PortCounters& c, const ib::SweepOptions& o, bool all_counters,
                     view::Record& rec) {
  std::vector<mad::FieldDef> fields;
  for (const mad::FieldDef* d : all_counters ? o.counters : ib::counters_over(c, o))
    fields.push_back(*d);
  if (o.extended && c.ext.empty())
    for (const mad::FieldDef* d : ib::data_counters()) fields.push_back(*d);
  mad::decode_fields(fields, c.pc, 0, rec);
  if (o.extended) ib::add_extended_counters(c, rec);
  ib::add_error_details(c, rec);
}

// The thresholds of a sweep: the file `thresholds FILE` names, else the
// site's (/etc/infiniband-diags/error_thresholds, where it exists), as
// ibqueryerrors picks its file; then each `threshold NAME=N`, which wins
// over the file. -d says which file was read (on standard error).
void load_thresholds(Ctx& c, ErrorsWords& w) {
  std::optional<std::string> file = ib::thresholds_file(w.thresholds_file);
  if (file)
    for (const std::string& warning : w.sweep.thresholds.load(*file))
      std::fprintf(c.err, "warning: %s\n", warning.c_str());
  // In window mode (window, since) a threshold word judges the increase.
  ib::Thresholds::Kind kind = w.window.seconds || w.window.since ? ib::Thresholds::Kind::Increase
                                                                 : ib::Thresholds::Kind::Value;
  for (const auto& [name, v] : w.thresholds) w.sweep.thresholds.set(name, v, kind);
  if (c.opt.details) {
    if (!file)
      std::fprintf(c.err, "thresholds: no file read (%s does not exist): 0 unless given\n",
                   ib::kSiteThresholds);
    else
      std::fprintf(c.err, "thresholds: %s%s\n", file->c_str(),
                   w.thresholds_file ? "" : " (the site's file)");
  }
}

// Error when the node (an index into f.nodes) keeps no counters for port.
void check_counters_port(const ib::Fabric& f, uint32_t n, uint8_t port) {
  if (!ib::has_counters_port(f, n, port))
    throw Error("node " + mad::desc_text(f.nodes[n].description) + " has no port " +
                std::to_string(port) + " with counters");
}

// `reset [all] [lid LID | guid GUID | dr PATH] [port N]`: the node as
// NodeWords find it, in the fabric discovered or loaded.
void fabric_errors_reset(Ctx& c, const FabricSource& src) {
  bool all = false;
  NodeWords node;
  std::optional<uint8_t> port;
  while (!c.args.empty()) {
    const std::string k = c.args.next();
    auto value = [&](const char* what) { return c.args.need_value(k, what); };
    if (matches(k, "all"))
      all = true;
    else if (node_word(c.args, k, node, "fabric errors reset"))
      continue;
    else if (matches(k, "port"))
      port = parse_port(value("port number"));
    else
      throw UsageError(
          unknown_word("fabric errors reset argument", k, {"all", "lid", "guid", "dr", "port"}));
  }
  if (port && !node) throw UsageError("\"port N\" needs the node: lid LID, guid GUID or dr PATH");
  MadSession s(c, src.via);
  ib::Fabric f = fabric_of(c, src, &s, fabric_options(c));
  ib::ClearSelect only;
  if (node) {
    only.node = find_node(f, node, s);
    if (port) {
      check_counters_port(f, *only.node, *port);
      only.port = port;
    }
  }
  c.warn(ib::clear_counters(s.engine(), f, all, only));
}

}  // namespace

// The sweep is over: its progress line goes before what is printed.
void sweep_warnings(Ctx& c, const ib::ErrorSweep& sweep, MadSession& s) {
  s.end_progress();
  uint64_t mads_sent = s.engine().stats().sent;
  c.warn(sweep.warnings);
  if (c.opt.details)
    std::fprintf(c.err,
                 "errors: %zu nodes checked, %zu ports checked, %zu over threshold; "
                 "MADs sent %llu in all\n",
                 sweep.nodes_checked, sweep.ports_checked, sweep.ports.size(),
                 static_cast<unsigned long long>(mads_sent));
}

view::Json record_json(const view::Record& rec) {
  view::Json out = view::Json::object();
  for (const view::Field& f : rec)
    if (!f.key.empty()) out[f.key] = f.json.empty() ? f.value : view::Json::parse(f.json);
  return out;
}

namespace {

// ibqueryerrors' summary, after the ports: text "summary: 6 nodes checked,
// 20 ports checked, 3 ports over threshold on 2 nodes" (", 1 PMA query
// failed" when one did), JSON the member "summary", an object with the
// counts, beside "ports".
void summary_record(const ib::SweepSummary& s, view::Record& rec) {
  auto count = [](size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  std::string text = "summary: " + count(s.nodes_checked, "node", "nodes") + " checked, " +
                     count(s.ports_checked, "port", "ports") + " checked, " +
                     count(s.ports_over, "port", "ports") + " over threshold on " +
                     count(s.nodes_over, "node", "nodes");
  if (s.pma_failures) text += ", " + count(s.pma_failures, "PMA query", "PMA queries") + " failed";
  view::Json json = {{"nodes_checked", s.nodes_checked},
                     {"ports_checked", s.ports_checked},
                     {"ports_over_threshold", s.ports_over},
                     {"nodes_over_threshold", s.nodes_over},
                     {"pma_failures", s.pma_failures}};
  rec.add("summary", text, std::move(json));
}

// When a sweep started: text "time 2026-11-29T00:45:19+0000" in local
// time, JSON seconds since the epoch.
void add_sweep_time(view::Record& rec) {
  view::WallTime t = view::wall_now();
  rec.pair("time", view::time_text("%Y-%m-%dT%H:%M:%S%z", false, t.sec), t.seconds());
}

// -w SECONDS: a sweep of every port each interval (the fabric discovered
// or loaded once). Each sweep prints its time, then the ports whose
// counters changed since the sweep before, with only those counters, each
// with its rate per second (lib/ib/rates.h); -d: every port, every
// counter. Text: the time line, the ports' lines, an empty line between
// intervals; JSON: a document per interval, [{"time": T, "ports": [...]}].
// The exit status is 1 when a port was over a threshold or moved.
void errors_watch(Ctx& c, MadSession& s, const ib::Fabric& f, ib::SweepOptions o) {
  o.every_port = true;        // a port's first reading must be there when it starts to move
  std::set<uint16_t> silent;  // PMAs silent in the last sweep: asked briefly
  o.silent_pmas = &silent;
  ib::CounterRates rates;
  bool found = false;
  bool json = c.out.is_json();
  view::Record rec, head;
  watch_view(c, [&](Interval& iv) {
    head.clear();
    add_sweep_time(head);
    ib::ErrorSweep sweep = watch_sweep(s.engine(), f, o, ib::sweep_budget(c.opt.deadline_s));
    sweep_warnings(c, sweep, s);
    if (!json) iv.out().record(head);
    view::Json ports = view::Json::array();
    for (const ib::PortCounters& p : sweep.ports) {
      std::vector<ib::CounterRate> r = rates.update(
          {f.nodes[p.port.node].info.node_guid, p.port.port}, ib::sweep_readings(p, o), iv.since());
      found |= ib::over_threshold(p, o) || ib::moved(r);
      if (!c.opt.details) r = ib::changed_only(r);
      if (r.empty()) continue;
      rec.clear();
      errors_where(f, p, rec);
      ib::add_counter_rates(r, rec);
      if (json)
        ports.push_back(record_json(rec));
      else
        iv.out().record(rec);
    }
    if (json) {
      head.add("ports", "", std::move(ports));
      iv.out().record(head);
    }
    rates.end_interval();
  });
  if (found) c.found();
}

// Clears the counters the sweep read (`clear`: the error counters, as
// ibqueryerrors -k; `clear all`: every counter, as -K).
void clear_after(Ctx& c, MadSession& s, const ib::Fabric& f, const ib::SweepOptions& o, bool all) {
  c.warn(ib::clear_counters(s.engine(), f, all, {o.nodes.node, o.nodes.port, o.nodes.node_type}));
}

// Exit status: 0 when no port is over a threshold, 1 when one is or a PMA
// did not answer (as ibqueryerrors).
}  // namespace

void errors_record(const ib::Fabric& f, const ib::PortCounters& c, const ib::SweepOptions& o,
                   bool all_counters, view::Record& rec) {
  errors_where(f, c, rec);
  errors_counters(c, o, all_counters, rec);
}

namespace {

// `peer`: the far end of the port's link (ibqueryerrors -r's link info),
// keyed as fabric links keys it; nothing for a port without a link (or
// AllPortSelect's sum of a switch's ports).
void errors_peer(const ib::Fabric& f, ib::PortRef at, view::Record& rec) {
  const ib::Port* p = f.nodes[at.node].port(at.port);
  if (!p || !p->peer) return;
  const ib::Node& n = f.nodes[p->peer->node];
  rec.pair("peer_node_guid", mad::guid_hex(n.info.node_guid));
  rec.pair("peer_description", mad::desc_text(n.description), n.description);
  rec.pair("peer_port", p->peer->port);
  if (uint64_t g = ib::port_guid(f, *p->peer)) rec.pair("peer_port_guid", mad::guid_hex(g));
  rec.pair("peer_lid", ib::port_lid(f, *p->peer));
}

}  // namespace

// The metrics of a sweep: every counter of every port read (an exporter
// wants the zeros too), labelled with both ends of the port's cable.
void errors_metrics(const ib::Fabric& f, const ib::ErrorSweep& sweep, const ib::SweepOptions& o,
                    view::Printer& out) {
  view::Record rec;
  for (const ib::PortCounters& p : sweep.ports) {
    rec.clear();
    ib::add_port_labels(f, p.port, rec);
    errors_counters(p, o, true, rec);
    out.record(rec);
  }
}

namespace {

void errors_sweep(Ctx& c, const FabricSource& src) {
  ErrorsWords w = errors_words(c.args);
  ib::SweepOptions& o = w.sweep;
  if (w.port && !w.node)
    throw UsageError("\"port N\" needs the node: lid LID, guid GUID or dr PATH");
  if (c.opt.watch_s && w.clear) throw UsageError("\"clear\" reads the counters once: not with -w");
  if (c.opt.watch_s && o.details) throw UsageError("\"details\" are read once: not with -w");
  const WindowMode& m = w.window;
  if (int(bool(m.seconds)) + bool(m.save) + bool(m.since) > 1)
    throw UsageError("fabric errors takes one of window SECONDS, save FILE, since FILE");
  if (m.any() && (c.opt.watch_s || w.clear || o.details || o.extended))
    throw UsageError(
        "window, save and since read the error counters only: not with -w, clear, details "
        "or data");
  if (m.congestion && !m.seconds && !m.since)
    throw UsageError("congestion judges the wait over a window: with window SECONDS or since FILE");
  if (m.save && c.opt.exposition != Options::Exposition::None)
    throw UsageError("save writes a file of counters: not with --openmetrics or --prometheus");
  load_thresholds(c, w);
  MetricsRun metrics =
      m.any() ? MetricsRun(c, ib::port_metrics_spec(), "rdma_ib_fabric_errors_window_",
                           "the error counter window", window_gauges())
              : MetricsRun(c, ib::port_metrics_spec(), "rdma_ib_fabric_errors_", "the error sweep");
  MadSession s(c, src.via);
  ib::Fabric f = fabric_of(c, src, &s, fabric_options(c));
  if (w.node) o.nodes.node = find_node(f, w.node, s);
  if (w.port) {
    check_counters_port(f, *o.nodes.node, *w.port);
    o.nodes.port = w.port;
  }
  if (c.opt.watch_s) return errors_watch(c, s, f, o);
  if (m.any()) {
    errors_window(c, s, f, o, m, metrics.printer());
    return metrics.succeed();
  }
  if (metrics.printer()) o.every_port = true;
  ib::ErrorSweep sweep = ib::sweep_errors(s.engine(), f, o);
  sweep_warnings(c, sweep, s);
  if (metrics.printer()) {
    errors_metrics(f, sweep, o, *metrics.printer());
    if (std::any_of(sweep.ports.begin(), sweep.ports.end(),
                    [&](const ib::PortCounters& p) { return ib::over_threshold(p, o); }))
      c.found();
  } else {
    // Text: a line a port, then the summary line. JSON: one object, the
    // port records in "ports" and the counts in "summary" (never a record
    // among the ports).
    bool json = c.out.is_json();
    view::Record rec, doc;
    view::Json ports = view::Json::array();
    for (const ib::PortCounters& p : sweep.ports) {
      rec.clear();
      errors_record(f, p, o, c.opt.details, rec);
      if (w.peer) errors_peer(f, p.port, rec);
      if (json)
        ports.push_back(record_json(rec));
      else
        c.out.record(rec);
    }
    if (json) doc.add("ports", "", std::move(ports));
    summary_record(ib::summarize(sweep), doc);
    c.out.record(doc);
    if (!sweep.ports.empty()) c.found();
  }
  if (w.clear) clear_after(c, s, f, o, *w.clear);
  metrics.succeed();
}

}  // namespace

void fabric_errors(Ctx& c) {
  // "errors reset" runs once and reports no findings: exit statuses as
  // iproute2's, its words' errors too.
  auto reset = [&] {
    const bool is = !c.args.empty() && c.args.peek() == "reset";
    if (is) check_takes(c, Takes::Once);
    return is;
  };
  const bool reset_first = reset();
  // from FILE and via DEV/PORT both: the saved fabric's nodes are asked
  // through the port.
  FabricSource src = c.args.take_source();
  if (reset_first || reset()) {
    c.args.next();
    return fabric_errors_reset(c, src);
  }
  // Every sweep (window, save and since too) reports findings: the table's
  // Findings column makes a failure exit 2.
  errors_sweep(c, src);
}

// `fabric counters`: every port's traffic counters, as ibqueryerrors
// --counters (and ibtool's ibdatacounters) print them. Nothing is judged,
// so there are no findings; the nodes and ports are chosen by `fabric
// errors`' words for them.
void fabric_counters(Ctx& c) {
  FabricSource src = c.args.take_source();
  ib::SweepOptions o;
  NodeWords node;
  std::optional<uint8_t> port;
  while (!c.args.empty()) {
    const std::string k = c.args.next();
    if (node_word(c.args, k, node, "fabric counters")) {
    } else if (node_type_word(k, o.nodes)) {
    } else if (matches(k, "port")) {
      port = parse_port(c.args.need_value(k, "port number"));
    } else {
      throw UsageError("unknown fabric counters argument \"" + k + "\"");
    }
  }
  if (port && !node) throw UsageError("\"port N\" needs the node: lid LID, guid GUID or dr PATH");
  o.counters.clear();   // no error counter checked
  o.extended = true;    // PortCountersExtended's 64-bit counters where the PMA has them
  o.every_port = true;  // port by port, never a switch's sum
  MadSession s(c, src.via);
  ib::Fabric f = fabric_of(c, src, &s, fabric_options(c));
  if (node) o.nodes.node = find_node(f, node, s);
  if (port) {
    check_counters_port(f, *o.nodes.node, *port);
    o.nodes.port = port;
  }
  ib::ErrorSweep sweep = ib::sweep_errors(s.engine(), f, o);
  sweep_warnings(c, sweep, s);
  view::Record rec;
  for (const ib::PortCounters& p : sweep.ports) {
    rec.clear();
    errors_record(f, p, o, false, rec);
    c.out.record(rec);
  }
}

}  // namespace rdma
