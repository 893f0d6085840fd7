// Finding a port of a fabric by what names it: a LID (with its LMC range),
// a port GUID, a node GUID or a GID, as libibnetdisc's ibnd_find_port_lid,
// ibnd_find_port_guid and ibnd_find_node_guid. Where several ports would
// match (a fabric with a GUID twice), the first in node order is found.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "lib/ib/fabric.h"

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

}  // namespace rdma::ib
