// rdma fabric check: the fabric checks of lib/ib/check.h on the fabric the
// fabric commands find (live, `from FILE` or --sa), one line per finding.
#pragma once

#include "lib/ib/fabric_model.h"
#include "rdma/command.h"

namespace rdma {

class MadSession;

// `fabric check [ ids | links | sm | routes | credit | balance ]...`; exit
// status 1 when a finding is an error.
void fabric_check(Ctx& c);

}  // namespace rdma
