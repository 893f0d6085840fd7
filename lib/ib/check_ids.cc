// The ids check (ibidsverify) and what every check shares: the severity
// names and the places findings name.
#include <map>
#include <set>

#include "lib/ib/check.h"
#include "lib/ib/find.h"
#include "lib/mad/format.h"

namespace rdma::ib {

const char* severity_name(Severity s) {
  switch (s) {
    case Severity::Error:
      return "error";
    case Severity::Warning:
      return "warning";
    case Severity::Info:
      return "info";
  }
  return "?";
}

FindingPlace place(const Fabric& f, uint32_t n, uint8_t p) {
  const Node& node = f.nodes[n];
  FindingPlace w{n, p, 0, 0};
  const Port* base = node.port(node.is_switch() ? 0 : p);
  if (base && base->info) w.lid = base->info->lid;
  w.port_guid = node.is_switch() ? node.info.port_guid : (base ? base->guid : 0);
  return w;
}

namespace {

std::string hex(uint64_t g) {
  return mad::guid_hex(g);
}

}  // namespace

std::vector<Finding> check_ids(const Fabric& f) {
  std::vector<Finding> out;
  auto add = [&](Severity s, std::string what, std::vector<FindingPlace> where) {
    out.push_back({"ids", s, std::move(what), std::move(where)});
  };
  // LIDs: each LID of every port's range, with the ports answering it.
  std::map<uint16_t, std::vector<PortRef>> by_lid;
  std::map<uint64_t, std::vector<PortRef>> by_port_guid;
  for (uint32_t n = 0; n < f.nodes.size(); ++n) {
    const Node& node = f.nodes[n];
    if (node.info.node_guid == 0) add(Severity::Error, "node GUID 0", {place(f, n, 0)});
    for (const Port& p : node.ports) {
      LidRange r = lid_range(node, p);
      for (uint32_t i = 0; i < r.count; ++i)
        by_lid[static_cast<uint16_t>(r.first + i)].push_back({n, p.num});
      bool has_guid = node.is_switch() ? p.num == 0 : p.num != 0 && p.info;
      if (!has_guid) continue;
      uint64_t g = node.is_switch() ? node.info.port_guid : p.guid;
      if (g == 0)
        add(Severity::Error, "port GUID 0", {place(f, n, p.num)});
      else
        by_port_guid[g].push_back({n, p.num});
    }
  }
  // A range overlapping another is reported once, at its first shared LID.
  std::set<std::pair<uint32_t, uint8_t>> reported;
  for (const auto& [lid, ports] : by_lid) {
    if (ports.size() < 2) continue;
    std::vector<FindingPlace> where;
    bool fresh = false;
    for (PortRef r : ports) {
      where.push_back(place(f, r.node, r.port));
      fresh |= reported.insert({r.node, r.port}).second;
    }
    if (fresh)
      add(Severity::Error,
          "duplicate LID " + std::to_string(lid) + " on " + std::to_string(ports.size()) + " ports",
          std::move(where));
  }
  for (const auto& [g, ports] : by_port_guid) {
    if (ports.size() < 2) continue;
    std::vector<FindingPlace> where;
    for (PortRef r : ports) where.push_back(place(f, r.node, r.port));
    add(Severity::Error, "duplicate port GUID " + hex(g), std::move(where));
  }
  // A node GUID that is another node's port GUID (a switch's port GUID is
  // its node GUID by convention, so only other nodes count).
  for (uint32_t n = 0; n < f.nodes.size(); ++n) {
    auto it = by_port_guid.find(f.nodes[n].info.node_guid);
    if (it == by_port_guid.end()) continue;
    for (PortRef r : it->second)
      if (r.node != n)
        add(Severity::Error,
            "node GUID " + hex(f.nodes[n].info.node_guid) + " is the port GUID of another node",
            {place(f, n, 0), place(f, r.node, r.port)});
  }
  // System image GUIDs: one image is one kind of node.
  std::map<uint64_t, std::vector<uint32_t>> by_image;
  for (uint32_t n = 0; n < f.nodes.size(); ++n)
    if (f.nodes[n].info.sys_image_guid) by_image[f.nodes[n].info.sys_image_guid].push_back(n);
  for (const auto& [g, nodes] : by_image) {
    std::set<uint8_t> types;
    for (uint32_t n : nodes) types.insert(f.nodes[n].info.node_type);
    if (types.size() < 2) continue;
    std::vector<FindingPlace> where;
    for (uint32_t n : nodes) where.push_back(place(f, n, 0));
    add(Severity::Warning, "system image GUID " + hex(g) + " shared by nodes of different types",
        std::move(where));
  }
  return out;
}

}  // namespace rdma::ib
