// The credit-loop check (ibdmchk's): a channel is a switch port sending
// into a link on one VL; a route to a LID that comes into a switch by one
// channel and leaves by another makes the second a dependency of the first
// (a packet holding credits on one waits for credits on the next). A cycle
// of dependencies can deadlock. The VL out of a switch depends on the port
// the packet came in by and its SL (SL2VL), so the walk is over (switch,
// input port) per LID: from the ports where traffic enters (end nodes
// other than the LID's owner) down the tables, each state once; each SL
// maps the hops taken to channels.
#include <algorithm>

#include "lib/ib/check.h"
#include "lib/ib/lfts.h"
#include "lib/mad/format.h"

namespace rdma::ib {

namespace {

// Channels by dense id, and the dependencies between them. A channel's id
// is found through its port's slot (a slot for each port of each switch,
// first[node] + port: a slot per node and possible port took 30 MB at
// 4,800 nodes) and a short list of the VLs seen there; successors are few
// per channel (at most the switch's ports times the VLs), so a linear scan
// dedupes them faster than a hash set over the millions of hops a large
// fabric's routes make.
struct Cdg {
  struct Channel {
    PortRef port;
    uint8_t vl = 0;
  };
  explicit Cdg(const Fabric& f) : first(f.nodes.size() + 1, 0) {
    for (size_t n = 0; n < f.nodes.size(); ++n)
      first[n + 1] = first[n] + (f.nodes[n].is_switch() ? f.nodes[n].ports.size() : 0);
    by_slot.resize(first.back());
  }
  std::vector<size_t> first;  // by node: its port 0's slot
  std::vector<Channel> list;
  std::vector<std::vector<std::pair<uint8_t, uint32_t>>> by_slot;  // (vl, id)
  std::vector<std::vector<uint32_t>> next;

