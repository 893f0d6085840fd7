// How the places a finding names read, in text and JSON: what `fabric
// check` prints and the report lists.
#pragma once

#include <string>
#include <vector>

#include "lib/ib/check.h"
#include "lib/ib/fabric_model.h"
#include "lib/view/record.h"

namespace rdma::ib {

// "\"sw1\" 0x0000000000200000 port 3 lid 2" for each place, "; " between
// (a switch's port 0 without its port number).
std::string where_text(const Fabric& f, const std::vector<FindingPlace>& where);

// The same places as JSON: an object each with node_guid, description,
// type, and port, lid and port_guid where given.
view::Json where_json(const Fabric& f, const std::vector<FindingPlace>& where);

}  // namespace rdma::ib
