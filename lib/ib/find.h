// Finding a port of a fabric by what names it: a LID (with its LMC range),
// a port GUID, a node GUID or a GID, as libibnetdisc's ibnd_find_port_lid,
// ibnd_find_port_guid and ibnd_find_node_guid. Where several ports would
// match (a fabric with a GUID twice), the first in node order is found.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lib/ib/fabric_model.h"

namespace rdma::ib {

// The LIDs a port answers at, [first, first + count): none without a
// PortInfo or a LID, or on a switch's external ports; one on a switch's
// port 0; 2^LMC on a CA or router port; none at or above the multicast
// range (0xc000).
struct LidRange {
  uint16_t first = 0;
  uint32_t count = 0;
};
LidRange lid_range(const Node& n, const Port& p);

// The port that answers at lid (a switch: its port 0).
std::optional<PortRef> find_port_lid(const Fabric& f, uint16_t lid);

// The port whose port GUID is guid: a switch's port 0, or a CA or router
// port. GUID 0, no port's, finds nothing.
std::optional<PortRef> find_port_guid(const Fabric& f, uint64_t guid);

// The node whose node GUID is guid.
std::optional<uint32_t> find_node_guid(const Fabric& f, uint64_t guid);

// The port of a GID: its interface ID's (the prefix is not compared: a
// fabric is one subnet).
std::optional<PortRef> find_port_gid(const Fabric& f, const std::array<uint8_t, 16>& gid);

// What a "guid G" names: a node by its node GUID (a switch's port 0, a CA's
// first port with a LID, else port 0) or a port by its port GUID, whichever
// node comes first.
std::optional<PortRef> find_guid(const Fabric& f, uint64_t guid);

// A node as a name may name it: its node GUID, its NodeDescription and
// the node-name-map's name for it ("" when the map has none). A node may
// stand more than once (the SA has a NodeRecord per CA port).
struct NamedNode {
  uint64_t guid = 0;
  std::string description;
  std::string mapped;
};

// The index in nodes of the node name names: its node-name-map name or its
// NodeDescription, else (no node so named) the host name its
// NodeDescription starts with ("gpu-node-02" of "gpu-node-02 HCA-1", as
// Linux sets it). Throws Error when no node or more than one node is so
// named, listing the candidates: the nodes named, or those whose names
// are like it (a few, and how many in all).
size_t find_named(const std::vector<NamedNode>& nodes, const std::string& name);

// The nodes of f to find a name among (f's descriptions are already the
// node-name-map's names where fabric_of applied it).
std::vector<NamedNode> named_nodes(const Fabric& f);

// The port a name's node is reached at, as find_guid for a node GUID.
PortRef node_port(const Fabric& f, uint32_t node);

// find_named on f's nodes: the node's port (node_port).
PortRef find_name(const Fabric& f, const std::string& name);

}  // namespace rdma::ib

namespace rdma::mad {
struct Target;  // lib/mad/target.h
}

namespace rdma::ib {

// The port a target names in f: a LID's, a GUID's (find_guid), a GID's, the
// node a directed route reached in discovery (node_port), a name's
// (find_name, which throws for a name no node or several have); nullopt
// when f has none.
std::optional<PortRef> find_target(const Fabric& f, const mad::Target& t);

}  // namespace rdma::ib