  uint32_t id(PortRef c, uint8_t vl) {
    auto& vls = by_slot[first[c.node] + c.port];
    for (auto [v, i] : vls)
      if (v == vl) return i;
    uint32_t i = static_cast<uint32_t>(list.size());
    vls.push_back({vl, i});
    list.push_back({c, vl});
    next.emplace_back();
    return i;
  }
  void depend(PortRef a, uint8_t va, PortRef b, uint8_t vb) {
    uint32_t x = id(a, va), y = id(b, vb);
    std::vector<uint32_t>& n = next[x];
    if (std::find(n.begin(), n.end(), y) == n.end()) n.push_back(y);
  }
};

// The channel out of switch n toward lid, when the table has one that
// leads into a link.
std::optional<PortRef> channel(const Fabric& f, const Lfts& lfts, uint32_t n, uint16_t lid) {
  const std::optional<Lft>& t = lfts[n];
  if (!t || lid >= t->ports.size()) return std::nullopt;
  uint8_t out = t->ports[lid];
  const Port* p = f.nodes[n].port(out);
  if (out == 0 || !p || !p->peer) return std::nullopt;
  return PortRef{n, out};
}

// Where traffic enters the switches: each switch port with an end node,
// and that end node's port.
std::vector<std::pair<PortRef, PortRef>> entries_of(const Fabric& f) {
  std::vector<std::pair<PortRef, PortRef>> entries;
  for (uint32_t n = 0; n < f.nodes.size(); ++n)
    if (!f.nodes[n].is_switch())
      for (const Port& p : f.nodes[n].ports)
        if (p.peer && f.nodes[p.peer->node].is_switch()) entries.push_back({*p.peer, {n, p.num}});
  return entries;
}

// Cycles found by a depth-first search (each back edge closes one), in
// the order found.
std::vector<std::vector<uint32_t>> cycles(const Cdg& g) {
  enum : uint8_t { kWhite, kGrey, kBlack };
  std::vector<uint8_t> color(g.list.size(), kWhite);
  std::vector<std::vector<uint32_t>> out;
  std::vector<std::pair<uint32_t, size_t>> stack;  // channel, next edge to follow
  for (uint32_t root = 0; root < g.list.size(); ++root) {
    if (color[root] != kWhite) continue;
    color[root] = kGrey;
    stack.push_back({root, 0});
    while (!stack.empty()) {
      auto& [v, i] = stack.back();
      if (i == g.next[v].size()) {
        color[v] = kBlack;
        stack.pop_back();
        continue;
      }
      uint32_t w = g.next[v][i++];
      if (color[w] == kWhite) {
        color[w] = kGrey;
        stack.push_back({w, 0});
      } else if (color[w] == kGrey) {
        std::vector<uint32_t> c;
        size_t k = stack.size();
        while (stack[k - 1].first != w) --k;
        for (; k <= stack.size(); ++k) c.push_back(stack[k - 1].first);
        out.push_back(std::move(c));
      }
    }
  }
  return out;
}

// The SLs that map differently somewhere: the others give the same graph.
std::vector<uint8_t> distinct_sls(const VlMaps* vls) {
  std::vector<uint8_t> out{0};
  if (!vls) return out;
  for (uint8_t sl = 1; sl < 16; ++sl) {
    bool fresh = true;
    for (uint8_t o : out) {
      bool same = true;
      for (uint32_t n = 0; n < vls->by_node.size(); ++n)
        vls->each_table(n, [&](const VlMaps::Table& t) { same &= t[sl] == t[o]; });
      fresh &= !same;
    }
    if (fresh) out.push_back(sl);
  }
  return out;
}

// Per switch, the one VL its tables send this SL to whatever the input
// port (a table not read counts as VL 0), or kVaries.
constexpr uint8_t kVaries = 0xff;
std::vector<uint8_t> vl_per_switch(const Fabric& f, const VlMaps* vls, uint8_t sl) {
  std::vector<uint8_t> out(f.nodes.size(), 0);
  if (!vls) return out;
  for (uint32_t n = 0; n < f.nodes.size() && n < vls->by_node.size(); ++n) {
    const Node& node = f.nodes[n];
    if (!node.is_switch()) continue;
    std::optional<uint8_t> vl;
    if (!vls->whole(n)) vl = 0;  // a table not read counts as VL 0
    vls->each_table(n, [&](const VlMaps::Table& t) {
      if (vl && *vl != t[sl])
        vl = kVaries;
      else if (!vl)
        vl = t[sl];
    });
    out[n] = vl.value_or(0);
  }
  return out;
}

// Every CA and router LID's routes, from the ports where traffic enters
// (end nodes other than the LID's owner) down the tables, each state
// (state(at), below states: a switch, or a switch and its input port) once
// a LID: hop(lid, owner, at, c, peer) for each hop out of switch at.node by
// channel c into the switch at peer; false ends the walk there.
template <typename State, typename Hop>
void walk_routes(const Fabric& f, const Lfts& lfts, size_t states, State state, Hop hop) {
  std::vector<uint32_t> seen(states, 0);  // by state: the round
  std::vector<std::pair<PortRef, PortRef>> entries = entries_of(f);
  uint32_t round = 0;
  for (const auto& [lid, owner] : lid_owners(f)) {
    if (f.nodes[owner.node].is_switch()) continue;
    ++round;
    for (const auto& [entry, end] : entries) {
      if (end == owner) continue;
      // Down the tables until a state already walked.
      PortRef at = entry;
      while (seen[state(at)] != round) {
        seen[state(at)] = round;
        std::optional<PortRef> c = channel(f, lfts, at.node, lid);
        if (!c) break;
        PortRef peer = *f.at(*c).peer;
        if (!f.nodes[peer.node].is_switch() || !hop(lid, owner, at, *c, peer)) break;
        at = peer;
      }
    }
  }
}

// A hop of the routes from one switch into the next where it leads on:
// channel c (a switch's port into a link to another switch), the port the
// route came into c's switch by (0 where the VLs do not depend on it), and
// the next switch's port d the route leaves by, into a switch or to the
// LID's owner. The channel c, on its VL, then waits for d on its own.
struct RouteHop {
  PortRef c;
  uint8_t in = 0;
  uint8_t d = 0;
};

// The hops walk_routes takes that lead on (a state per switch, or with
// by_port per switch and input port), each once, in the order first
// taken. first: a slot per port of each switch from first[node] (Cdg's).
std::vector<RouteHop> route_hops(const Fabric& f, const Lfts& lfts,
                                 const std::vector<bool>& by_port,
                                 const std::vector<size_t>& first) {
  std::vector<RouteHop> hops;
  // Per channel c's slot, the (in, d) pairs taken: few, a linear scan.
  std::vector<std::vector<std::pair<uint8_t, uint8_t>>> taken(first.back());
  walk_routes(
      f, lfts, first.back(),
      [&](PortRef at) { return first[at.node] + (by_port[at.node] ? at.port : 0); },
      [&](uint16_t lid, PortRef owner, PortRef at, PortRef c, PortRef peer) {
        std::optional<PortRef> d = channel(f, lfts, peer.node, lid);
        if (!d) return false;
        if (!f.nodes[f.at(*d).peer->node].is_switch() && !(*f.at(*d).peer == owner)) return false;
        std::pair<uint8_t, uint8_t> key{by_port[at.node] ? at.port : uint8_t{0}, d->port};
        auto& t = taken[first[c.node] + c.port];
        if (std::find(t.begin(), t.end(), key) == t.end()) {
          t.push_back(key);
          hops.push_back({c, key.first, key.second});
        }
        return true;
      });
  return hops;
}

}  // namespace

std::vector<std::vector<uint16_t>> credit_hops(const Fabric& f, const Lfts& lfts) {
  // check_credit's walk with a state per (switch, input port), the finest
  // it makes (a switch with one VL per SL merges its ports' states): every
  // hop it takes into another switch, whatever the tables say. Marked in a
  // bit per (switch, input, output) as the walk goes (a list of the hops
  // taken, deduplicated at the end, held millions at 4,768 nodes).
  std::vector<size_t> first(f.nodes.size() + 1, 0), hop0(f.nodes.size() + 1, 0);
  for (size_t n = 0; n < f.nodes.size(); ++n) {
    size_t ports = f.nodes[n].is_switch() ? f.nodes[n].ports.size() : 0;
    first[n + 1] = first[n] + ports;
    hop0[n + 1] = hop0[n] + ports * ports;
  }
  std::vector<bool> taken(hop0.back(), false);
  walk_routes(
      f, lfts, first.back(), [&](PortRef at) { return first[at.node] + at.port; },
      [&](uint16_t, PortRef, PortRef at, PortRef c, PortRef) {
        taken[hop0[at.node] + at.port * f.nodes[at.node].ports.size() + c.port] = true;
        return true;
      });
  std::vector<std::vector<uint16_t>> out(f.nodes.size());
  for (uint32_t n = 0; n < f.nodes.size(); ++n) {
    size_t ports = f.nodes[n].is_switch() ? f.nodes[n].ports.size() : 0;
    for (size_t in = 0; in < ports; ++in)
      for (size_t o = 0; o < ports; ++o)
        if (taken[hop0[n] + in * ports + o]) out[n].push_back(static_cast<uint16_t>(in << 8 | o));
  }
  return out;
}

std::vector<Finding> check_credit(const Fabric& f, const Lfts& lfts, const VlMaps* vls) {
  Cdg g(f);
  std::vector<uint8_t> sls = distinct_sls(vls);
  // Per SL, the one VL of each switch whatever the input port, or kVaries;
  // a switch varied for any SL is walked a state per input port.
  std::vector<std::vector<uint8_t>> one;
  std::vector<bool> by_port(f.nodes.size(), false);
  for (uint8_t sl : sls) {
    one.push_back(vl_per_switch(f, vls, sl));
    for (uint32_t n = 0; n < f.nodes.size(); ++n)
      by_port[n] = by_port[n] || one.back()[n] == kVaries;
  }
  // The routes walked once for every SL (they do not depend on it: the
  // tables route by LID; 15 walks of ibsim's SL i -> VL i on the 4,768-node
  // tree were most of the check's CPU), then each SL's dependencies from
  // the hops the walk took.
  std::vector<RouteHop> hops = route_hops(f, lfts, by_port, g.first);
  for (size_t i = 0; i < sls.size(); ++i) {
    const std::vector<uint8_t>& vl_of = one[i];
    auto vl = [&](uint32_t n, uint8_t in, uint8_t out) -> uint8_t {
      return vl_of[n] != kVaries ? vl_of[n] : vls->vl(n, in, out, sls[i]);
    };
    for (const RouteHop& h : hops) {
      PortRef peer = *f.at(h.c).peer;
      PortRef d{peer.node, h.d};
      g.depend(h.c, vl(h.c.node, h.in, h.c.port), d, vl(peer.node, peer.port, h.d));
    }
  }
  std::vector<Finding> out;
  std::vector<std::vector<uint32_t>> found = cycles(g);
  for (size_t i = 0; i < found.size() && i < kFirstFew; ++i) {
    Finding fd{"credit", Severity::Error, "", {}};
    std::string ring;
    for (uint32_t c : found[i]) {
      PortRef r = g.list[c].port;
      fd.where.push_back(place(f, r.node, r.port));
      ring += (ring.empty() ? "" : " -> ") + mad::desc_text(f.nodes[r.node].description) +
              " port " + std::to_string(r.port) + " VL " + std::to_string(g.list[c].vl);
    }
    fd.what = "credit loop through " + std::to_string(found[i].size()) + " channels: " + ring;
    out.push_back(std::move(fd));
  }
  if (found.size() > kFirstFew)
    out.push_back({"credit",
                   Severity::Error,
                   std::to_string(found.size() - kFirstFew) + " more credit loops (" +
                       std::to_string(found.size()) + " in all)",
                   {}});
  return out;
}

}  // namespace rdma::ib
