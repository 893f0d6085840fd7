// rdma fabric { show | links | topology | save | diff }: the whole subnet,
// discovered by directed route (lib/ib/discover.h) or read from a file
// saved earlier (`from FILE`, lib/ib/cache.h).
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "lib/error.h"
#include "lib/ib/cache.h"
#include "lib/ib/degraded.h"
#include "lib/ib/diff.h"
#include "lib/ib/discover.h"
#include "lib/ib/dot.h"
#include "lib/ib/dr_path.h"
#include "lib/ib/errors.h"
#include "lib/ib/find.h"
#include "lib/ib/node_name_map.h"
#include "lib/ib/port_labels.h"
#include "lib/ib/rates.h"
#include "lib/ib/records.h"
#include "lib/ib/sa_fabric.h"
#include "lib/ib/topology.h"
#include "lib/mad/attrs.h"
#include "lib/mad/attrs_pma.h"
#include "lib/mad/format.h"
#include "lib/mad/speed.h"
#include "lib/mad/target.h"
#include "rdma/ib/check.h"
#include "rdma/ib/fabric_source.h"
#include "rdma/ib/session.h"
#include "rdma/metrics_run.h"
#include "rdma/objects.h"
#include "rdma/stat_watch.h"

namespace rdma {

namespace {

void fabric_help(Ctx& c) {
  std::fputs(
      "Usage: rdma fabric show [ switches | cas | routers ] [ from FILE ] [via DEV/PORT]\n"
      "       rdma fabric links [ all | degraded | down ] [ from FILE ] [via DEV/PORT]\n"
      "       rdma fabric links [ all | degraded | down ] [ from TARGET ] [ hops N ]\n"
      "                         [via DEV/PORT]\n"
      "       rdma fabric errors [ counters LIST ] [ threshold NAME=N ]... [ thresholds FILE ]\n"
      "                          [ data ] [ details ] [ switches | cas | routers ]\n"
      "                          [ lid LID | guid GUID ] [ clear [ all ] ] [ from FILE ]\n"
      "                          [via DEV/PORT]\n"
      "       rdma fabric errors reset [ all ] [ lid LID | guid GUID ] [ port N ]\n"
      "                                [ from FILE ] [via DEV/PORT]\n"
      "       rdma fabric topology [ dot [ errors ] ] [ from FILE ] [via DEV/PORT]\n"
      "       rdma fabric save FILE [via DEV/PORT]\n"
      "       rdma fabric diff FILE [ from FILE2 ] [via DEV/PORT]\n"
      "       rdma fabric check [ ids | links | sm | routes | credit | balance ]...\n"
      "                         [ from FILE ] [via DEV/PORT]\n"
      "Options --window N, --timeout MS and --retries N set how many MADs are in\n"
      "flight, how long each waits and how often it is sent again. fabric errors\n"
      "takes -w SECONDS [-c COUNT] (rates per second); fabric errors and fabric links\n"
      "take --openmetrics or --prometheus [--output FILE]. fabric check routes reads\n"
      "the unicast and the multicast forwarding tables.\n"
      "LIST := NAME[,NAME]... error counters by IBA name (SymbolErrorCounter) or as\n"
      "perf show prints them (symbol_errors).\n",
      c.help_out);
}

// `from FILE` and `via DEV/PORT`, anywhere in the words. A command that
// sends MADs to a saved fabric's nodes (fabric errors) takes both.
FabricSource source(Ctx& c, bool sends_mads = false) {
  FabricSource src = c.args.take_source();
  if (!sends_mads && !src.from.empty() && !src.via.empty())
    throw UsageError("\"from FILE\" reads a saved fabric: \"via\" has no port to leave from");
  return src;
}

// The fabric of src as the fabric commands take it: --sa and -d as given.
FoundFabricOptions found_options(const Ctx& c) {
  return {.sa = c.opt.sa, .stats = c.opt.details != 0, .scope = {}};
}

ib::Fabric found_fabric(Ctx& c, const FabricSource& src, MadSession* session) {
  return rdma::found_fabric(c, src, session, found_options(c));
}

ib::Fabric fabric_of(Ctx& c, const FabricSource& src, MadSession* session = nullptr) {
  return rdma::fabric_of(c, src, session, found_options(c));
}

void fabric_show(Ctx& c) {
  FabricSource src = source(c);
  int type = 0;  // all
  if (!c.args.empty()) {
    const std::string k = c.args.next();
    if (matches(k, "switches"))
      type = static_cast<int>(ib::NodeType::Switch);
    else if (matches(k, "cas"))
      type = static_cast<int>(ib::NodeType::Ca);
    else if (matches(k, "routers"))
      type = static_cast<int>(ib::NodeType::Router);
    else
      throw UsageError("unknown fabric show argument \"" + k + "\" (switches, cas or routers)");
  }
  c.args.done();
  ib::Fabric f = fabric_of(c, src);
  view::Record rec;
  for (const ib::Node& n : f.nodes) {
    if (type && n.info.node_type != type) continue;
    rec.clear();
    ib::node_record(n, c.opt.details, rec);
    c.out.record(rec);
  }
}

// A link's metrics: both ends' labels, PortInfo's state and physical state
// (their IBA values: 4 Active, 5 LinkUp), and, up, its lanes, the lane's
// signalling rate and the link's data rate in bytes per second
// (Prometheus' base unit; iblinkinfo's and ibstat's Gb/s over 8).
void link_gauges(const ib::Fabric& f, ib::PortRef end, view::Record& rec) {
  ib::add_port_labels(f, end, rec);
  const ib::Port& port = f.at(end);
  const ib::PortInfo* pi = port.info ? &*port.info : nullptr;
  if (!pi && port.peer && f.at(*port.peer).info) pi = &*f.at(*port.peer).info;
  if (!pi) return;
  rec.pair("state", pi->state);
  rec.pair("physical_state", pi->phys_state);
  if (pi->state == ib::kPortDown) return;
  mad::Generation g = ib::link_generation(*pi);
  if (unsigned lanes = mad::width_lanes(pi->width_active)) rec.pair("width_lanes", lanes);
  if (const char* lane = mad::lane_speed_text(g))
    rec.pair("speed_bytes_per_second",
             static_cast<uint64_t>(std::llround(std::strtod(lane, nullptr) * 1e9 / 8)));
  if (unsigned tenths = mad::rate_tenths(g, pi->width_active))
    rec.pair("rate_bytes_per_second", static_cast<uint64_t>(tenths) * 12500000);
}

// A partial scan's words (iblinkinfo -S/-D and -n): `from TARGET` where
// TARGET starts with its keyword (lid, guid, gid, dr: a bare `from 5`
// stays the saved file "5") and `hops N`, anywhere in the words.
struct LinksScope {
  std::optional<mad::Target> start;
  std::optional<unsigned> hops;
};

LinksScope take_links_scope(Ctx& c) {
  LinksScope scope;
  std::vector<std::string> w = c.args.take_rest(), kept;
  for (size_t j = 0; j < w.size(); ++j) {
    const bool target_next = j + 1 < w.size() && (w[j + 1] == "lid" || w[j + 1] == "guid" ||
                                                  w[j + 1] == "gid" || w[j + 1] == "dr");
    if (w[j] == "from" && target_next) {
      size_t k = j + 1;
      scope.start = mad::parse_target(w, k);
      j = k - 1;
    } else if (w[j] == "hops") {
      if (j + 1 >= w.size()) throw UsageError("missing N after \"hops\"");
      scope.hops =
          static_cast<unsigned>(need_number(w[++j], "hops", NumberRule{.max = mad::kMaxHops}));
    } else {
      kept.push_back(w[j]);
      // `from FILE`: the file's name is never a keyword of ours.
      if ((w[j] == "from" || w[j] == "via") && j + 1 < w.size()) kept.push_back(w[++j]);
    }
  }
  c.args = Args(std::move(kept));
  return scope;
}

// The directed route to a partial scan's start node: LIDs through the
// switches' tables from the local port, GUIDs and GIDs through the SA.
std::vector<uint8_t> start_path(MadSession& s, const mad::Target& t) {
  if (t.kind == mad::Target::Kind::Dr) return t.path;
  mad::Route r = s.route(t);
  return ib::directed_route_to(s.engine(), static_cast<uint8_t>(s.local().port), s.local().lid,
                               r.lid);
}

// `links`: every link once; `all` adds the ports with no peer; `degraded`
// the links below what both ends support; `down` the ports down. `from
// TARGET` and `hops N` discover only the nodes within N links of the start
// node and list the links among them; `from TARGET` alone, its own links.
void fabric_links(Ctx& c) {
  LinksScope scope = take_links_scope(c);
  FabricSource src = source(c);
  const bool partial = scope.start || scope.hops;
  if (partial && !src.from.empty())
    throw UsageError("\"from TARGET\" and \"hops\" scan the live fabric; no \"from FILE\"");
  if (partial && c.opt.sa)
    throw UsageError(
        "--sa reads the whole fabric from the SA; a partial scan is by directed route");
  enum { Links, All, Degraded, Down } what = Links;
  if (!c.args.empty()) {
    const std::string k = c.args.next();
    if (matches(k, "all"))
      what = All;
    else if (matches(k, "degraded"))
      what = Degraded;
    else if (matches(k, "down"))
      what = Down;
    else
      throw UsageError("unknown fabric links argument \"" + k + "\" (all, degraded or down)");
  }
  c.args.done();
  std::vector<std::string> gauges = {"state", "physical_state", "width_lanes",
                                     "speed_bytes_per_second", "rate_bytes_per_second"};
  MetricsRun metrics(c, {"rdma_ib_link_", "InfiniBand link", ib::port_label_keys(), {}, {}, {}},
                     "rdma_ib_fabric_links_", "the fabric's discovery", gauges);
  FoundFabricOptions o = found_options(c);
  std::optional<MadSession> session;
  if (partial) {
    session.emplace(c, src.via);
    if (scope.start) o.scope.from = start_path(*session, *scope.start);
    o.scope.hops = scope.hops ? *scope.hops : 1u;
  }
  ib::Fabric f = rdma::fabric_of(c, src, session ? &*session : nullptr, o);
  // `from TARGET` alone: the start node's own ports (iblinkinfo -S/-D);
  // with hops, every node found (as with -a).
  const bool own = scope.start && !scope.hops;
  view::Record rec;
  for (uint32_t n = 0; n < f.nodes.size(); ++n) {
    for (const ib::Port& p : f.nodes[n].ports) {
      if (own && n != 0 && (!p.peer || p.peer->node != 0)) continue;
      std::optional<ib::LinkBest> low;
      if (what == Down) {
        // Down or polling: a port that could carry a link and does not.
        if (p.num == 0 || !p.info || p.info->state != ib::kPortDown) continue;
      } else if (p.peer) {
        // Each link once, from its end found first.
        if (p.peer->node < n || (p.peer->node == n && p.peer->port < p.num)) continue;
        if (what == Degraded) {
          const ib::Port& q = f.at(*p.peer);
          if (!p.info || !q.info ||
              !(low = ib::degraded(*p.info, *q.info, ib::speed_caps(f.nodes[n], *p.info),
                                   ib::speed_caps(f.nodes[p.peer->node], *q.info))))
            continue;
        }
      } else if (what != All || p.num == 0 || !p.info) {
        continue;  // `all`: the ports with no peer too (switch port 0 is no link)
      }
      rec.clear();
      if (metrics.printer()) {
        link_gauges(f, {n, p.num}, rec);
        metrics.printer()->record(rec);
        continue;
      }
      ib::port_record(f, {n, p.num}, c.opt.details, rec);
      if (low) {
        rec.pair("could_be_width", mad::value_text(mad::Fmt::Width, low->width));
        mad::add_speed(rec, low->generation(), low->width, low->speed, "could_be_");
      }
      c.out.record(rec);
    }
  }
  metrics.succeed();
}

void sweep_warnings(Ctx& c, const ib::ErrorSweep& sweep, MadSession& s);

// `topology dot [ errors ]`: the Graphviz picture; errors marks the links
// with a port over ibqueryerrors' default thresholds.
void fabric_topology_dot(Ctx& c, const FabricSource& src) {
  bool errors = !c.args.empty() && matches(c.args.peek(), "errors");
  if (errors) c.args.next();
  c.args.done();
  if (c.out.is_json()) throw UsageError("fabric topology dot is Graphviz's text format; no JSON");
  std::vector<ib::PortRef> over;
  std::optional<MadSession> s;
  if (errors) s.emplace(c, src.via);
  ib::Fabric f = fabric_of(c, src, s ? &*s : nullptr);
  if (s) {
    ib::ErrorSweep sweep = ib::sweep_errors(s->engine(), f, {});
    sweep_warnings(c, sweep, *s);
    for (const ib::PortCounters& p : sweep.ports) over.push_back(p.port);
  }
  std::fflush(c.help_out);
  ib::write_dot(f, c.help_out, over);
}

void fabric_topology(Ctx& c) {
  FabricSource src = source(c);
  if (!c.args.empty() && matches(c.args.peek(), "dot")) {
    c.args.next();
    return fabric_topology_dot(c, src);
  }
  c.args.done();
  if (c.out.is_json()) throw UsageError("fabric topology is ibnetdiscover's text format; no JSON");
  ib::Fabric f = fabric_of(c, src);
  std::fflush(c.help_out);
  ib::write_topology(f, c.help_out);
}

void fabric_save(Ctx& c) {
  FabricSource src = source(c);
  std::string file = c.args.need_word("FILE to save the fabric to");
  c.args.done();
  ib::Fabric f = found_fabric(c, src, nullptr);  // the real descriptions
  ib::save_fabric(f, file);
}

// Exit status as diff(1): 0 the same, 1 different, 2 trouble.
void fabric_diff(Ctx& c) {
  try {
    FabricSource src = source(c);
    std::string file = c.args.need_word("FILE to compare the fabric with");
    c.args.done();
    ib::Fabric before = fabric_of(c, {.from = file, .via = ""});
    ib::Fabric now = fabric_of(c, src);
    std::vector<ib::Change> changes = ib::diff(before, now);
    view::Record rec;
    for (const ib::Change& ch : changes) {
      rec.clear();
      ib::change_record(ch, rec);
      c.out.record(rec);
    }
    if (!changes.empty()) c.status = 1;
  } catch (const UsageError& e) {
    throw ExitUsageError(2, e.what());
  } catch (const Error& e) {
    throw ExitError(2, e.what());
  }
}

// Leading blanks and a sign after them as strtoull took them, but no '-' first.
std::string after_equals(const std::string& s, size_t eq, const char* what) {
  std::string v = s.substr(eq + 1);
  std::optional<uint64_t> n;
  if (v.empty() || v[0] != '-') n = parse_number(v, {.c_bases = true, .blanks_and_sign = true});
  if (!n) throw UsageError(std::string("invalid ") + what + " \"" + s + "\" (expected NAME=N)");
  return std::to_string(*n);
}

// `lid LID | guid GUID`: a node by any of its LIDs or by its node or port
// GUID, in the fabric discovered or loaded.
struct NodeWords {
  std::optional<uint16_t> lid;
  std::optional<uint64_t> guid;
  explicit operator bool() const { return lid || guid; }
};

// Takes the value of k when k is "lid" or "guid"; false for another word.
bool node_word(Args& args, const std::string& k, NodeWords& w) {
  if (k == "lid")
    w.lid = mad::parse_lid(args.need_value(k, "LID"));
  else if (k == "guid")
    w.guid = mad::parse_guid(args.need_value(k, "GUID"));
  else
    return false;
  return true;
}

// The node's index; Error when the fabric has none.
uint32_t find_node(const ib::Fabric& f, const NodeWords& w) {
  if (std::optional<ib::PortRef> at =
          w.lid ? ib::find_port_lid(f, *w.lid) : ib::find_guid(f, *w.guid))
    return at->node;
  std::string what = w.lid ? "LID " + std::to_string(*w.lid) : "GUID " + mad::guid_text(*w.guid);
  throw Error("no node with " + what + " in the fabric");
}

// The words of `fabric errors`: what the sweep reads, which nodes, and the
// clearing after it.
struct ErrorsWords {
  ib::SweepOptions sweep;
  NodeWords node;
  std::optional<bool> clear;  // clear after reading; true: every counter (clear all)
};

// A threshold file's unknown names are warnings, added to warnings.
ErrorsWords errors_words(Args& args, std::vector<std::string>& warnings) {
  ErrorsWords w;
  ib::SweepOptions& o = w.sweep;
  while (!args.empty()) {
    const std::string k = args.next();
    auto value = [&](const char* what) { return args.need_value(k, what); };
    if (node_word(args, k, w.node)) {
      if (w.node.lid && w.node.guid)
        throw UsageError("fabric errors takes lid LID or guid GUID, not both");
    } else if (matches(k, "switches")) {
      o.nodes.node_type = static_cast<uint8_t>(ib::NodeType::Switch);
    } else if (matches(k, "cas")) {
      o.nodes.node_type = static_cast<uint8_t>(ib::NodeType::Ca);
    } else if (matches(k, "routers")) {
      o.nodes.node_type = static_cast<uint8_t>(ib::NodeType::Router);
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
        if (!f) throw UsageError("unknown error counter \"" + name + "\"");
        o.counters.push_back(f);
        b = e + 1;
      }
    } else if (k == "threshold") {
      std::string t = value("NAME=N");
      size_t eq = t.find('=');
      if (eq == std::string::npos)
        throw UsageError("invalid threshold \"" + t + "\" (expected NAME=N)");
      o.thresholds.set(t.substr(0, eq), std::stoull(after_equals(t, eq, "threshold")));
    } else if (k == "thresholds") {
      for (std::string& w : o.thresholds.load(value("FILE"))) warnings.push_back(std::move(w));
    } else if (matches(k, "data")) {
      o.extended = true;
    } else if (matches(k, "details")) {
      o.details = true;
    } else {
      throw UsageError("unknown fabric errors argument \"" + k + "\"");
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
  rec.pair("node_guid", mad::guid_text(n.info.node_guid));
  rec.pair("description", mad::desc_text(n.description), n.description);
  rec.pair("port", c.port.port);
  if (uint64_t g = ib::port_guid(f, c.port)) rec.pair("port_guid", mad::guid_text(g));
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
  if (o.extended && !c.ext.empty()) {
    std::vector<mad::FieldDef> ext;
    for (const mad::FieldDef& d : mad::kPortCountersExtended.fields)
      if (d.level == mad::kShow) ext.push_back(d);
    mad::decode_fields(ext, c.ext, 0, rec);
  }
  if (!c.rcv_details.empty()) mad::decode(mad::kPortRcvErrorDetails, c.rcv_details, 0, rec);
  if (!c.xmit_details.empty()) mad::decode(mad::kPortXmitDiscardDetails, c.xmit_details, 0, rec);
}

void errors_record(const ib::Fabric& f, const ib::PortCounters& c, const ib::SweepOptions& o,
                   bool all_counters, view::Record& rec) {
  errors_where(f, c, rec);
  errors_counters(c, o, all_counters, rec);
}

// `reset [all] [lid LID | guid GUID] [port N]`: the node by any of its LIDs
// or by its node or port GUID, in the fabric discovered or loaded.
void fabric_errors_reset(Ctx& c, const FabricSource& src) {
  bool all = false;
  NodeWords node;
  std::optional<uint8_t> port;
  while (!c.args.empty()) {
    const std::string k = c.args.next();
    auto value = [&](const char* what) { return c.args.need_value(k, what); };
    if (matches(k, "all"))
      all = true;
    else if (node_word(c.args, k, node))
      continue;
    else if (matches(k, "port"))
      port = parse_port(value("port number"));
    else
      throw UsageError("unknown fabric errors reset argument \"" + k +
                       "\" (all, lid LID, guid GUID or port N)");
  }
  if (node.lid && node.guid)
    throw UsageError("fabric errors reset takes lid LID or guid GUID, not both");
  if (port && !node) throw UsageError("\"port N\" needs the node: lid LID or guid GUID");
  MadSession s(c, src.via);
  ib::Fabric f = fabric_of(c, src, &s);
  ib::ClearSelect only;
  if (node) {
    only.node = find_node(f, node);
    if (port) {
      const ib::Node& node = f.nodes[*only.node];
      const ib::Port* p = node.port(*port);
      if (!p || !p->info || (!node.is_switch() && (*port == 0 || !p->info->lid)))
        throw Error("node " + mad::desc_text(node.description) + " has no port " +
                    std::to_string(*port) + " with counters");
      only.port = port;
    }
  }
  std::vector<std::string> warnings = ib::clear_counters(s.engine(), f, all, only);
  for (const std::string& warning : warnings) std::fprintf(c.err, "warning: %s\n", warning.c_str());
  if (!warnings.empty()) c.status = 1;
}

// The sweep is over: its progress line goes before what is printed.
void sweep_warnings(Ctx& c, const ib::ErrorSweep& sweep, MadSession& s) {
  s.end_progress();
  uint64_t mads_sent = s.engine().stats().sent;
  for (const std::string& warning : sweep.warnings)
    std::fprintf(c.err, "warning: %s\n", warning.c_str());
  if (c.opt.details)
    std::fprintf(c.err,
                 "errors: %zu nodes checked, %zu ports checked, %zu over threshold; "
                 "MADs sent %llu in all\n",
                 sweep.nodes_checked, sweep.ports_checked, sweep.ports.size(),
                 static_cast<unsigned long long>(mads_sent));
  if (!sweep.warnings.empty()) c.status = 1;
}

// ibqueryerrors' summary, after the ports: text "summary: 6 nodes checked,
// 20 ports checked, 3 ports over threshold on 2 nodes" (", 1 PMA query
// failed" when one did), JSON an object {"summary": {...}} with the counts.
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

// -w SECONDS: a sweep of every port each interval (the fabric discovered
// or loaded once), listing the ports over a threshold or whose counters
// moved, each counter with its rate per second since the sweep before
// (lib/ib/rates.h). Text: an empty line between intervals; JSON: one
// document per interval.
void errors_watch(Ctx& c, MadSession& s, const ib::Fabric& f, ib::SweepOptions o) {
  using Clock = std::chrono::steady_clock;
  o.every_port = true;  // a port's first reading must be there when it starts to move
  own_json_output(c, "-w");
  ib::CounterRates rates;
  std::optional<Clock::time_point> last;
  bool listed = false;
  view::Record rec;
  watch_loop(c.opt.watch_s, c.opt.count, [&](int n) {
    Clock::time_point start = Clock::now();
    ib::ErrorSweep sweep = ib::sweep_errors(s.engine(), f, o);
    // Over the time between the sweeps' starts: a slow sweep (dead nodes)
    // delays the next one, and the rate stays true.
    double seconds = last ? std::chrono::duration<double>(start - *last).count() : 0;
    last = start;
    sweep_warnings(c, sweep, s);
    Interval iv(c, n);
    for (const ib::PortCounters& p : sweep.ports) {
      std::vector<ib::CounterRate> r = rates.update(
          {f.nodes[p.port.node].info.node_guid, p.port.port}, ib::sweep_readings(p, o), seconds);
      if (!ib::over_threshold(p, o) && !ib::moved(r)) continue;
      rec.clear();
      errors_where(f, p, rec);
      ib::add_counter_rates(r, rec);
      iv.out().record(rec);
      listed = true;
    }
    rates.end_interval();
    iv.end();
  });
  if (listed) c.status = 1;
}

// Clears the counters the sweep read (`clear`: the error counters, as
// ibqueryerrors -k; `clear all`: every counter, as -K).
void clear_after(Ctx& c, MadSession& s, const ib::Fabric& f, const ib::SweepOptions& o, bool all) {
  std::vector<std::string> warnings =
      ib::clear_counters(s.engine(), f, all, {o.nodes.node, std::nullopt, o.nodes.node_type});
  for (const std::string& warning : warnings) std::fprintf(c.err, "warning: %s\n", warning.c_str());
  if (!warnings.empty()) c.status = 1;
}

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

// Exit status: 0 when no port is over a threshold, 1 when one is or a PMA
// did not answer (as ibqueryerrors).
void fabric_errors(Ctx& c) {
  FabricSource src = source(c, true);
  if (!c.args.empty() && c.args.peek() == "reset") {
    c.args.next();
    check_takes(c, Takes::Once);
    return fabric_errors_reset(c, src);
  }
  std::vector<std::string> file_warnings;
  ErrorsWords w = errors_words(c.args, file_warnings);
  ib::SweepOptions& o = w.sweep;
  for (const std::string& warning : file_warnings)
    std::fprintf(c.err, "warning: %s\n", warning.c_str());
  if (c.opt.count && !c.opt.watch_s) throw UsageError("-c COUNT needs -w SECONDS");
  if (c.opt.watch_s && w.clear) throw UsageError("\"clear\" reads the counters once: not with -w");
  if (c.opt.watch_s && o.details) throw UsageError("\"details\" are read once: not with -w");
  if (c.opt.watch_s) refuse_in_json_batch(c, "-w");
  MetricsRun metrics(c, ib::port_metrics_spec(), "rdma_ib_fabric_errors_", "the error sweep");
  MadSession s(c, src.via);
  ib::Fabric f = fabric_of(c, src, &s);
  if (w.node) o.nodes.node = find_node(f, w.node);
  if (c.opt.watch_s) return errors_watch(c, s, f, o);
  if (metrics.printer()) o.every_port = true;
  ib::ErrorSweep sweep = ib::sweep_errors(s.engine(), f, o);
  sweep_warnings(c, sweep, s);
  if (metrics.printer()) {
    errors_metrics(f, sweep, o, *metrics.printer());
    if (std::any_of(sweep.ports.begin(), sweep.ports.end(),
                    [&](const ib::PortCounters& p) { return ib::over_threshold(p, o); }))
      c.status = 1;
  } else {
    view::Record rec;
    for (const ib::PortCounters& p : sweep.ports) {
      rec.clear();
      errors_record(f, p, o, c.opt.details, rec);
      c.out.record(rec);
    }
    rec.clear();
    summary_record(ib::summarize(sweep), rec);
    c.out.record(rec);
    if (!sweep.ports.empty()) c.status = 1;
  }
  if (w.clear) clear_after(c, s, f, o, *w.clear);
  metrics.succeed();
}

void fabric_check_cmd(Ctx& c) {
  fabric_check(c, fabric_of);
}

}  // namespace

void cmd_fabric(Ctx& c) {
  static constexpr Cmd kTable[] = {
      // fabric errors: -w and --openmetrics, but "errors reset" runs once.
      {nullptr, fabric_show},        {"show", fabric_show},
      {"list", fabric_show},         {"links", fabric_links, Takes::Metrics},
      {"topology", fabric_topology}, {"save", fabric_save},
      {"diff", fabric_diff},         {"errors", fabric_errors, Takes::Watch | Takes::Metrics},
      {"check", fabric_check_cmd},   {"help", fabric_help},
  };
  dispatch(c, kTable, "fabric command");
}

}  // namespace rdma
