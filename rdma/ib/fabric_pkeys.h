// rdma fabric show pkeys: the partitions of the fabric's end ports, read
// from their P_Key tables, each with its member ports.
#pragma once

#include "rdma/command.h"

namespace rdma {

// `fabric show pkeys [from FILE] [via DEV/PORT]` (the words after pkeys):
// a record per partition (its P_Key base), its members in node order.
void fabric_show_pkeys(Ctx& c, const FabricSource& src);

}  // namespace rdma
