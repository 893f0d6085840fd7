// `port show TARGET [port N] from FILE`: a port of a fabric read from a
// file (a saved fabric or a topology file, lib/ib/cache.h) as port show
// prints a live one. The PortInfo the file holds is put back into the
// attribute's bytes and decoded by PortInfo's field table (lib/mad: one
// description of the fields), so each value prints as the live view
// prints it; a field the file does not hold is left out, not shown as 0.
#pragma once

#include <string>
#include <vector>

#include "lib/ib/fabric_model.h"
#include "lib/view/record.h"

namespace rdma::ib {

// Port port of n into out at detail, as add_port_attrs prints a live one
// (keys in clear only with show_keys), then its address. arrive: the port
// the target names, where an SMP would arrive (a CA's PortInfo says it in
// LocalPortNum; a CA's NodeInfo gives its GUID, the GID's). topology: a
// topology file's (lib/ib/topology_read.h), which holds a linked port's
// LID, LMC, width and speed only. Returns the labels of the fields detail
// would show that the file does not hold (left out). Throws Error, naming
// the port by where, for a port n does not have or whose PortInfo the file
// does not hold.
std::vector<std::string> add_saved_port(const Node& n, unsigned arrive, unsigned port,
                                        bool topology, int detail, bool show_keys,
                                        const std::string& where, view::Record& out);

}  // namespace rdma::ib
