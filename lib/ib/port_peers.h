// What is behind each port of a fabric being discovered, by (node GUID,
// port number): the NodeInfo a NodeInfo probe through that port gets,
// learnt from a probe through either end of the link. Discovery holds it
// for every linked port, so it keeps each node's NodeInfo once and per
// port 8 bytes (the node there and its port), in one array sliced by node
// (no hash node per port: 1.9 MB at 4,768 nodes were 28,000 of them,
// bench/fabric_results.md); a PortGUID that is not the node's first, and a
// reply that differs in more (a fabric that lies), are kept aside. Each
// port also keeps how its answer was learnt (through the port itself, or
// from the other end, and by a route of how many hops), so that discovery
// can tell an answer the waves could have had from one only a deeper probe
// gave (a lying fabric's phantom can teach its neighbours' ports).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "lib/ib/smp.h"

namespace rdma::ib {

class PortPeers {
 public:
  using Key = std::pair<uint64_t, uint8_t>;  // node GUID, port

  // A probe through `port` of `near`, by a directed route of `hops` hops,
  // got `far` (arrived at by its port far.local_port). Learns that port's
  // answer and, from a switch (whose NodeInfo is one for all its ports),
  // the way back. The first answer for a port stands, but one learnt
  // through the port itself outranks one learnt from its other end (that
  // one trusts the other end's NodeInfo, which a lie may have made).
  void learn(const NodeInfo& near, uint8_t port, const NodeInfo& far, size_t hops = 0);
  // The NodeInfo a probe through the port gets, when learnt.
  std::optional<NodeInfo> find(const Key& k) const;
  bool known(const Key& k) const;
  // Whether the port's answer is one a probe of `hops` hops through the
  // port itself could contradict: learnt from the other end, by a probe of
  // more hops, and of a node one probe alone has answered as (a route that
  // lies makes a phantom, whose probes would teach its neighbours' ports;
  // a node two probes through different ports answered as is no phantom).
  bool doubtful(const Key& k, size_t hops) const;
  size_t size() const { return size_; }

 private:
  // The far end of a port: its node's index + 1 (0: not learnt), its port.
  // How it was learnt fits in the padding: still 8 bytes a port.
  struct Slot {
    uint32_t node = 0;
    uint8_t port = 0;
    uint8_t hops = 0;   // the learning probe's route (at most 63 hops)
    bool back = false;  // learnt from the other end
  };
  static_assert(sizeof(Slot) == 8, "a slot per port of 4,768 nodes' ports: keep it 8 bytes");
  struct Known {
    NodeInfo info;       // the first met as an answer (else as a near end)
    uint32_t first = 0;  // its port 0's slot
    uint8_t ports = 0;   // its slots: ports 0..ports (NumPorts as first met)
    bool answered = false;
    uint8_t seen = 0;  // probes through different ports that got it (counted to 2)
  };
  static_assert(sizeof(Known) <= sizeof(NodeInfo) + 8, "what a node adds to its NodeInfo");
  uint32_t node_of(const NodeInfo& ni, bool answer, bool& fresh);
  static constexpr size_t kNone = SIZE_MAX;
  size_t slot_of(const Key& k) const;  // kNone: the node unknown, or past its ports
  const Slot* slot(const Key& k) const;
  void record(const Key& k, const NodeInfo& ni, size_t hops, bool back);
  void drop_contradicted(const NodeInfo& near, uint8_t port, const NodeInfo& far);

  // Deques: grown without a copy at twice the size (a vector's doubling
  // held 1 MB at the peak for 0.5 MB of slots and nodes).
  std::deque<Known> nodes_;
  // Node GUID -> nodes_: open addressing, linear probing, each slot a
  // nodes_ index + 1 (0: empty), the GUID read from nodes_; at most half
  // full. 4 bytes a slot, where a hash node was 32 and its bucket 8 (0.2
  // MB at 5,000 nodes, bench/fabric_results.md).
  std::vector<uint32_t> index_;
  size_t index_slot(uint64_t guid) const;           // its slot, or the empty one it would take
  const uint32_t* index_find(uint64_t guid) const;  // its slot when known
  std::deque<Slot> slots_;
  std::map<Key, uint64_t> port_guids_;  // PortGUIDs not the node's first (a CA's other ports)
  // Answers that differ from nodes_ in more than the port, or through a
  // port past the near node's count.
  std::map<Key, NodeInfo> odd_;
  size_t size_ = 0;
};

}  // namespace rdma::ib
