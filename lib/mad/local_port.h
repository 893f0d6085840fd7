// The local port MADs leave from: `via DEV/PORT`, or the first active
// InfiniBand port (the first with its link up when none is active, as
// without a subnet manager).
#pragma once

#include <cstdint>
#include <string>

namespace rdma::mad {

struct LocalPort {
  std::string ca;
  int port = 0;
  uint16_t lid = 0;
  uint16_t sm_lid = 0;
  uint64_t gid_prefix = 0;
  uint64_t port_guid = 0;
  int state = 0;  // IBA port state, 4 active
};

// Finds the port. via is "", "DEV" (its first active port) or "DEV/PORT".
// Throws Error when there is none, or the port is RoCE or iWARP.
LocalPort find_local_port(const std::string& via);

}  // namespace rdma::mad
