// The fabric as the subnet administrator knows it: NodeRecords,
// PortInfoRecords, SwitchInfoRecords and LinkRecords (four GetTables, no
// SMP), laid out as discovery lays it out — nodes breadth-first from the
// local port, ports in order, each node's path the directed route
// discovery would have taken — so every fabric view prints the same.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lib/ib/fabric_model.h"
#include "lib/mad/engine.h"

namespace rdma::ib {

// sa_lid: the SA (the SM's LID); local_port_guid: where discovery would
// start. Records of nodes the links do not reach are left out, each a
// warning. Throws MadError or Error when a table cannot be read.
Fabric fabric_from_sa(mad::Engine& e, uint16_t sa_lid, uint64_t local_port_guid,
                      std::vector<std::string>& warnings);

}  // namespace rdma::ib
