#include "lib/ib/find.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "lib/error.h"
#include "lib/mad/format.h"
#include "lib/mad/target.h"
#include "lib/mad/types.h"

namespace rdma::ib {

namespace {

// The port GUID of a node's port: a switch has one, on port 0.
uint64_t guid_of(const Node& n, const Port& p) {
  if (n.is_switch()) return p.num == 0 ? n.info.port_guid : 0;
  return p.num ? p.guid : 0;
}

// The host name a NodeDescription starts with: up to its first blank.
std::string host_word(const std::string& desc) {
  return desc.substr(0, desc.find_first_of(" \t"));
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Levenshtein distance, cut off above 3 (only "close" matters).
size_t distance(const std::string& a, const std::string& b) {
  if (a.size() > b.size() + 3 || b.size() > a.size() + 3) return 4;
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

// A name like the one asked for: either contains the other (case aside),
// or they are at most two edits apart.
bool alike(const std::string& asked, const std::string& name) {
  if (name.empty()) return false;
  std::string a = lower(asked), n = lower(name);
  return n.find(a) != std::string::npos || a.find(n) != std::string::npos || distance(a, n) <= 2;
}

// How a node is listed among candidates: its name and node GUID.
std::string candidate(const NamedNode& n) {
  const std::string& name = n.mapped.empty() ? n.description : n.mapped;
  return mad::desc_text(name) + " " + mad::guid_hex(n.guid);
}

// "a, b, c and 4 more" of the first few.
std::string listed(const std::vector<NamedNode>& nodes, const std::vector<size_t>& which) {
  constexpr size_t kListed = 8;
  std::string s;
  for (size_t k = 0; k < which.size() && k < kListed; ++k)
    s += (k ? ", " : "") + candidate(nodes[which[k]]);
  if (which.size() > kListed) s += " and " + std::to_string(which.size() - kListed) + " more";
  return s;
}

// The first entry of each node GUID among nodes for which pick says so.
template <typename Pick>
std::vector<size_t> distinct(const std::vector<NamedNode>& nodes, Pick pick) {
  std::vector<size_t> out;
  std::set<uint64_t> seen;
  for (size_t i = 0; i < nodes.size(); ++i)
    if (pick(nodes[i]) && seen.insert(nodes[i].guid).second) out.push_back(i);
  return out;
}

}  // namespace

size_t find_named(const std::vector<NamedNode>& nodes, const std::string& name) {
  std::vector<size_t> found = distinct(
      nodes, [&](const NamedNode& n) { return n.mapped == name || n.description == name; });
  if (found.empty())
    found = distinct(nodes, [&](const NamedNode& n) {
      return n.mapped.empty() && host_word(n.description) == name;
    });
  if (found.size() == 1) return found[0];
  if (found.size() > 1)
    throw Error("node name \"" + name + "\" is ambiguous: " + std::to_string(found.size()) +
                " nodes have it (" + listed(nodes, found) + "); name one by guid or lid");
  std::vector<size_t> like = distinct(nodes, [&](const NamedNode& n) {
    return alike(name, n.mapped) || alike(name, n.description) ||
           alike(name, host_word(n.description));
  });
  throw Error("no node named \"" + name + "\" (NodeDescription or node-name-map) among " +
              std::to_string(distinct(nodes, [](const NamedNode&) { return true; }).size()) +
              " nodes" + (like.empty() ? "" : "; like it: " + listed(nodes, like)));
}

std::vector<NamedNode> named_nodes(const Fabric& f) {
  std::vector<NamedNode> out;
  out.reserve(f.nodes.size());
  for (const Node& n : f.nodes) out.push_back({n.info.node_guid, n.description, {}});
  return out;
}

PortRef node_port(const Fabric& f, uint32_t node) {
  const Node& n = f.nodes[node];
  if (!n.is_switch())
    for (const Port& p : n.ports)
      if (p.num && p.info && p.info->lid) return PortRef{node, p.num};
  if (!n.is_switch())
    for (const Port& p : n.ports)
      if (p.num && p.peer) return PortRef{node, p.num};
  return PortRef{node, 0};
}

PortRef find_name(const Fabric& f, const std::string& name) {
  return node_port(f, static_cast<uint32_t>(find_named(named_nodes(f), name)));
}

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
  return f.index_of(guid);
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

namespace rdma::ib {

std::optional<PortRef> find_target(const Fabric& f, const mad::Target& t) {
  switch (t.kind) {
    case mad::Target::Kind::Lid:
      return find_port_lid(f, t.lid);
    case mad::Target::Kind::Guid:
      return find_guid(f, t.guid);
    case mad::Target::Kind::Gid:
      return find_guid(f, mad::gid_guid(t.gid));
    case mad::Target::Kind::Name:
      return find_name(f, t.name);
    case mad::Target::Kind::Dr:
      break;
  }
  // A combined route's path starts at the node with its LID: the route
  // from the local port is that node's then the rest.
  std::vector<uint8_t> path = t.path;
  if (t.lid) {
    std::optional<PortRef> start = find_port_lid(f, t.lid);
    if (!start) return std::nullopt;
    path = f.nodes[start->node].path;
    path.insert(path.end(), t.path.begin(), t.path.end());
  }
  for (uint32_t n = 0; n < f.nodes.size(); ++n)
    if (f.nodes[n].path == path) return node_port(f, n);
  return std::nullopt;
}

}  // namespace rdma::ib
