// The path an rdma_cm connection to an InfiniBand target runs over (`rdma
// bw client lid 4`): the PathRecord the SA gives from the local port to
// the target, whole (rdma_cm takes it as it is: libibverbs'
// ibv_path_record is the record as the SA sends it), and the fields the
// connection's AF_IB addresses are made of.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "lib/ib/client.h"
#include "lib/mad/target.h"

namespace rdma::ib {

struct CmPath {
  std::vector<uint8_t> record;  // the PathRecord as the SA sent it
  std::array<uint8_t, 16> sgid{}, dgid{};
  uint16_t slid = 0, dlid = 0, pkey = 0;
};

// The fields of a PathRecord (Error for a record too short).
CmPath cm_path_of(std::span<const uint8_t> record);

// The first PathRecord the SA gives from c's port to t: a LID, a port or
// node GUID, a GID, a node's name, a directed route (by the LID of the
// port it ends at: lid_route). Error for a target the SA does not know,
// a port without a LID, or no path.
CmPath cm_path(MadClient& c, const mad::Target& t);

}  // namespace rdma::ib
