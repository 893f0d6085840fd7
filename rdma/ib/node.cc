// rdma node show TARGET: NodeInfo and NodeDescription, SwitchInfo on
// switches.
#include "lib/error.h"
#include "lib/ib/node_name_map.h"
#include "lib/ib/node_view.h"
#include "rdma/ib/session.h"
#include "rdma/objects.h"

namespace rdma {

namespace {

void node_help(Ctx& c) {
  std::fputs(
      "Usage: rdma [--sa] node show TARGET [via DEV/PORT]\n"
      "where  TARGET := { lid LID | LID | guid GUID | gid GID | dr PATH |\n"
      "              name NAME }\n"
      "--sa reads the SA's NodeRecord and SwitchInfoRecord instead of SMPs.\n",
      c.help_out);
}

void node_show(Ctx& c) {
  std::optional<mad::Target> target = c.args.target_or_name({});
  std::string via = c.args.take_via();
  c.args.done();
  if (!target) throw UsageError("missing target (lid N, guid G, gid G, dr PATH or name NAME)");
  MadSession s(c, via);
  view::Record rec;
  ib::NodeAttrs a;
  if (c.opt.sa) {
    // --sa: the NodeRecord (and SwitchInfoRecord) of the target's LID.
    s.check_sa(*target);
    a = ib::read_node_attrs_sa(s, *target);
    add_target(rec, {false, a.lid, {}});
  } else {
    mad::Route r = s.route(target);
    a = ib::read_node_attrs(s, r);
    add_target(rec, r);
  }
  ib::add_node_attrs(a, c.opt.details, ib::load_node_name_map(c.opt.node_name_map), rec);
  c.out.record(one_field_a_line(c, rec));
}

}  // namespace

void cmd_node(Ctx& c) {
  static constexpr Cmd kTable[] = {
      {nullptr, node_help}, {"show", node_show}, {"list", node_show}, {"help", node_help}};
  dispatch(c, kTable, "node command");
}

}  // namespace rdma
