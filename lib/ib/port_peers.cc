#include "lib/ib/port_peers.h"

#include <tuple>

namespace rdma::ib {

namespace {

// One node as two probes through different ports see it.
bool alike(const NodeInfo& a, const NodeInfo& b) {
  return std::tie(a.base_version, a.class_version, a.node_type, a.num_ports, a.sys_image_guid,
                  a.partition_cap, a.device_id, a.revision, a.vendor_id) ==
         std::tie(b.base_version, b.class_version, b.node_type, b.num_ports, b.sys_image_guid,
                  b.partition_cap, b.device_id, b.revision, b.vendor_id);
}

}  // namespace

void PortPeers::record(const Key& k, const NodeInfo& ni) {
  auto [node, fresh] = nodes_.try_emplace(ni.node_guid, ni);
  auto [it, added] = peers_.try_emplace(k, Peer{ni.node_guid, ni.port_guid, ni.local_port});
  if (added && !fresh && !alike(node->second, ni)) odd_.emplace(k, ni);
}

void PortPeers::learn(const NodeInfo& near, uint8_t port, const NodeInfo& far) {
  record({near.node_guid, port}, far);
  if (!near.is_switch()) return;
  NodeInfo back = near;
  back.local_port = port;
  record({far.node_guid, far.local_port}, back);
}

std::optional<NodeInfo> PortPeers::find(const Key& k) const {
  auto it = peers_.find(k);
  if (it == peers_.end()) return std::nullopt;
  if (auto odd = odd_.find(k); odd != odd_.end()) return odd->second;
  NodeInfo ni = nodes_.at(it->second.guid);
  ni.port_guid = it->second.port_guid;
  ni.local_port = it->second.port;
  return ni;
}

}  // namespace rdma::ib
