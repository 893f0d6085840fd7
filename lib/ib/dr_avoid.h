// Directed routes chosen around the ports a command is about to change
// (python-rdma's set_port_state and init_all_ports): a route that does not
// cross them, and the order that takes a whole subnet's links down far
// ends first, so the routes to the rest stay up.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "lib/ib/fabric_model.h"

namespace rdma::ib {

// The shortest directed route from the local node (f.nodes[0], left by
// local_port) to node `to` that crosses no link with an end in `avoid`
// (only switches forward; the local node forwards nothing but its own
// port's); nullopt when every route crosses one.
std::optional<std::vector<uint8_t>> dr_path_avoiding(const Fabric& f, uint8_t local_port,
                                                     uint32_t to,
                                                     const std::vector<PortRef>& avoid);

// For a whole-subnet port state change: one end of every link whose ports
// are Armed or Active (a link in Init or Down needs nothing): a switch's
// end or the local port (a CA's SMA sets only the port a Set arrives by),
// of two the nearer, whose node's route does not cross the link; far links
// first. Setting it cuts no route to the nodes still to be set.
std::vector<PortRef> far_first_link_ends(const Fabric& f, uint8_t local_port);

// Links from the local node to each node by the routes dr_path_avoiding
// takes (no avoided port); -1 for a node no route reaches.
std::vector<int> hops_from_local(const Fabric& f, uint8_t local_port);

}  // namespace rdma::ib
