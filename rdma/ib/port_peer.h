// rdma port peer [DEV[/PORT]]: each local InfiniBand port and the node at
// the other end of its cable (lib/ib/cable_peer.h).
#pragma once

#include "rdma/command.h"

namespace rdma {

void port_peer(Ctx& c);

}  // namespace rdma
