// rdma node ping, node sysstat and node vendor (node.cc's table): the
// vendor-class words of ibping, ibsysstat and vendstat.
#pragma once

#include "rdma/command.h"

namespace rdma {

void node_ping(Ctx& c);
void node_sysstat(Ctx& c);
void node_vendor(Ctx& c);

}  // namespace rdma
