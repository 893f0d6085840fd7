// `node show TARGET from FILE`: a node of a fabric read from a file (a
// saved fabric or a topology file, lib/ib/cache.h) as node show prints a
// live one. The fields the file holds are put back into the attributes'
// bytes and decoded as node show decodes them (lib/mad: one description
// of the fields); a field the file does not hold is left out, not shown
// as 0.
#pragma once

#include <string>
#include <vector>

#include "lib/ib/fabric_model.h"
#include "lib/ib/node_name_map.h"
#include "lib/view/record.h"

namespace rdma::ib {

// NodeInfo, a switch's SwitchInfo and NodeDescription of n into out at
// detail, as add_node_attrs, the description the name names gives the
// node where it has one. port: the port the target names, whose GUID and
// number a CA's NodeInfo gives (as an SMP arriving there is answered).
// Returns the labels of the fields detail would show that the file does
// not hold (left out); topology: a topology file's
// (lib/ib/topology_read.h), which holds fewer than a saved fabric.
std::vector<std::string> add_saved_node(const Node& n, unsigned port, bool topology, int detail,
                                        const NodeNameMap& names, view::Record& out);

}  // namespace rdma::ib
