// The verbs views (dev limits, link status, gid show) walk the devices
// netlink lists and open each through verbs.
#pragma once

#include <functional>
#include <vector>

#include "lib/nldev/devices.h"
#include "lib/verbs/verbs.h"
#include "rdma/command.h"

namespace rdma {

// The devices of DEV (or all when empty), from netlink: an unknown name is
// an error before libibverbs is loaded.
std::vector<nldev::Device> devices_named(Ctx& c, const std::string& dev);

// Runs fn on each device, opened through verbs (loaded only when there is a
// device). A device that cannot be opened or queried does not stop the
// others: its one-line error goes to stderr and the command fails at the end.
void each_verbs_device(Ctx& c, const std::vector<nldev::Device>& devs,
                       const std::function<void(const nldev::Device&, verbs::Device&)>& fn);

}  // namespace rdma
