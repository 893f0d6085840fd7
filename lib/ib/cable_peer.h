// The host's view of its cable: a local port and the node at its other
// end, by directed-route SMPs through that port, as `smpquery -D ... 0,N`
// and ibportstate's peer queries read it (`rdma port peer`).
#pragma once

#include "lib/ib/client.h"
#include "lib/ib/fabric_model.h"

namespace rdma::ib {

// The port c leaves from and its peer as a fabric of one link: node 0 the
// local node (NodeInfo, NodeDescription and the port's PortInfo, by the
// empty route "0"), node 1 the peer (the same by "0,N", its PortInfo the
// port the SMP arrived on, and a switch's port 0 too, which holds its
// LID). A port whose link is down has no peer: the fabric is the local
// node alone, not an error. Throws mad::MadError when a node that should
// answer does not.
Fabric cable_peer(MadClient& c);

}  // namespace rdma::ib
