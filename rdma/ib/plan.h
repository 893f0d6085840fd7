// rdma fabric plan { check PLAN | write FILE }: the fabric as built against
// a cable plan (lib/ib/cable_plan.h), and a plan written from the fabric.
#pragma once

#include "rdma/command.h"

namespace rdma {

// `fabric plan check PLAN [from FILE]`: one line per finding and a summary;
// exit status as diff(1): 0 no error, 1 an error found, 2 the check failed.
// `fabric plan write FILE [csv|topology]`: the plan of the fabric; exit
// status as iproute2's (1 on an error).
std::span<const Cmd> plan_commands();
void fabric_plan(Ctx& c);

}  // namespace rdma
