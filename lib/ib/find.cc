#include "lib/ib/find.h"

#include "lib/mad/target.h"
#include "lib/mad/types.h"

namespace rdma::ib {

namespace {

// The port GUID of a node's port: a switch has one, on port 0.
uint64_t guid_of(const Node& n, const Port& p) {
  if (n.is_switch()) return p.num == 0 ? n.info.port_guid : 0;
  return p.num ? p.guid : 0;
}

}  // namespace

LidRange lid_range(const Node& n, const Port& p) {
  if (!p.info || !p.info->lid || (n.is_switch() && p.num != 0)) return {};
  LidRange r{p.info->lid, n.is_switch() ? 1u : 1u << p.info->lmc};
  if (r.first >= mad::kFirstMlid) return {};
  if (r.first + r.count > mad::kFirstMlid) r.count = mad::kFirstMlid - r.first;
  return r;
}

std::optional<PortRef> find_port_lid(const Fabric& f, uint16_t lid) {
  for (uint32_t n = 0; n < f.nodes.size(); ++n)
    for (const Port& p : f.nodes[n].ports) {
      LidRange r = lid_range(f.nodes[n], p);
      if (lid >= r.first && uint32_t{lid} - r.first < r.count) return PortRef{n, p.num};
    }
  return std::nullopt;
}

std::optional<PortRef> find_port_guid(const Fabric& f, uint64_t guid) {
  if (!guid) return std::nullopt;
  for (uint32_t n = 0; n < f.nodes.size(); ++n)
    for (const Port& p : f.nodes[n].ports)
      if (guid_of(f.nodes[n], p) == guid) return PortRef{n, p.num};
  return std::nullopt;
}

std::optional<uint32_t> find_node_guid(const Fabric& f, uint64_t guid) {
  auto it = f.by_guid.find(guid);
  if (it == f.by_guid.end()) return std::nullopt;
  return it->second;
}

std::optional<PortRef> find_port_gid(const Fabric& f, const std::array<uint8_t, 16>& gid) {
  return find_port_guid(f, mad::gid_guid(gid));
}

std::optional<PortRef> find_guid(const Fabric& f, uint64_t guid) {
  if (!guid) return std::nullopt;
  for (uint32_t n = 0; n < f.nodes.size(); ++n) {
    const Node& node = f.nodes[n];
    if (node.info.node_guid == guid) {
      if (!node.is_switch())
        for (const Port& p : node.ports)
          if (p.num && p.info && p.info->lid) return PortRef{n, p.num};
      return PortRef{n, 0};
    }
    for (const Port& p : node.ports)
      if (guid_of(node, p) == guid) return PortRef{n, p.num};
  }
  return std::nullopt;
}

}  // namespace rdma::ib
