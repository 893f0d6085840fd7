// The directed route to a LID, found as ibtracert walks: from the local
// port through each switch's forwarding table, one LFT entry a hop.
#pragma once

#include <cstdint>
#include <vector>

#include "lib/mad/engine.h"

namespace rdma::ib {

// The output ports (after the local one, as mad::Route's path) that reach
// the port at lid from the local CA's port local_port or the local switch;
// empty when lid is the local node's own (local_lid). Throws Error naming
// the switch whose table has no entry or the hop that loops.
std::vector<uint8_t> directed_route_to(mad::Engine& e, uint8_t local_port, uint16_t local_lid,
                                       uint16_t lid);

}  // namespace rdma::ib
