// rdma fabric { show | links | topology | save | diff }: the whole subnet,
// discovered by directed route (lib/ib/discover.h) or read from a file
// saved earlier (`from FILE`, lib/ib/cache.h); `errors` is in
// fabric_errors.cc, `check` in fabric_check.cc, `report` in fabric_report.cc,
// `top` in fabric_top.cc.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <set>

#include "lib/error.h"
#include "lib/ib/bounds.h"
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
#include "rdma/ib/fabric_check.h"
#include "rdma/ib/fabric_edit.h"
#include "rdma/ib/fabric_errors.h"
#include "rdma/ib/fabric_pkeys.h"
#include "rdma/ib/fabric_report.h"
#include "rdma/ib/fabric_source.h"
#include "rdma/ib/fabric_top.h"
#include "rdma/ib/plan.h"
#include "rdma/ib/session.h"
#include "rdma/ib/topology_grouped.h"
#include "rdma/ib/topology_slurm.h"
#include "rdma/metrics_run.h"
#include "rdma/objects.h"
#include "rdma/stat_watch.h"

namespace rdma {

namespace {

void fabric_help(Ctx& c) {
  std::fputs(
      "Usage: rdma fabric show [ switches | cas | hosts | routers | pkeys ] [ from FILE ]\n"
      "                        [via DEV/PORT]\n"
      "       rdma fabric links [ all | degraded | down ] [ switches | cas ] [ from FILE ]\n"
      "                         [via DEV/PORT]\n"
      "       rdma fabric links down since FILE [ switches | cas ] [ from FILE ]\n"
      "                         [via DEV/PORT]\n"
      "       rdma fabric links [ all | degraded | down ] node NODE [ port N ]\n"
      "                         [ from FILE ] [via DEV/PORT]\n"
      "       rdma fabric links [ all | degraded | down ] [ from TARGET ] [ hops N ]\n"
      "                         [via DEV/PORT]\n"
      "       rdma fabric errors [ counters LIST ] [ threshold NAME=N ]... [ thresholds FILE ]\n"
      "                          [ data ] [ details ] [ switches | cas | routers ]\n"
      "                          [ lid LID | guid GUID [ port N ] ] [ clear [ all ] ]\n"
      "                          [ from FILE ] [via DEV/PORT]\n"
      "       rdma fabric errors { window SECONDS | save FILE | since FILE }\n"
      "                          [ counters LIST ] [ threshold NAME=N ]... [ thresholds FILE ]\n"
      "                          [ switches | cas | routers ] [ lid LID | guid GUID [ port N ] ]\n"
      "                          [ from FILE ] [via DEV/PORT]\n"
      "       rdma fabric errors reset [ all ] [ lid LID | guid GUID ] [ port N ]\n"
      "                                [ from FILE ] [via DEV/PORT]\n"
      "       rdma fabric counters [ switches | cas | routers ] [ lid LID | guid GUID [ port N ] "
      "]\n"
      "                            [ from FILE ] [via DEV/PORT]\n"
      "       rdma fabric topology [ full ] [ grouped ] [ from FILE ] [via DEV/PORT]\n"
      "       rdma fabric topology dot [ errors ] [ from FILE ] [via DEV/PORT]\n"
      "       rdma fabric topology slurm [ tree | block ] [ from FILE ] [via DEV/PORT]\n"
      "       rdma fabric save FILE [via DEV/PORT]\n"
      "       rdma fabric diff FILE [ switches | cas | routers ]...\n"
      "                        [ links | lids | descriptions | ports ]...\n"
      "                        [ from FILE2 ] [via DEV/PORT]\n"
      "       rdma fabric edit FILE [ to NEWFILE ] { switchguid OLD NEW | caguid OLD NEW |\n"
      "                         sysimgguid OLD NEW | portguid NODE_GUID OLD NEW }...\n"
      "       rdma fabric check [ ids | links | sm | routes | credit | balance | errors |\n"
      "                           fattree | nodes | pkeys ]... [ since FILE ]\n"
      "                         [ severity error | warning | info ]\n"
      "                         [ from FILE ] [via DEV/PORT]\n"
      "       rdma fabric plan check PLAN [ from FILE ] [via DEV/PORT]\n"
      "       rdma fabric plan write FILE [ csv | topology ] [ from FILE ] [via DEV/PORT]\n"
      "       rdma fabric report DIR [ plan PLAN ] [ window SECONDS ] [ from FILE ]\n"
      "                          [via DEV/PORT]\n"
      "       rdma fabric top [ from FILE ] [via DEV/PORT]   (-w SECONDS, default 2; -c COUNT)\n"
      "Options --window N, --timeout MS and --retries N set how many MADs are in\n"
      "flight, how long each waits and how often it is sent again. fabric errors\n"
      "takes -w SECONDS [-c COUNT] (rates per second); fabric errors and fabric links\n"
      "take --openmetrics or --prometheus [--output FILE]. fabric check routes reads\n"
      "the unicast and the multicast forwarding tables.\n"
      "NODE := { NAME | name NAME | lid LID | guid GUID | gid GID | dr PATH }\n"
      "LIST := NAME[,NAME]... error counters by IBA name (SymbolErrorCounter) or as\n"
      "perf show prints them (symbol_errors).\n",
      c.help_out);
}

// `from FILE` or `via DEV/PORT`, anywhere in the words. (fabric errors,
// which sends MADs to a saved fabric's nodes, takes both.)
FabricSource source(Ctx& c) {
  FabricSource src = c.args.take_source();
  if (!src.from.empty() && !src.via.empty())
    throw UsageError("\"from FILE\" reads a saved fabric: \"via\" has no port to leave from");
  return src;
}

void fabric_show(Ctx& c) {
  FabricSource src = source(c);
  int type = 0;  // all
  if (!c.args.empty()) {
    const std::string k = c.args.next();
    if (matches(k, "pkeys")) return fabric_show_pkeys(c, src);
    if (matches(k, "switches"))
      type = static_cast<int>(ib::NodeType::Switch);
    else if (matches(k, "cas") || matches(k, "hosts"))  // hosts: ibhosts' word
      type = static_cast<int>(ib::NodeType::Ca);
    else if (matches(k, "routers"))
      type = static_cast<int>(ib::NodeType::Router);
    else
      throw UsageError(unknown_word("fabric show argument", k,
                                    {"switches", "cas", "hosts", "routers", "pkeys"}));
  }
  c.args.done();
  ib::Fabric f = fabric_of(c, src, nullptr, fabric_options(c));
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
// TARGET starts with its keyword (lid, guid, gid, dr, name: a bare `from 5`
// stays the saved file "5") and `hops N`; one node's ports: `node TARGET`
// (or `node NAME`) and `port N`; anywhere in the words.
struct LinksScope {
  std::optional<mad::Target> start;
  std::optional<unsigned> hops;
  std::optional<mad::Target> node;
  std::optional<uint8_t> port;
  // `switches` or `cas` (iblinkinfo --switches-only, --cas-only): the
  // ports of those nodes only, each from its own end.
  std::optional<bool> switches;
  // `down since FILE` (iblinkinfo --filterdownports): the ports down now
  // that were not down in the fabric saved in FILE.
  std::optional<std::string> since;
};

bool starts_target(const std::string& w) {
  return w == "lid" || w == "guid" || w == "gid" || w == "dr" || w == "name";
}

LinksScope take_links_scope(Ctx& c) {
  LinksScope scope;
  std::vector<std::string> w = c.args.take_rest(), kept;
  for (size_t j = 0; j < w.size(); ++j) {
    const bool target_next = j + 1 < w.size() && starts_target(w[j + 1]);
    if (w[j] == "from" && target_next) {
      size_t k = j + 1;
      scope.start = mad::parse_target(w, k);
      j = k - 1;
    } else if (w[j] == "node") {
      if (j + 1 >= w.size()) throw UsageError("missing NAME, lid L or guid G after \"node\"");
      size_t k = j + 1;
      std::optional<mad::Target> t = mad::parse_target(w, k);
      scope.node = t ? *t : mad::name_target(w[k++]);  // a bare word: a name
      j = k - 1;
    } else if (w[j] == "port") {
      if (j + 1 >= w.size()) throw UsageError("missing N after \"port\"");
      scope.port = parse_port(w[++j]);
    } else if (w[j] == "switches" || w[j] == "cas") {
      const bool sw = w[j] == "switches";
      if (scope.switches && *scope.switches != sw)
        throw UsageError("\"switches\" and \"cas\" exclude each other");
      scope.switches = sw;
    } else if (w[j] == "since") {
      if (j + 1 >= w.size()) throw UsageError("missing FILE after \"since\"");
      scope.since = w[++j];
    } else if (w[j] == "hops") {
      if (j + 1 >= w.size()) throw UsageError("missing N after \"hops\"");
      scope.hops = static_cast<unsigned>(
          need_number(w[++j], "hops", view::NumberRule{.max = ib::max_dr_hops()}));
    } else {
      kept.push_back(w[j]);
      // `from FILE`: the file's name is never a keyword of ours.
      if ((w[j] == "from" || w[j] == "via") && j + 1 < w.size()) kept.push_back(w[++j]);
    }
  }
  if (scope.port && !scope.node) throw UsageError("\"port N\" is a port of \"node TARGET\"");
  if (scope.node && (scope.start || scope.hops))
    throw UsageError("\"node\" lists one node's ports; not with \"from TARGET\" or \"hops\"");
  if (scope.node && scope.switches)
    throw UsageError("\"node\" lists one node's ports; not with \"switches\" or \"cas\"");
  c.args = Args(std::move(kept));
  return scope;
}

// The directed route to a partial scan's start node: LIDs through the
// switches' tables from the local port, GUIDs and GIDs through the SA.
std::vector<uint8_t> start_path(MadSession& s, const mad::Target& t) {
  if (t.kind == mad::Target::Kind::Dr && !t.lid) return t.path;
  mad::Route r = s.route(t);
  if (r.directed && !r.lid) return r.path;  // a name found by discovery, without a LID
  // A LID, or a combined route's start LID and then its path.
  std::vector<uint8_t> path =
      ib::directed_route_to(s.engine(), static_cast<uint8_t>(s.local().port), s.local().lid, r.lid);
  path.insert(path.end(), r.path.begin(), r.path.end());
  return path;
}

// `links`: every link once; `all` adds the ports with no peer; `degraded`
// the links below what both ends support; `down` the ports down. `from
// TARGET` and `hops N` discover only the nodes within N links of the start
// node and list the links among them; `from TARGET` alone, its own links.
void fabric_links(Ctx& c) {
  LinksScope scope = take_links_scope(c);
  FabricSource src = source(c);
  const bool partial = scope.start || scope.hops;  // `node`: the whole fabric, to find it
  if (partial && !src.from.empty())
    throw UsageError("\"from TARGET\" and \"hops\" scan the live fabric; no \"from FILE\"");
  if (partial && c.opt.sa)
    throw UsageError(
        "--sa reads the whole fabric from the SA; a partial scan is by directed route");
  if (partial && c.opt.lid_discovery)
    throw UsageError("--discovery lid finds the whole fabric; a partial scan is by directed route");
  // The kind of list, in kLinksKinds' order: degraded and down are
  // findings (exit status 1 when there is one).
  static constexpr Cmd kLinksKinds[] = {
      {nullptr, nullptr, Takes::Metrics},
      {"all", nullptr, Takes::Metrics},
      {"degraded", nullptr, Takes::Metrics | Takes::Findings},
      {"down", nullptr, Takes::Metrics | Takes::Findings},
  };
  enum What { Links, All, Degraded, Down };
  const What what =
      static_cast<What>(choose(c, kLinksKinds, "fabric links argument") - kLinksKinds);
  c.args.done();
  if (scope.since && what != Down)
    throw UsageError("\"since FILE\" leaves out the ports down in FILE: only with \"down\"");
  // The ports down in the saved fabric, by node GUID and port.
  std::set<std::pair<uint64_t, uint8_t>> down_before;
  if (scope.since)
    for (const ib::Node& n : ib::load_fabric(*scope.since).nodes)
      for (const ib::Port& p : n.ports)
        if (p.info && p.info->state == ib::kPortDown) down_before.insert({n.info.node_guid, p.num});
  std::vector<std::string> gauges = {"state", "physical_state", "width_lanes",
                                     "speed_bytes_per_second", "rate_bytes_per_second"};
  MetricsRun metrics(c, {"rdma_ib_link_", "InfiniBand link", ib::port_label_keys(), {}, {}, {}},
                     "rdma_ib_fabric_links_", "the fabric's discovery", gauges);
  FoundFabricOptions o = fabric_options(c);
  std::optional<MadSession> session;
  if (partial) {
    session.emplace(c, src.via);
    if (scope.start) o.scope.from = start_path(*session, *scope.start);
    o.scope.hops = scope.hops ? *scope.hops : 1u;
  }
  ib::Fabric f = fabric_of(c, src, session ? &*session : nullptr, o);
  // `from TARGET` alone: the start node's own ports (iblinkinfo -S/-D);
  // with hops, every node found (as with -a).
  const bool own = scope.start && !scope.hops;
  std::optional<uint32_t> only;  // `node TARGET`: its ports, its end first
  if (scope.node) {
    std::optional<ib::PortRef> at = ib::find_target(f, *scope.node);
    if (!at) throw Error(scope.node->text + " is not in the fabric");
    only = at->node;
    if (scope.port && !f.nodes[*only].port(*scope.port))
      throw Error(scope.node->text + " has no port " + std::to_string(*scope.port) + " (ports 1-" +
                  std::to_string(f.nodes[*only].info.num_ports) + ")");
  }
  view::Record rec;
  for (uint32_t n = 0; n < f.nodes.size(); ++n) {
    if (only && n != *only) continue;
    // `switches`, `cas`: a node of the other kind is left out (a router
    // is neither, as iblinkinfo's filters leave it out).
    if (scope.switches &&
        (*scope.switches ? !f.nodes[n].is_switch()
                         : f.nodes[n].info.node_type != static_cast<uint8_t>(ib::NodeType::Ca)))
      continue;
    for (const ib::Port& p : f.nodes[n].ports) {
      if (own && n != 0 && (!p.peer || p.peer->node != 0)) continue;
      if (scope.port && p.num != *scope.port) continue;
      std::optional<ib::LinkBest> low;
      if (what == Down) {
        // Down or polling: a port that could carry a link and does not.
        if (p.num == 0 || !p.info || p.info->state != ib::kPortDown) continue;
        if (down_before.count({f.nodes[n].info.node_guid, p.num})) continue;
      } else if (p.peer) {
        // Each link once, from the end ib::end_first puts first (a
        // host's); one node's from it.
        if (!only && !scope.switches && !ib::end_first(f, {n, p.num}, *p.peer)) continue;
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
      if (what == Degraded || what == Down) c.found();
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
  ib::Fabric f = fabric_of(c, src, s ? &*s : nullptr, fabric_options(c));
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
  if (!c.args.empty() && matches(c.args.peek(), "slurm")) {
    c.args.next();
    return fabric_topology_slurm(c, src);
  }
  ib::TopologyStyle style;
  bool grouped = false;  // ibnetdiscover -g
  while (!c.args.empty()) {
    std::string k = c.args.next();
    bool* word = matches(k, "full")      ? &style.full  // ibnetdiscover -f
                 : matches(k, "grouped") ? &grouped
                                         : nullptr;
    if (word && *word) throw UsageError("fabric topology \"" + k + "\" given twice");
    if (word)
      *word = true;
    else
      throw UsageError(
          unknown_word("fabric topology argument", k, {"full", "grouped", "dot", "slurm"}));
  }
  if (grouped) return fabric_topology_grouped(c, src, style);
  if (c.out.is_json()) throw UsageError("fabric topology is ibnetdiscover's text format; no JSON");
  ib::Fabric f = fabric_of(c, src, nullptr, fabric_options(c));
  std::fflush(c.help_out);
  ib::write_topology(f, c.help_out, style);
}

void fabric_save(Ctx& c) {
  FabricSource src = source(c);
  std::string file = c.args.need_word("FILE to save the fabric to");
  c.args.done();
  ib::Fabric f = found_fabric(c, src, nullptr, fabric_options(c));  // the real descriptions
  ib::save_fabric(f, file);
}

// The words after `fabric diff FILE` (ibnetdiscover --diffcheck): the
// kinds of node (switches, cas, routers; all when none is named) and what
// of them is compared (links, lids, descriptions, ports; all when none is).
ib::DiffChecks diff_checks(Ctx& c) {
  if (c.args.empty()) return {};
  ib::DiffChecks k;
  k.switches = k.cas = k.routers = k.links = k.lids = k.descriptions = k.ports = false;
  bool kinds = false, what = false;
  while (!c.args.empty()) {
    const std::string w = c.args.next();
    bool* kind = w == "switches"  ? &k.switches
                 : w == "cas"     ? &k.cas
                 : w == "routers" ? &k.routers
                                  : nullptr;
    bool* part = w == "links"          ? &k.links
                 : w == "lids"         ? &k.lids
                 : w == "descriptions" ? &k.descriptions
                 : w == "ports"        ? &k.ports
                                       : nullptr;
    if (!kind && !part)
      throw UsageError(
          unknown_word("fabric diff check", w,
                       {"switches", "cas", "routers", "links", "lids", "descriptions", "ports"}));
    if (*(kind ? kind : part)) throw UsageError("fabric diff \"" + w + "\" given twice");
    *(kind ? kind : part) = true;
    (kind ? kinds : what) = true;
  }
  if (!kinds) k.switches = k.cas = k.routers = true;
  if (!what) k.links = k.lids = k.descriptions = k.ports = true;
  return k;
}

// Exit status as diff(1) (Takes::Findings): 0 the same, 1 different, 2 trouble.
void fabric_diff(Ctx& c) {
  FabricSource src = source(c);
  std::string file = c.args.need_word("FILE to compare the fabric with");
  ib::DiffChecks checks = diff_checks(c);
  c.args.done();
  ib::Fabric before = fabric_of(c, {.from = file, .via = ""}, nullptr, fabric_options(c));
  ib::Fabric now = fabric_of(c, src, nullptr, fabric_options(c));
  std::vector<ib::Change> changes = ib::diff(before, now, checks);
  view::Record rec;
  for (const ib::Change& ch : changes) {
    rec.clear();
    ib::change_record(ch, rec);
    c.out.record(rec);
  }
  if (!changes.empty()) c.found();
}

void fabric_check_cmd(Ctx& c) {
  fabric_check(c);
}

void fabric_plan_cmd(Ctx& c) {
  fabric_plan(c);
}

void fabric_errors_cmd(Ctx& c) {
  fabric_errors(c);
}

void fabric_report_cmd(Ctx& c) {
  fabric_report(c);
}

void fabric_top_cmd(Ctx& c) {
  fabric_top(c);
}

}  // namespace

std::span<const Cmd> fabric_commands() {
  static constexpr Cmd kTable[] = {
      // fabric errors: -w and --openmetrics, but "errors reset" runs once.
      // fabric links: "degraded" and "down" report findings (kLinksKinds).
      {nullptr, fabric_show},
      {"show", fabric_show},
      {"list", fabric_show},
      {"links", fabric_links, Takes::Metrics},
      // "top" before "topology": the word as typed is the live view.
      {"top", fabric_top_cmd, Takes::Watch},
      {"topology", fabric_topology},
      {"save", fabric_save},
      {"diff", fabric_diff, Takes::Findings},
      {"errors", fabric_errors_cmd, Takes::Watch | Takes::Metrics | Takes::Findings},
      // After "errors": "rdma fabric e" stays errors.
      {"edit", fabric_edit},
      {"check", fabric_check_cmd, Takes::Findings},
      {"counters", fabric_counters},  // fabric_errors.cc: the same sweep, unjudged
      {"report", fabric_report_cmd, Takes::Findings},
      {"plan", fabric_plan_cmd, Takes::Own, plan_commands},
      {"help", fabric_help},
  };
  return kTable;
}

void cmd_fabric(Ctx& c) {
  dispatch(c, fabric_commands(), "fabric command");
}

}  // namespace rdma
