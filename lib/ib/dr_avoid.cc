#include "lib/ib/dr_avoid.h"

#include <algorithm>
#include <deque>

namespace rdma::ib {

namespace {

bool avoided(const std::vector<PortRef>& avoid, PortRef p) {
  return std::find(avoid.begin(), avoid.end(), p) != avoid.end();
}

// Breadth-first from the local node; fills the route and hop count of
// every node reached.
struct Walk {
  std::vector<int> hops;
  std::vector<std::vector<uint8_t>> path;
};

Walk walk(const Fabric& f, uint8_t local_port, const std::vector<PortRef>& avoid) {
  Walk w;
  w.hops.assign(f.nodes.size(), -1);
  w.path.resize(f.nodes.size());
  if (f.nodes.empty()) return w;
  w.hops[0] = 0;
  std::deque<uint32_t> todo{0};
  while (!todo.empty()) {
    uint32_t n = todo.front();
    todo.pop_front();
    const Node& node = f.nodes[n];
    if (n != 0 && !node.is_switch()) continue;  // only switches forward
    for (const Port& p : node.ports) {
      if (p.num == 0 || !p.peer) continue;
      if (n == 0 && p.num != local_port) continue;
      PortRef here{n, p.num};
      if (avoided(avoid, here) || avoided(avoid, *p.peer)) continue;
      uint32_t next = p.peer->node;
      if (w.hops[next] >= 0) continue;
      w.hops[next] = w.hops[n] + 1;
      w.path[next] = w.path[n];
      w.path[next].push_back(p.num);
      todo.push_back(next);
    }
  }
  return w;
}

bool settable(const Fabric& f, PortRef p, uint8_t local_port) {
  return f.nodes[p.node].is_switch() || (p.node == 0 && p.port == local_port);
}

bool up(const Port& p) {
  return p.info && p.info->state >= 3;  // Armed or Active
}

}  // namespace

std::optional<std::vector<uint8_t>> dr_path_avoiding(const Fabric& f, uint8_t local_port,
                                                     uint32_t to,
                                                     const std::vector<PortRef>& avoid) {
  Walk w = walk(f, local_port, avoid);
  if (to >= w.hops.size() || w.hops[to] < 0) return std::nullopt;
  return w.path[to];
}

std::vector<int> hops_from_local(const Fabric& f, uint8_t local_port) {
  return walk(f, local_port, {}).hops;
}

std::vector<PortRef> far_first_link_ends(const Fabric& f, uint8_t local_port) {
  std::vector<int> hops = hops_from_local(f, local_port);
  std::vector<std::pair<int, PortRef>> ends;
  for (const Link& l : f.links()) {
    int ha = hops[l.a.node], hb = hops[l.b.node];
    if (ha < 0 && hb < 0) continue;  // beyond a CA: no route to either end
    // A CA's SMA sets only the port a Set arrives by, so the end to set is
    // a switch's (or the local port); of two, the nearer: its node's route
    // arrives by another link.
    bool sa = settable(f, l.a, local_port), sb = settable(f, l.b, local_port);
    if (!sa && !sb) continue;
    bool a_nearer = hb < 0 || (ha >= 0 && ha <= hb);
    PortRef end = sa && (!sb || a_nearer) ? l.a : l.b;
    if (hops[end.node] < 0) continue;
    const Port& p = f.at(end);
    const Port& q = f.at(end == l.a ? l.b : l.a);
    if (!up(p) && !up(q)) continue;
    ends.push_back({hops[end.node], end});
  }
  std::stable_sort(ends.begin(), ends.end(),
                   [](const auto& x, const auto& y) { return x.first > y.first; });
  std::vector<PortRef> out;
  for (const auto& e : ends) out.push_back(e.second);
  return out;
}

}  // namespace rdma::ib
