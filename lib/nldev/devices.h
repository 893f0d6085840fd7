// The RDMA devices of this network namespace, from one GET dump.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lib/nl/session.h"

namespace rdma::nldev {

// More ports than any device has (mlx5 in switchdev mode has one IB port per
// vport, a few hundred); a larger count is a damaged reply.
inline constexpr uint32_t kMaxPorts = 65535;

struct Device {
  uint32_t index = 0;
  std::string name;
  uint32_t ports = 0;  // number of ports (PORT_INDEX of the GET reply)
};

// In a batch (Session::keep_dumps) the list of an earlier command is reused
// until a command writes.
std::vector<Device> list_devices(nl::Session& s);

// The device called name; throws Error naming it when there is none.
Device find_device(nl::Session& s, std::string_view name);

}  // namespace rdma::nldev
