#include "lib/ib/port_peers.h"

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <utility>

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
size_t PortPeers::index_slot(uint64_t guid) const {
  size_t mask = index_.size() - 1;
  // Fibonacci hashing: GUIDs of one vendor differ in their low bits.
  size_t i = static_cast<size_t>((guid * 0x9e3779b97f4a7c15ULL) >> 32) & mask;
  while (index_[i] && nodes_[index_[i] - 1].info.node_guid != guid) i = (i + 1) & mask;
  return i;
}

const uint32_t* PortPeers::index_find(uint64_t guid) const {
  if (index_.empty()) return nullptr;
  const uint32_t& s = index_[index_slot(guid)];
  return s ? &s : nullptr;
}

uint32_t PortPeers::node_of(const NodeInfo& ni, bool answer, bool& fresh) {
  if (const uint32_t* s = index_find(ni.node_guid)) {
    fresh = false;
    if (Known& k = nodes_[*s - 1]; answer && !k.answered) {
      k.info = ni;
      k.answered = true;
      fresh = true;
    }
    return *s - 1;
  }
  fresh = true;
  if ((nodes_.size() + 1) * 2 > index_.size()) {  // grow: at most half full
    std::vector<uint32_t> old =
        std::exchange(index_, std::vector<uint32_t>(std::max<size_t>(64, index_.size() * 2)));
    for (uint32_t s : old)
      if (s) index_[index_slot(nodes_[s - 1].info.node_guid)] = s;
  }
  uint32_t n = static_cast<uint32_t>(nodes_.size());
  nodes_.push_back({ni, static_cast<uint32_t>(slots_.size()), ni.num_ports, answer});
  slots_.resize(slots_.size() + ni.num_ports + 1);
  index_[index_slot(ni.node_guid)] = n + 1;
  return n;
}

size_t PortPeers::slot_of(const Key& k) const {
  const uint32_t* s = index_find(k.first);
  if (!s) return kNone;
  const Known& n = nodes_[*s - 1];
  return k.second <= n.ports ? n.first + k.second : kNone;
}

const PortPeers::Slot* PortPeers::slot(const Key& k) const {
  size_t i = slot_of(k);
  return i == kNone ? nullptr : &slots_[i];
}

void PortPeers::record(const Key& k, const NodeInfo& ni, size_t hops, bool back) {
  bool fresh = false;
  uint32_t far = node_of(ni, true, fresh);
  size_t i = slot_of(k);
  if (i == kNone) {  // a port past the near node's count: a lie, kept whole
    if (odd_.emplace(k, ni).second) ++size_;
    return;
  }
  if (slots_[i].node && (back || !slots_[i].back)) return;  // the first answer stands
  if (slots_[i].node) {                                     // learnt from the other end: made over
    odd_.erase(k);
    port_guids_.erase(k);
  } else {
    ++size_;
  }
  slots_[i] = {far + 1, ni.local_port, static_cast<uint8_t>(std::min<size_t>(hops, UINT8_MAX)),
               back};
  if (!back && nodes_[far].seen < 2) ++nodes_[far].seen;
  const NodeInfo& first = nodes_[far].info;
  if (!fresh && !alike(first, ni)) odd_.emplace(k, ni);
  if (ni.port_guid != first.port_guid) port_guids_.emplace(k, ni.port_guid);
}

// The far end's port answered, through itself, that another node's port
// is behind it: one of the two answers lies about a port number (a deeper
// route's LocalPortNum). What was learnt only from that other answer, the
// way back to its near end's port, is dropped: the waves probe that port
// themselves, as they would have without probes ahead. Else its near end
// took the far end's port as its peer, and what is truly behind that port
// went unfound (a node two routes showed is not doubtful).
void PortPeers::drop_contradicted(const NodeInfo& near, uint8_t port, const NodeInfo& far) {
  const Slot* s = slot({far.node_guid, far.local_port});
  const uint32_t* n = index_find(near.node_guid);
  const uint32_t* f = index_find(far.node_guid);
  if (!s || !s->node || s->back || !n || !f || (s->node == *n && s->port == port)) return;
  const Known& other = nodes_[s->node - 1];
  if (s->port > other.ports) return;
  Slot& derived = slots_[other.first + s->port];
  if (!derived.back || derived.node != *f || derived.port != far.local_port) return;
  derived = {};
  --size_;
  Key k{other.info.node_guid, s->port};
  odd_.erase(k);
  port_guids_.erase(k);
}

void PortPeers::learn(const NodeInfo& near, uint8_t port, const NodeInfo& far, size_t hops) {
  bool fresh = false;
  node_of(near, false, fresh);
  record({near.node_guid, port}, far, hops, false);
  drop_contradicted(near, port, far);
  if (!near.is_switch()) return;
  NodeInfo back = near;
  back.local_port = port;
  record({far.node_guid, far.local_port}, back, hops, true);
}

bool PortPeers::doubtful(const Key& k, size_t hops) const {
  const Slot* s = slot(k);
  return s && s->node && s->back && s->hops > hops && nodes_[s->node - 1].seen < 2;
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
