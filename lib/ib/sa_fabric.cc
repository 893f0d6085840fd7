#include "lib/ib/sa_fabric.h"

#include <map>
#include <set>
#include <utility>

#include "lib/error.h"
#include "lib/ib/sa_query.h"
#include "lib/mad/attrs.h"
#include "lib/mad/format.h"
#include "lib/mad/sa.h"

namespace rdma::ib {

namespace {

std::vector<std::vector<uint8_t>> all(mad::Engine& e, uint16_t sa_lid, const mad::AttrDef& rec,
                                      std::vector<std::string>& warnings) {
  std::vector<uint8_t> none(rec.bytes);
  mad::SaTable t = mad::get_table(e, sa_lid, rec, 0, none);
  if (std::string cut = mad::cut_warning(t, rec); !cut.empty()) warnings.push_back(cut);
  return std::move(t.records);
}

// The LID a record is about: its first field (a PortInfoRecord's
// EndportLID, a LinkRecord's FromLID).
uint16_t lid_of(const mad::AttrDef& rec, std::span<const uint8_t> r) {
  return static_cast<uint16_t>(mad::get_field(rec, r, rec.fields[0].name));
}

uint8_t field8(const mad::AttrDef& rec, std::span<const uint8_t> r, const char* name) {
  return static_cast<uint8_t>(mad::get_field(rec, r, name));
}

// A node as its records give it, before it has a place in the fabric.
struct SaNode {
  NodeInfo info;
  std::string description;
  std::optional<SwitchInfo> sw;
  std::map<uint8_t, PortInfo> ports;
  std::map<uint8_t, uint64_t> port_guids;                 // CA ports
  std::map<uint8_t, std::pair<uint64_t, uint8_t>> peers;  // port -> (node GUID, port)
};

}  // namespace

Fabric fabric_from_sa(mad::Engine& e, uint16_t sa_lid, uint64_t local_port_guid,
                      std::vector<std::string>& warnings) {
  std::map<uint64_t, SaNode> nodes;
  std::map<uint16_t, uint64_t> by_lid;  // LID -> node GUID
  std::vector<uint64_t> order;          // first seen, for the warnings
  uint64_t local = 0;
  uint8_t local_port = 0;
  for (const auto& bytes : all(e, sa_lid, mad::kNodeRecord, warnings)) {
    NodeRecord r = NodeRecord::from(bytes);
    const NodeInfo& ni = r.info;
    auto [it, fresh] = nodes.try_emplace(ni.node_guid);
    SaNode& n = it->second;
    if (fresh) {
      n.info = ni;
      order.push_back(ni.node_guid);
      n.description = r.description;
    }
    if (!ni.is_switch()) n.port_guids[ni.local_port] = ni.port_guid;
    by_lid[r.lid] = ni.node_guid;
    if (ni.port_guid == local_port_guid) local = ni.node_guid, local_port = ni.local_port;
  }
  if (!local) throw Error("the SA has no NodeRecord of the local port");
  for (const auto& r : all(e, sa_lid, mad::kPortInfoRecord, warnings)) {
    auto n = by_lid.find(lid_of(mad::kPortInfoRecord, r));
    if (n == by_lid.end()) continue;
    nodes[n->second].ports[field8(mad::kPortInfoRecord, r, "PortNum")] =
        PortInfo::from(std::span<const uint8_t>(r).subspan(mad::kPortInfoRecordPortInfo));
  }
  for (const auto& r : all(e, sa_lid, mad::kSwitchInfoRecord, warnings)) {
    auto n = by_lid.find(lid_of(mad::kSwitchInfoRecord, r));
    if (n != by_lid.end())
      nodes[n->second].sw =
          SwitchInfo::from(std::span<const uint8_t>(r).subspan(mad::kSwitchInfoRecordSwitchInfo));
  }
  std::set<uint16_t> unknown;
  for (const auto& r : all(e, sa_lid, mad::kLinkRecord, warnings)) {
    uint16_t from_lid = lid_of(mad::kLinkRecord, r);
    uint16_t to_lid = static_cast<uint16_t>(mad::get_field(mad::kLinkRecord, r, "ToLID"));
    auto from = by_lid.find(from_lid);
    auto to = by_lid.find(to_lid);
    if (from == by_lid.end() || to == by_lid.end()) {
      unknown.insert(from == by_lid.end() ? from_lid : to_lid);
      continue;
    }
    nodes[from->second].peers[field8(mad::kLinkRecord, r, "FromPort")] = {
        to->second, field8(mad::kLinkRecord, r, "ToPort")};
  }
  // A table cut short without saying so (an SA without RMPP, and no
  // PayloadLength to tell): links to LIDs with no NodeRecord.
  if (!unknown.empty())
    warnings.push_back("the SA's LinkRecords name " + std::to_string(unknown.size()) +
                       " LIDs without a NodeRecord (lid " + std::to_string(*unknown.begin()) +
                       " ...): its NodeRecord table is incomplete (no RMPP?)");

  // Breadth-first from the local port, as discovery probes: a switch
  // forwards through every port in order, a CA only from the local one.
  Fabric f;
  struct Probe {
    uint64_t guid;
    uint8_t port;  // the port it is reached by
    std::vector<uint8_t> path;
    std::optional<PortRef> from;
  };
  std::vector<Probe> wave{{local, local_port, {}, std::nullopt}};
  while (!wave.empty()) {
    std::vector<uint32_t> found;
    for (const Probe& p : wave) {
      SaNode& sn = nodes[p.guid];
      bool known = f.find(p.guid) != nullptr;
      NodeInfo ni = sn.info;
      ni.local_port = p.port;
      if (!ni.is_switch()) ni.port_guid = sn.port_guids[p.port];
      uint32_t n = f.add(ni, p.path);
      if (p.port >= f.nodes[n].ports.size()) continue;
      if (!f.nodes[n].is_switch()) f.nodes[n].ports[p.port].guid = ni.port_guid;
      if (p.from) f.connect(*p.from, PortRef{n, p.port});
      Node& node = f.nodes[n];
      if (!node.is_switch()) {
        auto pi = sn.ports.find(p.port);
        if (pi != sn.ports.end()) node.ports[p.port].info = pi->second;
      }
      if (known) continue;
      found.push_back(n);
      node.description = sn.description;
      if (node.is_switch()) {
        node.sw = sn.sw;
        node.ports[0].guid = node.info.port_guid;
        for (auto& [num, pi] : sn.ports)
          if (num < node.ports.size()) node.ports[num].info = pi;
      }
    }
    std::vector<Probe> next;
    for (uint32_t n : found) {
      const Node& node = f.nodes[n];
      if (!node.is_switch() && !node.path.empty()) continue;  // CAs do not forward
      const SaNode& sn = nodes[node.info.node_guid];
      for (const auto& [port, peer] : sn.peers) {
        if (!node.is_switch() && port != node.info.local_port) continue;
        if (port >= node.ports.size() || node.ports[port].peer) continue;
        Probe p{peer.first, peer.second, node.path, PortRef{n, port}};
        p.path.push_back(port);
        next.push_back(std::move(p));
      }
    }
    wave = std::move(next);
  }
  for (uint64_t g : order)
    if (!f.find(g))
      warnings.push_back("the SA's node " + mad::guid_hex(g) + " (" +
                         mad::desc_text(nodes[g].description) +
                         ") is not linked to the local port's subnet");
  return f;
}

}  // namespace rdma::ib
