// rdma port check TARGET [port N|all] [state|width|speed|errors]... [thresholds
// FILE]: the old ibcheckport, ibcheckportstate, ibcheckportwidth and
// ibcheckerrs verdicts, a line a port (lib/ib/port_verdicts.h judges).
#pragma once

#include "rdma/command.h"

namespace rdma {

void port_check(Ctx& c);

}  // namespace rdma
