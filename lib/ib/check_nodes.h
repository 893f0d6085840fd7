// `rdma fabric check nodes` (ibdiagnet's and UFM's duplicated node
// description and node-info checks): the nodes' names and identities.
#pragma once

#include <string>
#include <vector>

#include "lib/ib/check.h"

namespace rdma::ib {

// A CA description as the HCA's firmware or driver gives it before
// rdma-ndd writes "host dev": empty, a model number ("MT4119 ...") or the
// vendor's string ("... Mellanox Technologies").
bool default_description(const std::string& d);

// Findings (check "nodes"): a description two nodes have (a warning: the
// name no longer says which; cable plans and Slurm call it ambiguous); a
// CA with a default description (a warning: rdma-ndd not running); nodes
// of one model (type, VendorID, DeviceID) at different revisions (a
// warning naming each revision and how many have it).
std::vector<Finding> check_nodes(const Fabric& f);

}  // namespace rdma::ib
