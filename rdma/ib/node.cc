// rdma node show TARGET: NodeInfo and NodeDescription, SwitchInfo on
// switches. rdma node set description TEXT: the local devices' own.
#include <algorithm>

#include "lib/choices.h"
#include "lib/error.h"
#include "lib/ib/node_desc.h"
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
      "       rdma node set description TEXT [dev DEV]\n"
      "where  TARGET := { lid LID | LID | guid GUID | gid GID | dr PATH |\n"
      "              name NAME }\n"
      "--sa reads the SA's NodeRecord and SwitchInfoRecord instead of SMPs.\n"
      "set description: the NodeDescription of the local devices (every one\n"
      "without dev), at most 64 bytes.\n",
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

// As set_nodedesc.sh: sysfs's node_desc of each device (no netlink
// attribute carries it), written and read back; every device that has one
// when no dev is given. Nothing is written unless every word is good and
// the device named exists.
void node_set(Ctx& c) {
  std::optional<std::string> text, dev;
  if (c.args.empty()) throw UsageError("missing what to set (description TEXT)");
  while (!c.args.empty()) {
    std::string k = c.args.next();
    if (!k.empty() && std::string_view("description").starts_with(k))
      text = c.args.need_value("description", "TEXT");
    else if (k == "dev")
      dev = c.args.need_value("dev", "DEV");
    else
      throw UsageError(unknown_word("node set argument", k, {"description", "dev"}));
  }
  if (!text) throw UsageError("missing description TEXT");
  c.args.done();
  if (std::optional<std::string> problem = ib::node_desc_problem(*text))
    throw UsageError("invalid description: " + *problem);
  std::vector<std::string> devices = ib::node_desc_devices(ib::kSysfsInfiniband);
  if (devices.empty())
    throw Error(std::string("no RDMA device with a node description here (") +
                ib::kSysfsInfiniband + ")");
  if (dev) {
    if (std::find(devices.begin(), devices.end(), *dev) == devices.end())
      throw UsageError(unknown_word("device", *dev, devices));
    devices = {*dev};
  }
  if (dev) return ib::write_node_desc(ib::kSysfsInfiniband, *dev, *text);
  // Every device: one that cannot take it (siw has no way to change it)
  // does not keep the others from theirs; each failure is a warning.
  for (const std::string& d : devices) {
    try {
      ib::write_node_desc(ib::kSysfsInfiniband, d, *text);
    } catch (const Error& e) {
      c.warn(e.what());
    }
  }
}

}  // namespace

void cmd_node(Ctx& c) {
  static constexpr Cmd kTable[] = {{nullptr, node_help},
                                   {"show", node_show},
                                   {"list", node_show},
                                   {"set", node_set},
                                   {"help", node_help}};
  dispatch(c, kTable, "node command");
}

}  // namespace rdma
