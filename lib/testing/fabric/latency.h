// A latency model in front of the fabric test double: each node's agent
// serves one MAD at a time (a switch's management CPU, a CA's firmware),
// every link adds a delay each way, and a node's queue drops what arrives
// past its depth, as VL15 does. Time is virtual: now() and receive() move a
// simulated clock, so a model second costs no real one.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>
#include <queue>
#include <vector>

#include "lib/mad/transport.h"
#include "lib/testing/fabric/fabric.h"

namespace rdma::ibtest {

struct LatencyOptions {
  std::chrono::nanoseconds switch_service = std::chrono::microseconds(100);
  std::chrono::nanoseconds ca_service = std::chrono::microseconds(20);
  std::chrono::nanoseconds hop = std::chrono::microseconds(1);  // per link, each way
  // Requests waiting at a node besides the one being served; one arriving
  // past that is dropped (reported as a timeout after the sender's timeout).
  size_t queue_depth = 16;
  // The tool's own work per MAD (building, sending, matching the reply,
  // its callback), half charged on the virtual clock as a MAD is sent and
  // half as its reply is taken: the host is one thread, so while it works
  // nothing is sent, while the nodes keep serving. 0: a tool that costs
  // nothing, the fabric alone. The floor is the larger of the
  // fabric's and this times the MADs (bench/latency_results.md).
  std::chrono::nanoseconds host_per_mad{0};
};

struct LatencyStats {
  uint64_t served = 0;
  uint64_t dropped = 0;                         // the node's queue was full
  uint64_t max_in_flight = 0;                   // requests at the nodes at once, at most
  uint64_t most_at_node = 0;                    // at one node at once (served and waiting)
  int crowded = -1;                             // that node (the first to hold that many)
  int busiest = -1;                             // the node with the most service time
  std::chrono::nanoseconds busiest_service{0};  // the floor of any schedule
  std::chrono::nanoseconds total_service{0};
  // Service plus the links both ways, summed: the least time the MADs hold
  // a sender's window slots, so no schedule with window W ends before
  // total_round_trip / W.
  std::chrono::nanoseconds total_round_trip{0};
  // The tool's work charged on the clock (LatencyOptions::host_per_mad).
  std::chrono::nanoseconds host{0};
};

// A second floor, the reach floor: no node's work starts before a chain of
// SMPs can find it, so a discovery ends no sooner than, for each node, the
// earliest its first SMP can be sent plus its own service (what this run
// served there) and the links both ways, the most of that over the nodes.
// The chain, from the attached CA: at each node on the way its NodeInfo
// (what it is, how many ports) and the PortInfo of the port out (that the
// link is up), one after the other at its service time, no queueing; a CA
// forwards nothing but for the attached one. It holds for a tool that asks
// PortInfo only of a node it knows to be a switch and probes only behind a
// port it knows to be up, as discovery (lib/ib/discover.cc) and
// ibnetdiscover do; the busiest node's service alone (busiest_service) is
// the floor of any schedule.
struct ReachFloor {
  std::chrono::nanoseconds at{0};     // the floor
  int node = -1;                      // the node that sets it
  std::chrono::nanoseconds reach{0};  // the earliest its first SMP can be sent
  std::chrono::nanoseconds first{0};  // when this run's first SMP reached it
};

class LatencyFabric : public mad::Transport {
 public:
  explicit LatencyFabric(FakeFabric& f, LatencyOptions o = {});

  void send(const mad::Mad& mad, const mad::Address& to, int timeout_ms) override;
  std::optional<mad::Received> receive(int timeout_ms) override;
  std::chrono::steady_clock::time_point now() const override;

  std::chrono::nanoseconds elapsed() const { return std::chrono::nanoseconds(now_); }
  const LatencyStats& stats() const { return stats_; }
  // A node's service time so far (by FakeFabric node index).
  std::chrono::nanoseconds service(int node) const;
  // The most requests a node held at once (served and waiting).
  size_t most_at(int node) const { return nodes_.at(node).most; }
  // When a node's first request arrived (-1 ns: none), and when it finished
  // its last.
  std::chrono::nanoseconds first_at(int node) const {
    return std::chrono::nanoseconds(nodes_.at(node).first);
  }
  std::chrono::nanoseconds last_at(int node) const {
    return std::chrono::nanoseconds(nodes_.at(node).busy_until);
  }
  // The reach floor of what was served so far (ReachFloor).
  ReachFloor reach_floor() const;

 private:
  struct Event {
    int64_t at;    // virtual ns
    uint64_t seq;  // send order among equal times
    mad::Received r;
    bool operator>(const Event& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };
  struct NodeState {
    int64_t busy_until = 0;
    std::deque<int64_t> finishes;  // of the requests accepted, in order
    int64_t service = 0;
    size_t most = 0;
    int64_t first = -1;  // the first request's arrival
  };
  void deliver(int64_t at, mad::Received r);
  void spend(int64_t ns);  // the host's work: the clock moves on

  FakeFabric& f_;
  LatencyOptions o_;
  int64_t now_ = 0;
  uint64_t seq_ = 0;
  std::vector<NodeState> nodes_;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
  uint64_t at_nodes_ = 0;  // requests accepted and not yet answered
  std::priority_queue<int64_t, std::vector<int64_t>, std::greater<>>
      answers_;  // their finish times
  LatencyStats stats_;
};

}  // namespace rdma::ibtest
