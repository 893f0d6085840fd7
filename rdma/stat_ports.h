// The ports a statistic command acts on, from its "link" argument.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lib/nl/session.h"

namespace rdma {

struct PortRef {
  uint32_t dev_index = 0;
  std::string dev;
  uint32_t port = 0;
};

// "DEV/PORT" is that port, "DEV" every port of DEV, "" every port of every
// device (as iproute2's rd_exec_link). With need_port, only DEV/PORT is
// accepted (bind, unbind, optional counters). Throws Error naming what is
// wrong: no such device, no such port, a malformed port.
std::vector<PortRef> resolve_ports(nl::Session& s, const std::string& spec, bool need_port);

}  // namespace rdma
