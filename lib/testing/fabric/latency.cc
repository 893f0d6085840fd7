#include "lib/testing/fabric/latency.h"

#include <algorithm>
#include <cerrno>
#include <functional>
#include <queue>
#include <tuple>

namespace rdma::ibtest {

LatencyFabric::LatencyFabric(FakeFabric& f, LatencyOptions o)
    : f_(f), o_(o), nodes_(f.nodes().size()) {}

std::chrono::steady_clock::time_point LatencyFabric::now() const {
  return std::chrono::steady_clock::time_point(std::chrono::nanoseconds(now_));
}

std::chrono::nanoseconds LatencyFabric::service(int node) const {
  return std::chrono::nanoseconds(nodes_.at(node).service);
}

void LatencyFabric::deliver(int64_t at, mad::Received r) {
  events_.push({at, seq_++, std::move(r)});
}

void LatencyFabric::spend(int64_t ns) {
  now_ += ns;
  stats_.host += std::chrono::nanoseconds(ns);
}

void LatencyFabric::send(const mad::Mad& mad, const mad::Address& to, int timeout_ms) {
  spend(o_.host_per_mad.count() / 2);
  f_.send(mad, to, timeout_ms);
  FakeFabric::Delivery at = f_.last_delivery();
  // The double answers at once: its replies (or its timeout report) now.
  std::vector<mad::Received> out;
  while (std::optional<mad::Received> r = f_.receive(0)) out.push_back(std::move(*r));
  int64_t lost_at = now_ + int64_t{std::max(timeout_ms, 0)} * 1000000;
  bool request = !mad.get(mad::hdr::kResponse);
  if (at.node < 0 || !request) {  // nowhere to serve it, or an RMPP ACK
    for (mad::Received& r : out) deliver(r.status ? lost_at : now_, std::move(r));
    return;
  }
  int64_t hop = o_.hop.count() * at.hops;
  int64_t arrival = now_ + hop;
  NodeState& n = nodes_[at.node];
  while (!n.finishes.empty() && n.finishes.front() <= arrival) n.finishes.pop_front();
  while (!answers_.empty() && answers_.top() <= now_) {
    answers_.pop();
    --at_nodes_;
  }
  if (n.finishes.size() > o_.queue_depth) {  // one served, queue_depth waiting: full
    ++stats_.dropped;
    if (timeout_ms > 0) {
      mad::Received r;
      r.bytes.assign(mad.bytes.begin(), mad.bytes.end());
      r.status = ETIMEDOUT;
      deliver(lost_at, std::move(r));
    }
    return;
  }
  int64_t cost = (f_.nodes()[at.node].is_switch() ? o_.switch_service : o_.ca_service).count();
  if (n.first < 0) n.first = arrival;
  int64_t start = std::max(arrival, n.busy_until);
  n.busy_until = start + cost;
  n.finishes.push_back(n.busy_until);
  n.most = std::max(n.most, n.finishes.size());
  if (n.most > stats_.most_at_node) {
    stats_.most_at_node = n.most;
    stats_.crowded = at.node;
  }
  n.service += cost;
  ++stats_.served;
  stats_.total_service += std::chrono::nanoseconds(cost);
  stats_.total_round_trip += std::chrono::nanoseconds(cost + 2 * hop);
  if (n.service > stats_.busiest_service.count()) {
    stats_.busiest_service = std::chrono::nanoseconds(n.service);
    stats_.busiest = at.node;
  }
  answers_.push(n.busy_until);
  stats_.max_in_flight = std::max(stats_.max_in_flight, ++at_nodes_);
  // What the double dropped (a DropRule) cost the node its service all the
  // same; its report comes after the sender's timeout.
  for (mad::Received& r : out) deliver(r.status ? lost_at : n.busy_until + hop, std::move(r));
}

std::optional<mad::Received> LatencyFabric::receive(int timeout_ms) {
  int64_t limit = now_ + int64_t{std::max(timeout_ms, 0)} * 1000000;
  if (events_.empty() || events_.top().at > limit) {
    now_ = limit;
    return std::nullopt;
  }
  now_ = std::max(now_, events_.top().at);
  mad::Received r = std::move(const_cast<Event&>(events_.top()).r);
  events_.pop();
  spend(o_.host_per_mad.count() - o_.host_per_mad.count() / 2);
  return r;
}

ReachFloor LatencyFabric::reach_floor() const {
  const std::vector<FabricNode>& nodes = f_.nodes();
  auto service = [&](int n) {
    return (nodes[n].is_switch() ? o_.switch_service : o_.ca_service).count();
  };
  int64_t hop = o_.hop.count();
  // Dijkstra on the time a node's first SMP can be sent, with its depth
  // (each SMP on the chain goes there and back over that many links).
  std::vector<int64_t> reach(nodes.size(), -1);
  std::vector<int64_t> depth(nodes.size(), 0);
  using Item = std::tuple<int64_t, int64_t, int>;  // reach, depth, node
  std::priority_queue<Item, std::vector<Item>, std::greater<>> q;
  int start = f_.attach_node();
  q.push({0, 0, start});
  while (!q.empty()) {
    auto [at, d, n] = q.top();
    q.pop();
    if (reach[n] >= 0) continue;
    reach[n] = at;
    depth[n] = d;
    if (!nodes[n].is_switch() && n != start) continue;  // a CA forwards nothing
    // Its NodeInfo, then the PortInfo of the port out.
    int64_t next = at + 2 * (2 * d * hop + service(n));
    for (size_t p = 1; p < nodes[n].ports.size(); ++p) {
      int peer = nodes[n].ports[p].peer_node;
      if (n == start && static_cast<int>(p) != f_.attach_port()) continue;
      if (peer >= 0 && reach[peer] < 0) q.push({next, d + 1, peer});
    }
  }
  ReachFloor best;
  for (size_t n = 0; n < nodes.size(); ++n) {
    if (reach[n] < 0 || nodes_[n].service == 0) continue;
    int64_t at = reach[n] + 2 * depth[n] * hop + nodes_[n].service;
    if (at > best.at.count()) {
      best.at = std::chrono::nanoseconds(at);
      best.node = static_cast<int>(n);
      best.reach = std::chrono::nanoseconds(reach[n]);
      best.first = std::chrono::nanoseconds(nodes_[n].first);
    }
  }
  return best;
}

}  // namespace rdma::ibtest
