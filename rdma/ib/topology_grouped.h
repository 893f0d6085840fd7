// rdma fabric topology grouped [ full ]: ibnetdiscover -g, the topology file
// with the nodes by chassis (lib/ib/chassis.h); with -j a record per node
// and its chassis.
#pragma once

#include "lib/ib/topology.h"
#include "rdma/command.h"

namespace rdma {

// The words after `grouped` taken already into style; src: the fabric's
// `from`/`via`.
void fabric_topology_grouped(Ctx& c, const FabricSource& src, ib::TopologyStyle style);

}  // namespace rdma
