// Every port's PortState now, read again after discovery: a port that was
// Active and is not at a later reading went down in between (a flap that
// LinkDownedCounter may not show: a link taken down on purpose, or one
// whose counter is stuck at its maximum). One PortInfo Get a port, by the
// directed route discovery reached its node by, many in flight through the
// engine.
#pragma once

#include <cstdint>
#include <map>
#include <utility>

#include "lib/ib/errors.h"
#include "lib/ib/fabric_model.h"
#include "lib/mad/engine.h"

namespace rdma::ib {

// PortState by node index and port number; a port whose node did not
// answer is absent.
using PortStates = std::map<std::pair<uint32_t, uint8_t>, uint8_t>;

// The states of the ports of the nodes sel covers that were Active in f
// (the others cannot leave Active). PortInfo with port 0 is a switch's
// management port, which has no link: not asked.
PortStates read_port_states(mad::Engine& e, const Fabric& f, const NodeSelect& sel);

}  // namespace rdma::ib
