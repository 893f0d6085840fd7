// A topology file read as a fabric: the text ibnetdiscover prints (and
// `rdma fabric topology`), so `from FILE` takes what a site already keeps
// beside what `fabric save` writes. It builds the model a saved fabric
// builds (lib/ib/cache.h), by GUID: NodeInfo (type, ports, GUIDs, vendor
// and device IDs), descriptions, each linked port's LID, LMC, width and
// speed, the links, and the directed routes from the node the file was
// taken from (its "# Initiated from node N port P" line), found as
// discovery finds them (breadth first, ports in order), so the nodes come
// in discovery's order and route commands can read tables along them.
//
// What the file does not hold stays unknown (no PortInfo for a port
// without a link; revision, PartitionCap, MTUs, masks 0), with three
// stand-ins a fabric command needs: a linked port is Active and LinkUp
// (ibnetdiscover lists the ports a neighbour answered behind), a
// switch's LinearFDBTop is the highest LID in the file (as a subnet
// manager sets it), and its PortInfo capability bits vouch for the
// extended speeds its rate words name.
#pragma once

#include <string>
#include <string_view>

#include "lib/ib/fabric_model.h"

namespace rdma::ib {

// The text is a topology file: it has a node line ("Switch 8 \"S-...\"",
// "Ca", "Hca" or "Rt", a port count and a quoted ID).
bool is_topology_text(std::string_view text);

// Throws Error "FILE:LINE: ..." for a line it cannot read, a node without
// a GUID (neither a "switchguid=", "caguid=" or "rtguid=" line nor an ID
// like "S-GUID"), a node declared twice, a port out of the node's range, a
// link to a node the file does not have, or two ends that disagree.
Fabric parse_topology_fabric(const std::string& text, const std::string& file);

// The NodeInfo and SwitchInfo fields (IBA names) a topology file holds;
// the model's others are 0 or stand-ins.
bool topology_holds(std::string_view field);

}  // namespace rdma::ib
