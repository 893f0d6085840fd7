// The objects of the command line: each is a table of commands, in its own
// file (dev.cc, link.cc, ...).
#pragma once

#include "rdma/command.h"

namespace rdma {

void cmd_dev(Ctx& c);        // dev.cc
void cmd_link(Ctx& c);       // link.cc
void cmd_resource(Ctx& c);   // res.cc
void cmd_system(Ctx& c);     // system.cc
void cmd_statistic(Ctx& c);  // stat.cc
void cmd_monitor(Ctx& c);    // monitor.cc
// InfiniBand management over umad (rdma/ib/: node.cc, port.cc, perf.cc, sm.cc, mad.cc).
void cmd_node(Ctx& c);
void cmd_port(Ctx& c);
void cmd_perf(Ctx& c);
void cmd_sm(Ctx& c);
void cmd_mad(Ctx& c);
void cmd_fabric(Ctx& c);  // rdma/ib/fabric.cc
void cmd_route(Ctx& c);   // rdma/ib/route.cc
void cmd_sa(Ctx& c);      // rdma/ib/sa.cc
void cmd_cc(Ctx& c);      // rdma/ib/cc.cc
// The tables of the objects whose commands take -w or the metrics
// options, for the messages that name them (Cmd::sub).
std::span<const Cmd> resource_commands();
std::span<const Cmd> statistic_commands();
std::span<const Cmd> perf_commands();
std::span<const Cmd> fabric_commands();
// Verbs (libibverbs) views.
void cmd_gid(Ctx& c);  // gid.cc
// Bandwidth and latency between two ports (librdmacm).
void cmd_bw(Ctx& c);  // bw.cc

}  // namespace rdma
