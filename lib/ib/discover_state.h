// What discovery (lib/ib/discover.cc) keeps while it runs: a wave's probe,
// a switch found ahead of its wave, a switch's PortInfo sweep. Apart from
// the walk itself so its file stays readable in one sitting.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lib/ib/node_path.h"
#include "lib/ib/node_ports.h"
#include "lib/ib/port_parts.h"
#include "lib/ib/types.h"

namespace rdma::ib::discover_state {

// The last wave of a fat tree holds one per CA: 96 bytes, its route inline
// (a vector was 8 bytes more and a heap block of 32 a probe).
struct Probe {
  NodePath path;                // directed route to the node behind
  std::optional<PortRef> from;  // the port it is behind (none: the local node)
  std::optional<NodeInfo> info;
  unsigned hops = 0;  // links from the start node
  // Behind a remote start CA, back along its route: the node there says
  // the port the SMP came in by, not the one cabled to the CA, so the
  // link is left to that node's own probes.
  bool back = false;
  bool sent = false;
};

// A switch's PortInfo sweep: its ports in sweep_order's order, asked a few
// ahead of the replies (Discoverer::sweep_next).
struct Sweep {
  std::vector<uint8_t> path;
  std::vector<uint8_t> ports;
  size_t next = 0;
  std::function<void()> after;
  uint64_t guid = 0;
  size_t answered = 0;  // PortInfo queries ended (answered or not)
};

// What a switch found by a probe answered before its wave settled.
struct Early {
  NodeInfo info;              // as the probe that found it saw it
  std::vector<uint8_t> path;  // the route its details went by
  std::optional<uint32_t> n;  // the node it became, once settled
  std::optional<std::string> description;
  std::optional<SwitchInfo> sw;
  // Answered before it settled: each port's info, in one block as its
  // node's ports are. A map node a port was 96 bytes, 3.5 KB a switch, and
  // the holes they left once adopted fitted few later blocks: the heap's
  // top rose 1.4 MB higher (bench/fabric_results.md).
  NodePorts ports;
  size_t left = 0;             // queries in flight before it settled
  bool suspect = false;        // its LID is another's: not probed behind ahead
  size_t order = 0;            // how many were found ahead up to it
  std::weak_ptr<Sweep> sweep;  // its PortInfo sweep

  // Port n (an empty Port past its count, as a PortInfo never asked).
  const Port& port(size_t n) const {
    return n < ports.size() ? std::as_const(ports)[n] : NodePorts::none();
  }
};

}  // namespace rdma::ib::discover_state
