// What is behind each port of a fabric being discovered, by (node GUID,
// port number): the NodeInfo a NodeInfo probe through that port gets,
// learnt from a probe through either end of the link. Discovery holds it
// for every linked port, so it keeps each node's NodeInfo once and per
// port only the node there, its port, and its PortGUID (a CA's differs by
// port); a reply that differs in more (a fabric that lies) is kept whole.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <unordered_map>
#include <utility>

#include "lib/ib/smp.h"

namespace rdma::ib {

class PortPeers {
 public:
  using Key = std::pair<uint64_t, uint8_t>;  // node GUID, port

  // A probe through `port` of `near` got `far` (arrived at by its port
  // far.local_port). Learns that port's answer and, from a switch (whose
  // NodeInfo is one for all its ports), the way back. The first answer for
  // a port stands.
  void learn(const NodeInfo& near, uint8_t port, const NodeInfo& far);
  // The NodeInfo a probe through the port gets, when learnt.
  std::optional<NodeInfo> find(const Key& k) const;
  bool known(const Key& k) const { return peers_.count(k) != 0; }
  size_t size() const { return peers_.size(); }

 private:
  struct Peer {
    uint64_t guid;
    uint64_t port_guid;
    uint8_t port;
  };
  struct Hash {
    size_t operator()(const Key& k) const {
      return std::hash<uint64_t>()(k.first ^ (uint64_t{k.second} << 56) ^ k.second);
    }
  };
  void record(const Key& k, const NodeInfo& ni);

  std::unordered_map<uint64_t, NodeInfo> nodes_;  // by GUID: the first NodeInfo met
  std::unordered_map<Key, Peer, Hash> peers_;
  std::map<Key, NodeInfo> odd_;  // answers that differ from nodes_ in more than the port
};

}  // namespace rdma::ib
