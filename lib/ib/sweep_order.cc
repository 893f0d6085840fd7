#include "lib/ib/sweep_order.h"

#include <algorithm>

namespace rdma::ib {

// Port 0 first: its LID is checked before the switch is explored through.
// Then the others from a port chosen by its GUID. The switches of a wave
// start their sweeps together, each port's probe goes out as its PortInfo
// answers, and in a regular fabric port i of every switch of a group leads
// to one node (spine i, leaf i): sweeps in step would send that node one
// probe from each switch at once, past its SMA's queue; out of step they
// spread.
// From that port s the two halves in turn (s, s+N/2, s+1, s+N/2+1, ...):
// switches cable their ports in blocks (down, up, a group of parallel
// links), and a sweep that met one block for its first N/2 ports (N/2
// ms at 1 ms a SMP) found what lies behind the other that much later,
// and so everything found through it (bench/latency_results.md).
//
// The switch the start CA is cabled to (start_switch) sweeps the half
// not holding its arrival port first, then that half: its arrival port
// is a CA's, so that half is most likely its CA block, and the other its
// links to the rest of the fabric, through which every other node is
// found. Halves in turn found those one every other SMP; first, they are
// found in half the time and all the rest sooner (2.3% at 1,000 nodes
// with 1 ms switches, bench/latency_results.md). Only there: every
// other switch's arrival port leads to a switch, and its halves first
// were slower.
std::vector<uint8_t> sweep_order(const NodeInfo& ni, bool start_switch) {
  std::vector<uint8_t> order{0};
  unsigned ports = ni.num_ports;
  if (ports == 0) return order;
  uint64_t h = ni.node_guid * 0x9e3779b97f4a7c15ull;  // Fibonacci hashing
  unsigned first = static_cast<unsigned>((h >> 32) % ports);
  unsigned half = (ports + 1) / 2;
  auto port = [&](unsigned i) { return static_cast<uint8_t>(1 + (first + i) % ports); };
  for (unsigned i = 0; i < half; ++i) {
    order.push_back(port(i));
    if (i + half < ports) order.push_back(port(i + half));
  }
  if (start_switch && ni.local_port >= 1 && ni.local_port <= ports) {
    bool arrival_low = ni.local_port <= half;
    std::stable_partition(order.begin() + 1, order.end(),
                          [&](uint8_t p) { return (p <= half) != arrival_low; });
  }
  return order;
}

}  // namespace rdma::ib
