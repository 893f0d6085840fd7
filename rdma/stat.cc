// rdma statistic: port counters, QP counters and their binding modes,
// optional counters and MR statistics. The commands live in stat_*.cc.
#include "rdma/stat.h"

#include "lib/error.h"
#include "rdma/objects.h"

namespace rdma {

void stat_help(Ctx& c) {
  std::fputs(
      "Usage: rdma [ OPTIONS ] statistic { COMMAND | help }\n"
      "       rdma statistic [ show | list ] [ link [ DEV[/PORT] ] ]\n"
      "       rdma [ -w SECONDS [ -c COUNT ] ] statistic show [ link [ DEV[/PORT] ] ]\n"
      "       rdma statistic qp [ show | list ] [ link DEV[/PORT] ] [ FILTER-NAME FILTER-VALUE "
      "]...\n"
      "       rdma statistic qp mode [ link DEV[/PORT] ]\n"
      "       rdma statistic qp set link DEV[/PORT] auto { CRITERIA on [ optional-counters { on | "
      "off } ] | off }\n"
      "       rdma statistic qp bind link DEV/PORT lqpn LQPN [ cntn CNTN ]\n"
      "       rdma statistic qp unbind link DEV/PORT cntn CNTN [ lqpn LQPN ]\n"
      "       rdma statistic mode [ supported ] [ link DEV[/PORT] ]\n"
      "       rdma statistic set link DEV/PORT optional-counters NAME[,NAME]...\n"
      "       rdma statistic unset link DEV/PORT optional-counters\n"
      "       rdma statistic mr [ show ] [ dev DEV ] [ mrn MRN ]\n"
      "where  CRITERIA := { type | pid | type,pid }\n"
      "       FILTER-NAME := { cntn | lqpn | pid | qp-type }\n"
      "Examples:\n"
      "       rdma statistic show\n"
      "       rdma statistic show link mlx5_2/1\n"
      "       rdma -w 1 -c 10 -j statistic show link mlx5_2/1\n"
      "       rdma statistic qp show link mlx5_2/1 lqpn 178\n"
      "       rdma statistic qp set link mlx5_2/1 auto type on\n"
      "       rdma statistic qp bind link mlx5_2/1 lqpn 178 cntn 4\n"
      "       rdma statistic qp unbind link mlx5_2/1 cntn 4\n"
      "       rdma statistic mode supported link mlx5_2/1\n"
      "       rdma statistic set link mlx5_2/1 optional-counters cc_rx_ce_pkts,cc_rx_cnp_pkts\n"
      "       rdma statistic mr dev mlx5_2 mrn 6\n",
      c.help_out);
}

std::string link_arg(Ctx& c) {
  if (c.args.empty()) return "";
  if (!matches(c.args.peek(), "link"))
    throw UsageError("unknown parameter \"" + c.args.peek() + "\" (expected \"link DEV[/PORT]\")");
  c.args.next();
  return c.args.empty() ? "" : c.args.next();
}

std::span<const Cmd> statistic_commands() {
  // iproute2's order, which decides what a prefix selects.
  static constexpr Cmd kTable[] = {
      {nullptr, stat_show, Takes::Own},
      {"show", stat_show, Takes::Own, stat_show_commands},
      {"list", stat_show, Takes::Own, stat_show_commands},
      {"help", stat_help, Takes::Own},
      {"qp", stat_qp, Takes::Own},
      {"mr", stat_mr},
      {"mode", stat_mode, Takes::Own},
      {"set", stat_set},      // stat_mode.cc: optional counters on or off
      {"unset", stat_unset},  // stat_mode.cc
  };
  return kTable;
}

void cmd_statistic(Ctx& c) {
  dispatch(c, statistic_commands(), "statistic command");
}

}  // namespace rdma
