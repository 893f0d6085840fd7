// rdma route { show | trace }: a switch's unicast forwarding table, and the
// hops from one port to another through the switches' tables (ibroute and
// ibtracert). What sits at a LID comes from discovery or a saved fabric.
#include <algorithm>
#include <bitset>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <map>

#include "lib/error.h"
#include "lib/ib/bounds.h"
#include "lib/ib/cache.h"
#include "lib/ib/discover.h"
#include "lib/ib/find.h"
#include "lib/ib/lfts.h"
#include "lib/ib/mfts.h"
#include "lib/ib/node_name_map.h"
#include "lib/ib/node_view.h"
#include "lib/ib/tables_from.h"
#include "lib/ib/unicast_route.h"
#include "lib/mad/attrs.h"
#include "lib/mad/format.h"
#include "lib/mad/types.h"
#include "rdma/ib/fabric_source.h"
#include "rdma/ib/session.h"
#include "rdma/objects.h"

namespace rdma {

namespace {

void route_help(Ctx& c) {
  std::fputs(
      "Usage: rdma route show TARGET [ lid LID | lids FIRST-LAST ] [ all-entries ] [ from FILE ]\n"
      "                          [via DEV/PORT]\n"
      "       rdma route show all [ lid LID | lids FIRST-LAST ] [ all-entries ] [ from FILE ]\n"
      "                       [via DEV/PORT]\n"
      "       rdma route show all mcast [ lid MLID | lids FIRST-LAST ] [ from FILE ]\n"
      "                                 [via DEV/PORT]\n"
      "       rdma route show TARGET mcast [ lid MLID | lids FIRST-LAST ] [via DEV/PORT]\n"
      "       rdma route trace [ SRC ] DST [ mcast MLID ] [ from FILE ] [via DEV/PORT]\n"
      "       rdma route users TARGET port N [ from FILE ] [via DEV/PORT]\n"
      "where  TARGET, SRC, DST := { lid LID | LID | guid GUID | gid GID | dr PATH |\n"
      "              name NAME }\n"
      "SRC is the local port when only DST is given.\n",
      c.help_out);
}

// A multicast LID, 0xc000-0xfffe.
// Leading blanks and a sign after them as strtoul took them, but no '-' first.
uint16_t parse_mlid(const std::string& s) {
  constexpr ib::LidBounds b = ib::mcast_lid_bounds();
  std::optional<uint64_t> v = view::parse_number(
      s,
      {.min = b.first, .max = b.last, .c_bases = true, .blanks_and_sign = true, .not_first = "-"});
  if (!v)
    throw UsageError("invalid multicast LID \"" + s + "\" (expected " +
                     mad::value_text(mad::Fmt::Hex, b.first, 16) + "-" +
                     mad::value_text(mad::Fmt::Hex, b.last, 16) + ")");
  return static_cast<uint16_t>(*v);
}

// The words after the switch: which table (mcast), its LIDs (all of them,
// "lid 4" as 4-4 or "lids 1-20"; multicast: MLIDs) and every: the entries
// that send a LID nowhere too (ibroute -a).
struct TableWords {
  bool mcast = false;
  ib::LidBounds lids;
  bool every = false;
};

// [ mcast ] [ lid LID | lids FIRST-LAST ] [ all-entries ], in any order.
TableWords table_words(Args& args) {
  bool mcast = false;
  bool every = false;
  std::optional<std::pair<std::string, std::string>> range;
  while (!args.empty()) {
    std::string k = args.next();
    if (k == "mcast" && !mcast) {
      mcast = true;
    } else if (k == "all-entries" && !every) {
      every = true;
    } else if ((k == "lid" || k == "lids") && !range) {
      range.emplace(k, args.need_value(k, "a value"));
    } else if (range) {
      throw UsageError("unexpected argument \"" + k + "\"");
    } else {
      throw UsageError(
          unknown_word("route show argument", k, {"lid", "lids", "mcast", "all-entries"}));
    }
  }
  // An MFT entry that forwards nowhere is an empty mask: nothing to list.
  if (mcast && every)
    throw UsageError("\"all-entries\" is for the unicast table, not with \"mcast\"");
  TableWords r{mcast, mcast ? ib::mcast_lid_bounds() : ib::unicast_lid_bounds(), every};
  if (!range) return r;
  auto parse = [&](const std::string& v) { return mcast ? parse_mlid(v) : mad::parse_lid(v); };
  const std::string& v = range->second;
  if (range->first == "lid") {
    r.lids.first = r.lids.last = parse(v);
    return r;
  }
  size_t dash = v.find('-');
  if (dash == std::string::npos) throw UsageError("invalid LID range \"" + v + "\" (expected A-B)");
  r.lids.first = parse(v.substr(0, dash));
  r.lids.last = parse(v.substr(dash + 1));
  if (r.lids.first > r.lids.last)
    throw UsageError("invalid LID range \"" + v + "\": " + v.substr(0, dash) + " > " +
                     v.substr(dash + 1));
  return r;
}

// What answers at a port: type, node and port GUID, description.
void add_node(view::Record& r, const ib::Fabric& f, ib::PortRef p) {
  const ib::Node& n = f.nodes[p.node];
  const char* type = ib::node_type_name(n.info.node_type);
  r.pair("type", type ? type : "unknown");
  r.pair("node_guid", mad::guid_hex(n.info.node_guid));
  uint64_t pg = n.is_switch() ? n.info.port_guid : n.ports[p.port].guid;
  r.pair("port_guid", mad::guid_hex(pg));
  r.pair("description", mad::desc_text(n.description), n.description);
}

// One MLID of a multicast table: the MLID and the ports its packets
// leave by (the x's of ibroute -M).
void add_mlid(view::Record& rec, size_t mlid, const std::bitset<256>& mask, int num_ports) {
  char text_mlid[8];
  std::snprintf(text_mlid, sizeof text_mlid, "0x%04zx", mlid);
  rec.pair("mlid", text_mlid);
  std::string text;
  view::Json ports = view::Json::array();
  for (int p = 0; p <= num_ports; ++p)
    if (mask[p]) {
      text += (text.empty() ? "" : ",") + std::to_string(p);
      ports.push_back(p);
    }
  rec.pair("ports", text, std::move(ports));
}

// The multicast table: each MLID that forwards anywhere and its ports.
void show_mcast(Ctx& c, const FabricSource& src, const mad::Target& sw, ib::LidBounds mlids) {
  if (!src.from.empty())
    throw UsageError("\"from\" names LIDs' owners; a multicast table has none");
  MadSession s(c, src.via);
  ib::Mft t = ib::read_mft_from(s.local().lid, s.engine(), s.route(sw), mlids.first, mlids.last);
  view::Record rec;
  for (size_t i = 0; i < t.masks.size(); ++i) {
    if (t.masks[i].none()) continue;
    rec.clear();
    add_mlid(rec, t.first + i, t.masks[i], t.num_ports);
    c.out.record(rec);
  }
}

// The switch a line of `route show all` is in.
void add_switch(view::Record& rec, const ib::Node& sw) {
  const ib::Port* p0 = sw.port(0);
  rec.pair("switch_guid", mad::guid_hex(sw.info.node_guid));
  rec.pair("switch_lid", p0 && p0->info ? p0->info->lid : 0);
  rec.pair("switch_description", mad::desc_text(sw.description), sw.description);
}

// `all mcast`: every switch's multicast table in one run (dump_mfts), each
// MLID with the switch it is in. The switches and their routes come from
// discovery or `from FILE`; the tables are always read from the switches.
void route_show_all_mcast(Ctx& c, const FabricSource& src, ib::LidBounds mlids) {
  MadSession s(c, src.via);
  ib::Fabric f = fabric_of(c, src, &s, {});
  std::vector<std::string> warnings;
  ib::Mfts mfts = ib::read_mfts(s.engine(), f, warnings);
  c.warn(warnings);
  view::Record rec;
  for (uint32_t n = 0; n < f.nodes.size(); ++n) {
    if (!mfts[n]) continue;
    const ib::Node& sw = f.nodes[n];
    for (auto it = mfts[n]->lower_bound(mlids.first);
         it != mfts[n]->end() && it->first <= mlids.last; ++it) {
      rec.clear();
      add_switch(rec, sw);
      add_mlid(rec, it->first, it->second, sw.info.num_ports);
      c.out.record(rec);
    }
  }
}

// `all`: every switch's table in one run (dump_fts), each entry with the
// switch it is in.
void route_show_all(Ctx& c, const FabricSource& src) {
  TableWords w = table_words(c.args);
  if (w.mcast) return route_show_all_mcast(c, src, w.lids);
  MadSession s(c, src.via);
  ib::Fabric f = fabric_of(c, src, &s, {});
  std::vector<std::string> warnings;
  std::vector<std::optional<ib::Lft>> lfts = ib::read_lfts(s.engine(), f, warnings);
  c.warn(warnings);
  std::map<uint16_t, ib::PortRef> owners = ib::lid_owners(f);
  view::Record rec;
  for (uint32_t n = 0; n < f.nodes.size(); ++n) {
    if (!lfts[n]) continue;
    const ib::Node& sw = f.nodes[n];
    const std::vector<uint8_t>& ports = lfts[n]->ports;
    for (size_t lid = w.lids.first; lid <= w.lids.last && lid < ports.size(); ++lid) {
      if (ports[lid] == ib::kNoPort && !w.every) continue;
      rec.clear();
      add_switch(rec, sw);
      rec.pair("lid", lid);
      rec.pair("port", ports[lid]);
      auto o = owners.find(static_cast<uint16_t>(lid));
      if (o != owners.end()) add_node(rec, f, o->second);
      c.out.record(rec);
    }
  }
}

void route_show(Ctx& c) {
  FabricSource src = c.args.take_source();
  if (!c.args.empty() && c.args.peek() == "all") {
    c.args.next();
    return route_show_all(c, src);
  }
  std::vector<mad::Target> sw = c.args.targets(1);
  if (sw.empty()) throw UsageError("missing switch (lid N, guid G, gid G, dr PATH or name NAME)");
  TableWords w = table_words(c.args);
  if (w.mcast) return show_mcast(c, src, sw[0], w.lids);
  MadSession s(c, src.via);
  mad::Route r = s.route(sw[0]);
  ib::Lft t = ib::read_lft_from(s.local().lid, s.engine(), r, w.lids.first, w.lids.last);
  // Discovered by SMPs (not --sa), without -d's cost line.
  ib::Fabric f = fabric_of(c, src, &s, {});
  std::map<uint16_t, ib::PortRef> owners = ib::lid_owners(f);
  view::Record rec;
  for (size_t i = 0; i < t.ports.size(); ++i) {
    if (t.ports[i] == ib::kNoPort && !w.every) continue;
    uint16_t lid = static_cast<uint16_t>(t.first + i);
    rec.clear();
    rec.pair("lid", lid);
    rec.pair("port", t.ports[i]);
    auto o = owners.find(lid);
    if (o != owners.end()) add_node(rec, f, o->second);
    c.out.record(rec);
  }
}

// Where a target is in the fabric: the node and port (a switch: port 0)
// and the LID packets to it carry. Found in the discovered fabric, not by
// LID routing, so that broken tables do not hide the destination.
ib::PortRef locate(MadSession& s, const ib::Fabric& f, const mad::Target& t, uint16_t& lid) {
  std::optional<ib::PortRef> found;
  switch (t.kind) {
    case mad::Target::Kind::Lid:
      found = ib::find_port_lid(f, t.lid);
      if (!found) throw Error("no port in the fabric has LID " + std::to_string(t.lid));
      lid = t.lid;
      return *found;
    case mad::Target::Kind::Dr: {
      ib::NodeInfo ni = ib::read_node_info(s, s.route(t));
      if (std::optional<uint32_t> n = ib::find_node_guid(f, ni.node_guid))
        found = ib::PortRef{*n, f.nodes[*n].is_switch() ? uint8_t{0} : ni.local_port};
      break;
    }
    case mad::Target::Kind::Guid:
      found = ib::find_guid(f, t.guid);
      break;
    case mad::Target::Kind::Gid:
      found = ib::find_guid(f, mad::gid_guid(t.gid));
      break;
    case mad::Target::Kind::Name:
      found = ib::find_name(f, t.name);  // f has the node-name-map's names
      break;
  }
  if (!found) throw Error(t.text + " is not in the discovered fabric");
  const ib::Port* port = f.nodes[found->node].port(found->port);
  lid = port && port->info ? port->info->lid : 0;
  if (!lid) throw Error(t.text + " has no LID (is a subnet manager running?)");
  return *found;
}

// A saved fabric's directed routes start at the port it was saved from;
// the tables are read along them, so it must be this one.
void check_saved_here(const ib::Fabric& f, const std::string& file, const mad::LocalPort& here) {
  const ib::Node& n = f.nodes[0];
  const ib::Port* p = n.port(static_cast<unsigned>(here.port));
  uint64_t saved = n.is_switch() ? n.info.port_guid : p ? p->guid : 0;
  if (saved != here.port_guid)
    throw Error(file + " was saved from port " + mad::guid_hex(saved) + ", not this one (" +
                mad::guid_hex(here.port_guid) + "): its directed routes do not start here");
}

void route_trace(Ctx& c) {
  FabricSource src = c.args.take_source();
  std::vector<mad::Target> ends = c.args.targets_or_names(2, {"mcast"});
  std::optional<uint16_t> mlid;  // `mcast MLID`: through the MFTs (ibtracert -m)
  if (!c.args.empty() && c.args.peek() == "mcast") {
    std::string k = c.args.next();
    mlid = parse_mlid(c.args.need_value(k, "MLID"));
  }
  c.args.done();
  if (ends.empty())
    throw UsageError("missing destination (lid N, guid G, gid G, dr PATH or name NAME)");
  MadSession s(c, src.via);
  // `from FILE`: the nodes, their LIDs and routes from the saved fabric
  // (no discovery); the tables are still read from the switches.
  ib::Fabric f = fabric_of(c, src, &s, {});
  if (f.nodes.empty()) throw Error("the local node does not answer");
  if (!src.from.empty()) check_saved_here(f, src.from, s.local());
  uint16_t slid = 0, dlid = 0;
  ib::PortRef from{0, static_cast<uint8_t>(f.nodes[0].is_switch() ? 0 : s.local().port)};
  if (ends.size() == 2) from = locate(s, f, ends[0], slid);
  locate(s, f, ends.back(), dlid);
  std::vector<ib::Hop> hops =
      mlid ? ib::trace_mcast(
                 f, from, dlid, *mlid,
                 [&](uint32_t node, uint16_t m) {
                   ib::Mft t = ib::read_mft(s.engine(), {true, 0, f.nodes[node].path}, m, m);
                   return t.masks.empty() ? std::bitset<256>() : t.masks[0];
                 })
           : ib::trace(f, from, dlid, [&](uint32_t node, uint16_t lid) {
               return ib::lft_port(s.engine(), {true, 0, f.nodes[node].path}, lid);
             });
  view::Record rec;
  for (size_t i = 0; i < hops.size(); ++i) {
    const ib::Hop& h = hops[i];
    const ib::Node& n = f.nodes[h.node.node];
    rec.clear();
    rec.pair("hop", i);
    rec.pair("in_port", h.in_port);
    rec.pair("out_port", h.out_port);
    const ib::Port* p = n.port(h.node.port);
    uint16_t lid = p && p->info ? p->info->lid : 0;
    rec.pair("lid", lid);
    add_node(rec, f, h.node);
    c.out.record(rec);
  }
}

// `users TARGET port N` (ibfindnodesusing): the end nodes whose LIDs the
// switch's table sends out of port N ("out"), and those the node at the
// other end sends back in through it ("in"; a CA there sends every other).
void route_users(Ctx& c) {
  FabricSource src = c.args.take_source();
  std::vector<mad::Target> t = c.args.targets_or_names(1, {"port"});
  if (t.empty()) throw UsageError("missing switch (lid N, guid G, gid G, dr PATH or name NAME)");
  if (c.args.empty() || !matches(c.args.peek(), "port"))
    throw UsageError("missing \"port N\" after the switch");
  std::string k = c.args.next();
  uint8_t port = parse_port(c.args.need_value(k, "port number"));
  c.args.done();
  MadSession s(c, src.via);
  ib::Fabric f = fabric_of(c, src, &s, {});
  uint16_t lid = 0;
  ib::PortRef at = locate(s, f, t[0], lid);
  const ib::Node& sw = f.nodes[at.node];
  if (!sw.is_switch()) throw Error(t[0].text + " is not a switch; only switches forward by LID");
  const ib::Port* p = sw.port(port);
  if (!p || port == 0 || !p->peer)
    throw Error("port " + std::to_string(port) + " of switch " + mad::guid_hex(sw.info.node_guid) +
                " (" + mad::desc_text(sw.description) + ") has no link");
  std::map<uint16_t, ib::PortRef> owners = ib::lid_owners(f);
  auto end_node = [&](uint16_t l) {
    auto o = owners.find(l);
    return o != owners.end() && !f.nodes[o->second.node].is_switch() ? &o->second : nullptr;
  };
  view::Record rec;
  auto list = [&](const char* direction, uint32_t node, uint8_t through) {
    if (f.nodes[node].is_switch()) {
      ib::Lft table =
          ib::read_lft(s.engine(), {true, 0, f.nodes[node].path}, 0, ib::unicast_lid_bounds().last);
      for (size_t i = 0; i < table.ports.size(); ++i) {
        uint16_t l = static_cast<uint16_t>(table.first + i);
        const ib::PortRef* o = end_node(l);
        if (table.ports[i] != through || !o) continue;
        rec.clear();
        rec.pair("direction", direction);
        rec.pair("lid", l);
        add_node(rec, f, *o);
        c.out.record(rec);
      }
      return;
    }
    for (const auto& [l, o] : owners) {
      if (f.nodes[o.node].is_switch() || (o.node == node && o.port == through)) continue;
      rec.clear();
      rec.pair("direction", direction);
      rec.pair("lid", l);
      add_node(rec, f, o);
      c.out.record(rec);
    }
  };
  list("out", at.node, port);
  list("in", p->peer->node, p->peer->port);
}

}  // namespace

void cmd_route(Ctx& c) {
  static constexpr Cmd kTable[] = {{nullptr, route_help},  {"show", route_show},
                                   {"list", route_show},   {"trace", route_trace},
                                   {"users", route_users}, {"help", route_help}};
  dispatch(c, kTable, "route command");
}

}  // namespace rdma
