// The credit-loop check (ibdmchk's): a channel is a switch port sending
// into a link; a route to a LID that comes into a switch by one channel
// and leaves by another makes the second a dependency of the first (a
// packet holding credits on one waits for credits on the next). A cycle of
// dependencies on one VL can deadlock. Routing is by destination, so each
// switch's next channel toward a LID is walked once per LID, from the
// switches where traffic starts (those with an end node other than the
// LID's owner) down the tables.
#include <unordered_map>
#include <unordered_set>

#include "lib/ib/check.h"
#include "lib/mad/format.h"

namespace rdma::ib {

namespace {

// Channels by dense id, and the dependencies between them.
struct Cdg {
  std::vector<PortRef> channels;
  std::unordered_map<uint64_t, uint32_t> ids;  // node << 8 | port
  std::vector<std::vector<uint32_t>> next;
  std::unordered_set<uint64_t> edges;

  uint32_t id(PortRef c) {
    auto [it, fresh] = ids.try_emplace(uint64_t{c.node} << 8 | c.port, channels.size());
    if (fresh) {
      channels.push_back(c);
      next.emplace_back();
    }
    return it->second;
  }
  void depend(PortRef a, PortRef b) {
    uint32_t x = id(a), y = id(b);
    if (edges.insert(uint64_t{x} << 32 | y).second) next[x].push_back(y);
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

// Cycles found by a depth-first search (each back edge closes one), in
// the order found.
std::vector<std::vector<uint32_t>> cycles(const Cdg& g) {
  enum : uint8_t { kWhite, kGrey, kBlack };
  std::vector<uint8_t> color(g.channels.size(), kWhite);
  std::vector<std::vector<uint32_t>> out;
  std::vector<std::pair<uint32_t, size_t>> stack;  // channel, next edge to follow
  for (uint32_t root = 0; root < g.channels.size(); ++root) {
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

}  // namespace

std::vector<Finding> check_credit(const Fabric& f, const Lfts& lfts) {
  std::map<uint16_t, PortRef> owners = lid_owners(f);
  // Switches where traffic enters the fabric: those with an end node.
  std::vector<std::vector<PortRef>> ends(f.nodes.size());
  for (uint32_t n = 0; n < f.nodes.size(); ++n)
    if (!f.nodes[n].is_switch())
      for (const Port& p : f.nodes[n].ports)
        if (p.peer && f.nodes[p.peer->node].is_switch()) ends[p.peer->node].push_back({n, p.num});
  Cdg g;
  std::vector<uint32_t> seen(f.nodes.size(), 0);  // the destination (+1) last walked
  uint32_t round = 0;
  for (const auto& [lid, owner] : owners) {
    if (f.nodes[owner.node].is_switch()) continue;
    ++round;
    for (uint32_t s = 0; s < f.nodes.size(); ++s) {
      bool source = false;
      for (PortRef e : ends[s]) source |= !(e == owner);
      if (!source) continue;
      // Down the tables until a switch already walked for this LID.
      uint32_t n = s;
      while (seen[n] != round) {
        seen[n] = round;
        std::optional<PortRef> c = channel(f, lfts, n, lid);
        if (!c) break;
        PortRef peer = *f.at(*c).peer;
        if (!f.nodes[peer.node].is_switch()) break;
        std::optional<PortRef> d = channel(f, lfts, peer.node, lid);
        if (!d) break;
        if (!f.nodes[f.at(*d).peer->node].is_switch() && !(*f.at(*d).peer == owner)) break;
        g.depend(*c, *d);
        n = peer.node;
      }
    }
  }
  std::vector<Finding> out;
  std::vector<std::vector<uint32_t>> found = cycles(g);
  for (size_t i = 0; i < found.size() && i < kFirstFew; ++i) {
    Finding fd{"credit", Severity::Error, "", {}};
    std::string ring;
    for (uint32_t c : found[i]) {
      PortRef r = g.channels[c];
      fd.where.push_back(place(f, r.node, r.port));
      ring += (ring.empty() ? "" : " -> ") + mad::desc_text(f.nodes[r.node].description) +
              " port " + std::to_string(r.port);
    }
    fd.what =
        "credit loop on VL 0 through " + std::to_string(found[i].size()) + " channels: " + ring;
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
