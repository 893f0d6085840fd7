// rdma node show TARGET: NodeInfo and NodeDescription, SwitchInfo on
// switches.
#include "lib/error.h"
#include "lib/ib/node_name_map.h"
#include "lib/ib/sa_records.h"
#include "lib/ib/smp.h"
#include "lib/mad/attrs.h"
#include "lib/mad/format.h"
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

// --sa: the NodeRecord (and SwitchInfoRecord) of the target's LID.
void node_show_sa(Ctx& c, MadSession& s, const mad::Target& t) {
  std::vector<uint8_t> node = s.sa_records(t, mad::kNodeRecord).front();
  uint16_t lid = static_cast<uint16_t>(mad::get_field(mad::kNodeRecord, node, "LID"));
  std::span<const uint8_t> info = ib::sa_carried(mad::kNodeRecord, mad::kNodeInfo, node);
  view::Record rec;
  add_target(rec, {false, lid, {}});
  mad::decode(mad::kNodeInfo, info, c.opt.details, rec);
  if (ib::NodeInfo::from(info).is_switch()) {
    mad::Target at;
    at.lid = lid;
    std::vector<uint8_t> sw = s.sa_records(at, mad::kSwitchInfoRecord).front();
    mad::decode(mad::kSwitchInfo, ib::sa_carried(mad::kSwitchInfoRecord, mad::kSwitchInfo, sw),
                c.opt.details, rec);
  }
  mad::decode(mad::kNodeDescription, ib::sa_carried(mad::kNodeRecord, mad::kNodeDescription, node),
              c.opt.details, rec);
  ib::rename_description(ib::load_node_name_map(c.opt.node_name_map),
                         ib::NodeInfo::from(info).node_guid, rec);
  c.out.record(one_field_a_line(c, rec));
}

void node_show(Ctx& c) {
  std::optional<mad::Target> target = c.args.target_or_name({});
  std::string via = c.args.take_via();
  c.args.done();
  if (!target) throw UsageError("missing target (lid N, guid G, gid G, dr PATH or name NAME)");
  MadSession s(c, via);
  if (c.opt.sa) return node_show_sa(c, s, *target);
  mad::Route r = s.route(target);
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
  ib::rename_description(ib::load_node_name_map(c.opt.node_name_map),
                         ib::NodeInfo::from(info.data()).node_guid, rec);
  c.out.record(one_field_a_line(c, rec));
}

}  // namespace

void cmd_node(Ctx& c) {
  static constexpr Cmd kTable[] = {
      {nullptr, node_help}, {"show", node_show}, {"list", node_show}, {"help", node_help}};
  dispatch(c, kTable, "node command");
}

}  // namespace rdma
