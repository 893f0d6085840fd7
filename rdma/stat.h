// rdma statistic: the commands of each statistic object, in their own files.
#pragma once

#include <string>

#include "rdma/command.h"

namespace rdma {

void stat_help(Ctx& c);
void stat_show(Ctx& c);
std::span<const Cmd>
stat_show_commands();     // stat_show's table   // stat_show.cc: port counters, -w/-c watch
void stat_qp(Ctx& c);     // stat_qp.cc: QP counters and their modes
void stat_mr(Ctx& c);     // stat_mr.cc: MR statistics
void stat_mode(Ctx& c);   // stat_mode.cc: optional counters
void stat_set(Ctx& c);    // stat_mode.cc
void stat_unset(Ctx& c);  // stat_mode.cc

// The DEV[/PORT] after an optional "link" keyword: "" when none is given.
std::string link_arg(Ctx& c);

}  // namespace rdma
