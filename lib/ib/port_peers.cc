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

// The node's index, added when new (fresh: its NodeInfo is this one). A
// node met as a near end first takes its first answer's NodeInfo, as if
// that had come first.
uint32_t PortPeers::node_of(const NodeInfo& ni, bool answer, bool& fresh) {
  auto [it, added] = index_.try_emplace(ni.node_guid, static_cast<uint32_t>(nodes_.size()));
  fresh = added;
  if (added) {
    nodes_.push_back({ni, static_cast<uint32_t>(slots_.size()), ni.num_ports, answer});
    slots_.resize(slots_.size() + ni.num_ports + 1);
  } else if (Known& k = nodes_[it->second]; answer && !k.answered) {
    k.info = ni;
    k.answered = true;
    fresh = true;
  }
  return it->second;
}

size_t PortPeers::slot_of(const Key& k) const {
  auto it = index_.find(k.first);
  if (it == index_.end()) return kNone;
  const Known& n = nodes_[it->second];
  return k.second <= n.ports ? n.first + k.second : kNone;
}

const PortPeers::Slot* PortPeers::slot(const Key& k) const {
  size_t i = slot_of(k);
  return i == kNone ? nullptr : &slots_[i];
}

void PortPeers::record(const Key& k, const NodeInfo& ni) {
  bool fresh = false;
  uint32_t far = node_of(ni, true, fresh);
  size_t i = slot_of(k);
  if (i == kNone) {  // a port past the near node's count: a lie, kept whole
    if (odd_.emplace(k, ni).second) ++size_;
    return;
  }
  Slot& s = slots_[i];
  if (s.node) return;  // the first answer stands
  s = {far + 1, ni.local_port};
  ++size_;
  const NodeInfo& first = nodes_[far].info;
  if (!fresh && !alike(first, ni)) odd_.emplace(k, ni);
  if (ni.port_guid != first.port_guid) port_guids_.emplace(k, ni.port_guid);
}

void PortPeers::learn(const NodeInfo& near, uint8_t port, const NodeInfo& far) {
  bool fresh = false;
  node_of(near, false, fresh);
  record({near.node_guid, port}, far);
  if (!near.is_switch()) return;
  NodeInfo back = near;
  back.local_port = port;
  record({far.node_guid, far.local_port}, back);
}

bool PortPeers::known(const Key& k) const {
  const Slot* s = slot(k);
  return s ? s->node != 0 : odd_.count(k) != 0;
}

std::optional<NodeInfo> PortPeers::find(const Key& k) const {
  const Slot* s = slot(k);
  if (s ? s->node == 0 : !odd_.count(k)) return std::nullopt;
  if (auto odd = odd_.find(k); odd != odd_.end()) return odd->second;
  NodeInfo ni = nodes_[s->node - 1].info;
  auto guid = port_guids_.find(k);
  if (guid != port_guids_.end()) ni.port_guid = guid->second;
  ni.local_port = s->port;
  return ni;
}

}  // namespace rdma::ib
