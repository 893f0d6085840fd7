// The objects of the command line: each is a table of commands.
#pragma once

#include "rdma/command.h"

namespace rdma {

void cmd_dev(Ctx& c);
void cmd_link(Ctx& c);
void cmd_system(Ctx& c);

}  // namespace rdma
