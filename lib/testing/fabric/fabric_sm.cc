// The subnet manager's sweep, enough for LID routing and SA answers: LIDs
// in breadth-first order from the SM's port, min-hop forwarding tables
// (opensm's default routing engine, ties spread over the equal ports),
// SM LID everywhere, ports Active; the IPoIB broadcast group and every
// group's multicast forwarding along a spanning tree.
#include <algorithm>
#include <array>
#include <deque>

#include "lib/testing/fabric/fabric.h"

namespace rdma::ibtest {

void FakeFabric::assign_lids() {
  for (FabricNode& n : nodes_) {
    n.lft.clear();
    for (FabricPort& p : n.ports) p.lid = p.sm_lid = 0;
  }
  lids_.assign(1, Hop{});
  // Breadth-first from the SM's node over links that are up.
  std::vector<char> seen(nodes_.size());
  std::deque<int> todo{attach_node_};
  seen[attach_node_] = 1;
  auto give = [&](int n, int p) {
    nodes_[n].ports[p].lid = static_cast<uint16_t>(lids_.size());
    lids_.push_back(Hop{n, p});
  };
  give(attach_node_, attach_port_);
  std::vector<int> order;
  while (!todo.empty()) {
    int n = todo.front();
    todo.pop_front();
    order.push_back(n);
    FabricNode& nd = nodes_[n];
    if (nd.is_switch()) {
      give(n, 0);
    } else {
      for (int p = 1; p <= nd.num_ports(); ++p)
        if (nd.ports[p].peer_node >= 0 && !(n == attach_node_ && p == attach_port_)) give(n, p);
    }
    // A CA does not forward: the SM reaches only the CAs it sees, and past
    // its own node only through its own port.
    if (!nd.is_switch() && n != attach_node_) continue;
    for (int p = 1; p <= nd.num_ports(); ++p) {
      if (n == attach_node_ && p != attach_port_) continue;
      int peer = nd.ports[p].peer_node;
      if (peer >= 0 && !seen[peer]) {
        seen[peer] = 1;
        todo.push_back(peer);
      }
    }
  }
  if (lids_.size() > 0xbfff) lids_.resize(0xc000);  // unicast LIDs end at 0xbfff
  sm_lid_ = 1;
  for (int n : order)
    for (FabricPort& p : nodes_[n].ports) {
      if (p.lid) p.sm_lid = sm_lid_;
      if (p.peer_node >= 0 && p.phys == kLinkUp) p.state = kActive;
    }

  // Min-hop tables. Hops between switches by breadth-first search from each
  // switch; a CA port's LID is reached through the switch it hangs off.
  std::vector<int> switches;
  std::vector<int> sw_index(nodes_.size(), -1);
  for (int n : order)
    if (nodes_[n].is_switch()) {
      sw_index[n] = static_cast<int>(switches.size());
      switches.push_back(n);
    }
  size_t s = switches.size();
  std::vector<std::vector<uint16_t>> dist(s, std::vector<uint16_t>(s, 0xffff));
  for (size_t i = 0; i < s; ++i) {
    std::deque<int> q{switches[i]};
    dist[i][i] = 0;
    while (!q.empty()) {
      int n = q.front();
      q.pop_front();
      for (const FabricPort& p : nodes_[n].ports) {
        int j = p.peer_node >= 0 ? sw_index[p.peer_node] : -1;
        if (j >= 0 && dist[i][j] == 0xffff) {
          dist[i][j] = dist[i][sw_index[n]] + 1;
          q.push_back(p.peer_node);
        }
      }
    }
  }
  for (int n : switches) nodes_[n].lft.assign(lids_.size(), 0xff);
  // LIDs grouped by the switch they are reached at, so each switch's
  // candidate ports toward that switch are found once per group.
  std::vector<std::vector<std::pair<uint16_t, uint8_t>>> by_target(s);  // (LID, last port)
  for (size_t lid = 1; lid < lids_.size(); ++lid) {
    Hop h = lids_[lid];
    if (nodes_[h.node].is_switch()) {
      by_target[sw_index[h.node]].push_back({static_cast<uint16_t>(lid), 0});
    } else {
      const FabricPort& p = nodes_[h.node].ports[h.port];
      if (p.peer_node >= 0 && nodes_[p.peer_node].is_switch())
        by_target[sw_index[p.peer_node]].push_back({static_cast<uint16_t>(lid), p.peer_port});
    }
  }
  std::vector<int> cand;
  for (size_t target = 0; target < s; ++target) {
    if (by_target[target].empty()) continue;
    for (size_t i = 0; i < s; ++i) {
      FabricNode& nd = nodes_[switches[i]];
      if (i == target) {
        for (auto [lid, last] : by_target[target]) nd.lft[lid] = last;
        continue;
      }
      uint16_t want = dist[i][target];
      if (want == 0xffff) continue;
      cand.clear();
      for (int p = 1; p <= nd.num_ports(); ++p) {
        const FabricPort& fp = nd.ports[p];
        int j = fp.peer_node >= 0 ? sw_index[fp.peer_node] : -1;
        if (j >= 0 && dist[j][target] + 1 == want) cand.push_back(p);
      }
      // Spread the LIDs over the equal ports in turn (opensm takes the
      // least loaded, which comes to the same on a regular tree).
      size_t turn = i;
      for (auto [lid, last] : by_target[target])
        nd.lft[lid] = static_cast<uint8_t>(cand[turn++ % cand.size()]);
    }
  }
  // IPoIB joins the broadcast group of the default partition on every port.
  static constexpr std::array<uint8_t, 16> kBroadcast = {
      0xff, 0x12, 0x40, 0x1b, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff};
  auto b = std::find_if(groups_.begin(), groups_.end(),
                        [](const McGroup& g) { return g.mgid == kBroadcast; });
  if (b == groups_.end()) {
    McGroup g;
    g.mgid = kBroadcast;
    g.mlid = 0xc000;
    g.qkey = 0x0b1b;
    b = groups_.insert(groups_.end(), g);
  }
  b->members.clear();
  for (size_t lid = 1; lid < lids_.size(); ++lid)
    if (!nodes_[lids_[lid].node].is_switch())
      b->members.push_back({lids_[lid].node, lids_[lid].port});
  program_mft();
}

// Each group's MLID on every switch: the ports of a breadth-first tree of
// the switches (one link per pair of neighbours) and the member CAs.
void FakeFabric::program_mft() {
  for (FabricNode& n : nodes_) n.mft.clear();
  std::vector<int> switches;
  for (size_t n = 0; n < nodes_.size(); ++n)
    if (nodes_[n].is_switch()) switches.push_back(static_cast<int>(n));
  if (switches.empty()) return;
  std::vector<uint64_t> tree(nodes_.size());  // tree ports by switch
  std::vector<char> seen(nodes_.size());
  std::deque<int> todo{switches[0]};
  seen[switches[0]] = 1;
  while (!todo.empty()) {
    int n = todo.front();
    todo.pop_front();
    for (int p = 1; p <= nodes_[n].num_ports(); ++p) {
      const FabricPort& fp = nodes_[n].ports[p];
      if (fp.peer_node < 0 || !nodes_[fp.peer_node].is_switch() || seen[fp.peer_node]) continue;
      seen[fp.peer_node] = 1;
      if (p < 64) tree[n] |= uint64_t{1} << p;  // the model's masks hold ports 0-63
      if (fp.peer_port < 64) tree[fp.peer_node] |= uint64_t{1} << fp.peer_port;
      todo.push_back(fp.peer_node);
    }
  }
  for (const McGroup& g : groups_) {
    if (g.mlid < 0xc000) continue;
    for (int sw : switches) {
      uint64_t mask = tree[sw];
      for (auto [n, p] : g.members) {
        const FabricPort& fp = nodes_[n].ports[p];
        if (fp.peer_node == sw && fp.peer_port < 64) mask |= uint64_t{1} << fp.peer_port;
      }
      if (mask) nodes_[sw].mft[g.mlid] = mask;
    }
  }
}

}  // namespace rdma::ibtest
