// What node show prints of a node: its NodeInfo, a switch's SwitchInfo and
// its NodeDescription, read by SMPs or from the SA's NodeRecord and
// SwitchInfoRecord, then decoded. The front end names no attribute.
#pragma once

#include <cstdint>
#include <vector>

#include "lib/ib/client.h"
#include "lib/ib/node_name_map.h"
#include "lib/ib/smp.h"
#include "lib/mad/target.h"
#include "lib/view/record.h"

namespace rdma::ib {

// A node's attributes as read, the bytes of each.
struct NodeAttrs {
  uint16_t lid = 0;  // from the SA: the NodeRecord's LID; 0 when read by SMP
  std::vector<uint8_t> info, switch_info, description;  // switch_info: empty but on a switch
  NodeInfo node() const { return NodeInfo::from(info); }
};

// NodeInfo and NodeDescription of the node at r, then a switch's
// SwitchInfo. Throws MadError.
NodeAttrs read_node_attrs(MadClient& c, const mad::Route& r);

// The same from the SA: the NodeRecord of t's LID (a GUID or GID found in
// the NodeRecords), then a switch's SwitchInfoRecord. Throws Error when
// the SA has none.
NodeAttrs read_node_attrs_sa(MadClient& c, const mad::Target& t);

// The attributes decoded into out at detail, as node show prints them:
// NodeInfo, SwitchInfo (a switch's), NodeDescription, the description
// being the name names gives the node where it has one.
void add_node_attrs(const NodeAttrs& a, int detail, const NodeNameMap& names, view::Record& out);

// The NodeInfo of the node at r. Throws MadError.
NodeInfo read_node_info(MadClient& c, const mad::Route& r);

}  // namespace rdma::ib
