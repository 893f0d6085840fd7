#include "lib/ib/check_fattree.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <map>

#include "lib/error.h"
#include "lib/mad/format.h"

namespace rdma::ib {

namespace {

constexpr int kNone = -1;

std::string ratio(size_t down, size_t up) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", up ? static_cast<double>(down) / up : 0.0);
  return buf;
}

}  // namespace

std::vector<int> switch_distances(const Fabric& f, const std::vector<uint32_t>& start) {
  std::vector<int> d(f.nodes.size(), kNone);
  std::deque<uint32_t> todo;
  for (uint32_t s : start) {
    d[s] = 0;
    todo.push_back(s);
  }
  while (!todo.empty()) {
    uint32_t n = todo.front();
    todo.pop_front();
    for (const Port& p : f.nodes[n].ports)
      if (p.peer && f.nodes[p.peer->node].is_switch() && d[p.peer->node] == kNone) {
        d[p.peer->node] = d[n] + 1;
        todo.push_back(p.peer->node);
      }
  }
  return d;
}

std::vector<Finding> check_fattree(const Fabric& f, const Lfts& lfts) {
  std::vector<Finding> out;
  auto add = [&](Severity s, std::string what, std::vector<FindingPlace> where) {
    out.push_back({"fattree", s, std::move(what), std::move(where)});
  };
  // CAs per switch, the switches with any, and the leaves among them: a
  // switch with at least half as many CA ports as switch ports (a spine
  // with a CA cabled to it by mistake has many more).
  std::vector<size_t> cas(f.nodes.size(), 0);
  std::vector<uint32_t> with_cas, leaves;
  for (uint32_t n = 0; n < f.nodes.size(); ++n) {
    if (!f.nodes[n].is_switch()) continue;
    size_t links = 0;
    for (const Port& p : f.nodes[n].ports)
      if (p.num && p.peer) {
        if (f.nodes[p.peer->node].is_switch())
          ++links;
        else
          ++cas[n];
      }
    if (!cas[n]) continue;
    with_cas.push_back(n);
    if (cas[n] * 2 >= links) leaves.push_back(n);
  }
  if (with_cas.empty()) return out;
  if (leaves.empty()) leaves = with_cas;
  // Roots: the switches farthest from the leaves; ranks down from them.
  std::vector<int> up_dist = switch_distances(f, leaves);
  int far = *std::max_element(up_dist.begin(), up_dist.end());
  std::vector<uint32_t> roots;
  for (uint32_t n = 0; n < f.nodes.size(); ++n)
    if (up_dist[n] == far) roots.push_back(n);
  std::vector<int> rank = switch_distances(f, roots);
  // The leaf rank: where most CAs of the leaves hang.
  std::map<int, size_t> cas_at;
  for (uint32_t n : leaves)
    if (rank[n] != kNone) cas_at[rank[n]] += cas[n];
  int leaf = std::max_element(cas_at.begin(), cas_at.end(), [](const auto& a, const auto& b) {
               return a.second < b.second;
             })->first;
  // Levels from the CAs up: leaves 1, the roots leaf + 1.
  auto level = [&](uint32_t n) { return leaf - rank[n] + 1; };
  for (uint32_t n : with_cas) {
    if (rank[n] == leaf || rank[n] == kNone) continue;
    for (const Port& p : f.nodes[n].ports)
      if (p.num && p.peer && !f.nodes[p.peer->node].is_switch())
        add(Severity::Error,
            "CA " + mad::desc_text(f.nodes[p.peer->node].description) + " on switch " +
                mad::desc_text(f.nodes[n].description) + " at level " + std::to_string(level(n)) +
                ", not a leaf (level 1)",
            {place(f, p.peer->node, p.peer->port), place(f, n, p.num)});
  }
  // Switch links: down-down (one level) or skipping a level; each switch's
  // up (toward the roots) and down ports.
  struct Count {
    size_t up = 0, down = 0;
  };
  std::vector<Count> count(f.nodes.size());
  for (uint32_t n = 0; n < f.nodes.size(); ++n) {
    if (!f.nodes[n].is_switch() || rank[n] == kNone) continue;
    for (const Port& p : f.nodes[n].ports) {
      if (!p.num || !p.peer) continue;
      uint32_t m = p.peer->node;
      if (!f.nodes[m].is_switch()) {
        ++count[n].down;
        continue;
      }
      if (rank[m] < rank[n]) ++count[n].up;
      if (rank[m] > rank[n]) ++count[n].down;
      // Each link once, from its lower-numbered end.
      if (m < n || (m == n && p.peer->port < p.num)) continue;
      if (rank[m] == rank[n])
        add(Severity::Error,
            "link between two switches of level " + std::to_string(level(n)) + " (down-down)",
            {place(f, n, p.num), place(f, m, p.peer->port)});
      else if (std::abs(rank[m] - rank[n]) > 1)
        add(Severity::Error,
            "link skips a level: level " + std::to_string(level(n)) + " to level " +
                std::to_string(level(m)),
            {place(f, n, p.num), place(f, m, p.peer->port)});
    }
  }
  // Per level: counts, oversubscription, switches short of uplinks.
  std::map<int, std::vector<uint32_t>> by_level;
  for (uint32_t n = 0; n < f.nodes.size(); ++n)
    if (f.nodes[n].is_switch() && rank[n] != kNone) by_level[level(n)].push_back(n);
  for (const auto& [l, switches] : by_level) {
    size_t down_min = SIZE_MAX, down_max = 0, up_min = SIZE_MAX, up_max = 0;
    std::map<size_t, size_t> ups;
    for (uint32_t n : switches) {
      down_min = std::min(down_min, count[n].down);
      down_max = std::max(down_max, count[n].down);
      up_min = std::min(up_min, count[n].up);
      up_max = std::max(up_max, count[n].up);
      ++ups[count[n].up];
    }
    auto span = [](size_t lo, size_t hi) {
      return lo == hi ? std::to_string(lo) : std::to_string(lo) + "-" + std::to_string(hi);
    };
    std::string what = "level " + std::to_string(l) + ": " + std::to_string(switches.size()) +
                       (switches.size() == 1 ? " switch" : " switches") + ", down ports " +
                       span(down_min, down_max) + ", up ports " + span(up_min, up_max);
    if (up_max) what += ", oversubscription " + ratio(down_max, up_min ? up_min : 1) + ":1 at most";
    add(Severity::Info, what, {});
    size_t usual = std::max_element(ups.begin(), ups.end(), [](const auto& a, const auto& b) {
                     return a.second < b.second;
                   })->first;
    for (uint32_t n : switches)
      if (count[n].up < usual)
        add(Severity::Warning,
            "switch " + mad::desc_text(f.nodes[n].description) + " has " +
                std::to_string(count[n].up) + " up ports, its level's others " +
                std::to_string(usual) + " (oversubscription " + ratio(count[n].down, count[n].up) +
                ":1)",
            {place(f, n, 0)});
  }
  // Hops between CA pairs through the tables, from one CA per leaf (the
  // others on it route alike), each counted for the CAs it stands for.
  if (lfts.empty()) return out;
  std::vector<std::pair<PortRef, uint16_t>> ca_ports;  // each CA port with a link, its LID
  std::map<uint32_t, std::vector<size_t>> on_switch;   // switch -> indexes into ca_ports
  for (uint32_t n = 0; n < f.nodes.size(); ++n) {
    const Node& node = f.nodes[n];
    if (node.is_switch()) continue;
    for (const Port& p : node.ports)
      if (p.num && p.peer && p.info && p.info->lid) {
        on_switch[p.peer->node].push_back(ca_ports.size());
        ca_ports.push_back({{n, p.num}, p.info->lid});
      }
  }
  LftLookup lookup = [&](uint32_t node, uint16_t lid) -> uint8_t {
    const std::optional<Lft>& t = lfts[node];
    if (!t || lid < t->first || lid - t->first >= static_cast<int>(t->ports.size())) return 0xff;
    return t->ports[lid - t->first];
  };
  // The switches a route to one LID crosses from each switch on, as trace
  // would count them, each switch walked once per LID (a trace per pair
  // took minutes at 4,768 nodes): kLoop while walked, kFails when the
  // route does not reach the LID's port (a hole, a loop, a CA in the way).
  constexpr int32_t kWalking = -2, kFails = -1;
  std::map<uint16_t, PortRef> owners = lid_owners(f);
  std::vector<uint32_t> stamp(f.nodes.size(), 0);
  std::vector<int32_t> to_dst(f.nodes.size(), 0);
  std::vector<uint32_t> path;
  uint32_t round = 0;
  auto switches_to = [&](uint32_t sw, uint16_t dlid, PortRef dst) {
    path.clear();
    int32_t r = kFails;
    for (uint32_t at = sw;;) {
      if (stamp[at] == round) {
        r = to_dst[at] == kWalking ? kFails : to_dst[at];
        break;
      }
      stamp[at] = round;
      to_dst[at] = kWalking;
      path.push_back(at);
      if (at == dst.node) {  // a switch's LID (a CA's duplicate)
        r = 0;
        break;
      }
      const Node& n = f.nodes[at];
      uint8_t out = lookup(at, dlid);
      if (out == kNoPort || out == 0 || out > n.info.num_ports) break;
      const Port* p = n.port(out);
      if (!p || !p->peer) break;
      if (f.nodes[p->peer->node].is_switch()) {
        at = p->peer->node;
        continue;
      }
      if (*p->peer == dst) r = 0;
      break;
    }
    for (size_t i = path.size(); i-- > 0;) to_dst[path[i]] = r = r == kFails ? kFails : r + 1;
    return r;
  };
  std::map<size_t, uint64_t> hist;
  uint64_t failed = 0;
  for (size_t d = 0; d < ca_ports.size(); ++d) {
    ++round;
    uint16_t dlid = ca_ports[d].second;
    auto owner = owners.find(dlid);
    for (const auto& [sw, members] : on_switch) {
      PortRef src = ca_ports[members[0]].first;
      uint64_t pairs = members.size();
      if (f.nodes[ca_ports[d].first.node].ports[ca_ports[d].first.port].peer->node == sw)
        --pairs;  // not a CA port to itself
      if (!pairs) continue;
      if (d == members[0]) {
        // The representative to itself: the others on its switch stand in.
        hist[1] += pairs;
        continue;
      }
      if (owner == owners.end()) {
        failed += pairs;
      } else if (owner->second == src) {
        hist[0] += pairs;  // the LID is the source's own (a duplicate)
      } else {
        int32_t n = switches_to(sw, dlid, owner->second);
        if (n == kFails)
          failed += pairs;  // fabric check routes names it
        else
          hist[static_cast<size_t>(n)] += pairs;
      }
    }
  }
  std::string what = "CA pairs by switches on their route:";
  for (const auto& [h, n] : hist) what += " " + std::to_string(h) + ": " + std::to_string(n) + ",";
  if (!hist.empty()) what.pop_back();
  if (failed) what += "; " + std::to_string(failed) + " pairs not routed (see check routes)";
  add(Severity::Info, what, {});
  return out;
}

}  // namespace rdma::ib
