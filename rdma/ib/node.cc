// rdma node show TARGET: NodeInfo and NodeDescription, SwitchInfo on
// switches.
#include "lib/error.h"
#include "lib/ib/smp.h"
#include "lib/mad/attrs.h"
#include "lib/mad/format.h"
#include "rdma/ib/session.h"
#include "rdma/objects.h"

namespace rdma {

namespace {

void node_help(Ctx& c) {
  std::fputs(
      "Usage: rdma node show TARGET [via DEV/PORT]\n"
      "where  TARGET := { lid LID | LID | guid GUID | gid GID | dr PATH }\n",
      c.help_out);
}

void node_show(Ctx& c) {
  MadWords w(c);
  w.done();
  if (!w.target) throw Error("missing target (lid N, guid G, gid G or dr PATH)");
  MadSession s(c, w.via);
  mad::Route r = s.route(w.target);
  mad::Mad info = s.smp(r, mad::kGet, mad::kNodeInfo, 0);
  mad::Mad desc = s.smp(r, mad::kGet, mad::kNodeDescription, 0);
  view::Record rec;
  add_target(rec, r);
  mad::decode(mad::kNodeInfo, info.data(), c.opt.details, rec);
  if (ib::NodeInfo::from(info.data()).is_switch()) {
    mad::Mad sw = s.smp(r, mad::kGet, mad::kSwitchInfo, 0);
    mad::decode(mad::kSwitchInfo, sw.data(), c.opt.details, rec);
  }
  mad::decode(mad::kNodeDescription, desc.data(), c.opt.details, rec);
  c.out.record(rec);
}

}  // namespace

void cmd_node(Ctx& c) {
  static constexpr Cmd kTable[] = {
      {nullptr, node_help}, {"show", node_show}, {"list", node_show}, {"help", node_help}};
  dispatch(c, kTable, "node command");
}

}  // namespace rdma
