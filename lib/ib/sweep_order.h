// The order in which discovery asks a switch's PortInfo, port by port: port
// 0 first, then the two halves in turn from a port chosen by the switch's
// GUID, and at the switch the start CA is cabled to the half away from
// that CA first (why each: sweep_order.cc).
#pragma once

#include <cstdint>
#include <vector>

#include "lib/ib/smp.h"

namespace rdma::ib {

// Every port of the switch ni describes once, port 0 first. start_switch:
// it is the switch the start CA is cabled to, reached through the CA's
// link on ni.local_port.
std::vector<uint8_t> sweep_order(const NodeInfo& ni, bool start_switch = false);

}  // namespace rdma::ib
