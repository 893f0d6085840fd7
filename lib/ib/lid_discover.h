// Discovery by LID routes (ibtool's --discovery LID, `rdma --discovery
// lid`): the same fabric model as directed-route discovery, nodes in the
// same order, but most SMPs LID-routed. A LID-routed SMP is forwarded by
// the switches' hardware like any packet; a directed-route one is handled
// by the SMA of every switch on its way, which on a large fabric is what
// discovery waits for.
//
// What a cable reaches no LID route can tell: a NodeInfo probe behind a
// port still goes by directed route, and so does the PortInfo that gives
// the node's LID (port 0 of a switch, the arrival port of a CA). Everything
// else (NodeDescription, SwitchInfo, a switch's other ports, and the
// vendor's MlnxExtPortInfo where asked) goes to that LID. A node without a
// LID (no subnet manager has configured it) is read by directed route, and
// a warning says so: LID routes reach only what an SM has given a LID.
#pragma once

#include <cstddef>

#include "lib/ib/discover.h"
#include "lib/mad/engine.h"

namespace rdma::ib {

// The subnet the engine's transport is attached to, from the local port.
// Never throws for a sick fabric (what did not answer is a warning);
// throws Error when the local node does not answer. nodes_found, when
// given, counts the nodes as they are found (the progress line).
Discovery discover_by_lid(mad::Engine& e, size_t* nodes_found = nullptr);

}  // namespace rdma::ib
