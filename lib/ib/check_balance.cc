// The balance check (check_lft_balance's idea): a switch's level is its
// distance in switch hops from the nearest switch with an end node; its up
// ports lead to switches a level higher. End nodes routed up, and over
// parallel links to one switch, should be spread evenly over them.
#include <algorithm>
#include <deque>
#include <limits>
#include <map>

#include "lib/ib/check.h"
#include "lib/mad/format.h"

namespace rdma::ib {

std::vector<Finding> check_balance(const Fabric& f, const Lfts& lfts) {
  constexpr uint32_t kFar = std::numeric_limits<uint32_t>::max();
  std::vector<uint32_t> level(f.nodes.size(), kFar);
  std::deque<uint32_t> todo;
  for (uint32_t n = 0; n < f.nodes.size(); ++n) {
    if (!f.nodes[n].is_switch()) continue;
    for (const Port& p : f.nodes[n].ports)
      if (p.peer && !f.nodes[p.peer->node].is_switch()) {
        level[n] = 0;
        todo.push_back(n);
        break;
      }
  }
  while (!todo.empty()) {
    uint32_t n = todo.front();
    todo.pop_front();
    for (const Port& p : f.nodes[n].ports)
      if (p.peer && f.nodes[p.peer->node].is_switch() && level[p.peer->node] == kFar) {
        level[p.peer->node] = level[n] + 1;
        todo.push_back(p.peer->node);
      }
  }
  // The end nodes' LIDs, once: walked for every group of every switch (a
  // map's nodes, walked so, were a fifth of `fabric check`'s CPU).
  std::vector<uint16_t> ends;
  for (const auto& [lid, owner] : lid_owners(f))
    if (!f.nodes[owner.node].is_switch()) ends.push_back(lid);
  std::vector<Finding> out;
  for (uint32_t n = 0; n < f.nodes.size(); ++n) {
    const Node& node = f.nodes[n];
    if (!node.is_switch() || !lfts[n] || level[n] == kFar) continue;
    // Ports grouped: the parallel links to each switch, and the up ports.
    std::map<uint32_t, std::vector<uint8_t>> to_switch;
    std::vector<uint8_t> up;
    for (const Port& p : node.ports) {
      if (!p.num || !p.peer || !f.nodes[p.peer->node].is_switch()) continue;
      to_switch[p.peer->node].push_back(p.num);
      if (level[p.peer->node] != kFar && level[p.peer->node] > level[n]) up.push_back(p.num);
    }
    std::vector<std::pair<std::string, std::vector<uint8_t>>> groups;
    for (auto& [peer, ports] : to_switch)
      if (ports.size() > 1 && ports != up)
        groups.emplace_back("the links to " + mad::desc_text(f.nodes[peer].description),
                            std::move(ports));
    if (up.size() > 1) groups.emplace_back("the up ports", std::move(up));
    const std::vector<uint8_t>& table = lfts[n]->ports;
    for (const auto& [name, ports] : groups) {
      std::vector<size_t> count(ports.size(), 0);
      for (uint16_t lid : ends) {
        if (lid >= table.size()) break;  // ends is sorted
        auto it = std::find(ports.begin(), ports.end(), table[lid]);
        if (it != ports.end()) ++count[it - ports.begin()];
      }
      auto [lo, hi] = std::minmax_element(count.begin(), count.end());
      if (*hi - *lo <= 1) continue;
      Finding fd{"balance", Severity::Warning, "", {}};
      std::string spread;
      for (size_t i = 0; i < ports.size(); ++i) {
        spread += (i ? ", " : "") + std::string("port ") + std::to_string(ports[i]) + " " +
                  std::to_string(count[i]);
        fd.where.push_back(place(f, n, ports[i]));
      }
      fd.what = "end nodes routed unevenly over " + name + ": " + spread;
      out.push_back(std::move(fd));
    }
  }
  return out;
}

}  // namespace rdma::ib
