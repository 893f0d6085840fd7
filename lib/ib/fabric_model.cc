#include "lib/ib/fabric_model.h"

namespace rdma::ib {

// A fabric holds tens of thousands of ports (33,500 on the 4,768-node
// tree): 8 bytes a port is 0.27 MB of peak memory. 64 is the GUID (8),
// PortInfo (48, none marked in its state byte), the peer (6) and the
// number (1): with std::optional's flags it was 80. A member added to
// Port, or to PortInfo past its 4 bytes of tail padding, grows every port.
static_assert(sizeof(Port) == 64);
static_assert(sizeof(MaybePortInfo) == sizeof(PortInfo));
static_assert(sizeof(MaybePeer) == 6 && alignof(MaybePeer) == 2);
// NodeInfo 48, the description 32, the optional SwitchInfo 16, the ports
// 16 (a pointer and their count: a vector's 24 was 8 bytes more a node),
// the route 16.
static_assert(sizeof(Node) == 128);

std::vector<uint16_t> Node::lids() const {
  std::vector<uint16_t> out;
  for (const Port& p : ports) {
    if (!p.info || (is_switch() && p.num != 0)) continue;
    if (p.info->lid) out.push_back(p.info->lid);
  }
  return out;
}

namespace {
// GUIDs of one fabric often differ in their low bits only (sequential
// within a vendor's OUI): a multiply spreads them over the index's slots.
uint64_t guid_hash(uint64_t guid) {
  return guid * 0x9e3779b97f4a7c15ull;
}
}  // namespace

uint32_t Fabric::add(const NodeInfo& info, NodePath path) {
  if (std::optional<uint32_t> known = index_of(info.node_guid)) return *known;
  uint32_t index = static_cast<uint32_t>(nodes.size());
  Node& n = nodes.emplace_back();
  n.info = info;
  n.path = std::move(path);
  n.ports = NodePorts(size_t{info.num_ports} + 1, !info.is_switch());
  by_guid_.add(guid_hash(info.node_guid), index);
  return index;
}

std::optional<uint32_t> Fabric::index_of(uint64_t node_guid) const {
  return by_guid_.find(guid_hash(node_guid),
                       [&](uint32_t i) { return nodes[i].info.node_guid == node_guid; });
}

const Node* Fabric::find(uint64_t node_guid) const {
  std::optional<uint32_t> i = index_of(node_guid);
  return i ? &nodes[*i] : nullptr;
}

void Fabric::reindex() {
  by_guid_ = {};
  for (uint32_t i = 0; i < nodes.size(); ++i) by_guid_.add(guid_hash(nodes[i].info.node_guid), i);
}

void Fabric::connect(PortRef a, PortRef b) {
  at(a).peer = b;
  at(b).peer = a;
}

std::vector<Link> Fabric::links() const {
  std::vector<Link> out;
  for (uint32_t n = 0; n < nodes.size(); ++n) {
    for (const Port& p : nodes[n].ports) {
      if (!p.peer) continue;
      PortRef a{n, p.num};
      const PortRef& b = *p.peer;
      // Each link once: from its lower end (node index, then port).
      if (b.node < n || (b.node == n && b.port < p.num)) continue;
      out.push_back({a, b});
    }
  }
  return out;
}

}  // namespace rdma::ib
