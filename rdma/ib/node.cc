// rdma node show TARGET: NodeInfo and NodeDescription, SwitchInfo on
// switches. rdma node set description TEXT: the local devices' own.
#include <algorithm>

#include "lib/choices.h"
#include "lib/error.h"
#include "lib/ib/cache.h"
#include "lib/ib/find.h"
#include "lib/ib/node_desc.h"
#include "lib/ib/node_name_map.h"
#include "lib/ib/node_view.h"
#include "lib/ib/saved_node.h"
#include "rdma/ib/node_vendor.h"
#include "rdma/ib/saved_target.h"
#include "rdma/ib/session.h"
#include "rdma/objects.h"

namespace rdma {

namespace {

void node_help(Ctx& c) {
  std::fputs(
      "Usage: rdma [--sa] node show TARGET [ from FILE ] [via DEV/PORT]\n"
      "       rdma node set description TEXT [dev DEV]\n"
      "       rdma node ping TARGET [count N] [flood] [oui OUI] [via DEV/PORT]\n"
      "       rdma node ping serve [count N] [oui OUI] [via DEV/PORT]\n"
      "       rdma node sysstat TARGET [ping | host | cpu] [oui OUI] [via DEV/PORT]\n"
      "       rdma node sysstat serve [count N] [oui OUI] [via DEV/PORT]\n"
      "       rdma node vendor TARGET [general | xmitwait | groups [set G0 G1]\n"
      "              [port N] | config { read ADDR | write ADDR VALUE } [mask M]...]\n"
      "              [via DEV/PORT]\n"
      "where  TARGET := { lid LID | LID | guid GUID | gid GID | dr PATH |\n"
      "              dr lid LID PATH | name NAME }\n"
      "--sa reads the SA's NodeRecord and SwitchInfoRecord instead of SMPs;\n"
      "from FILE the node in a saved fabric or ibnetdiscover's topology file.\n"
      "set description: the NodeDescription of the local devices (every one\n"
      "without dev), at most 64 bytes.\n"
      "ping, sysstat: ibping's and ibsysstat's vendor MADs; serve answers them\n"
      "(until count N requests or Ctrl-C). vendor: vendstat's Mellanox\n"
      "GeneralInfo (-N), port xmit wait counters (-w), counter groups (-i, -c)\n"
      "and config space records in hex (-R, -W; a write is read back).\n",
      c.help_out);
}

// from FILE: the node as the file holds it, no MAD sent; what the file
// does not hold is left out and said once on stderr.
void node_show_saved(Ctx& c, const mad::Target& t, const std::string& file) {
  SavedTarget s = load_saved_target(c, t, file);
  view::Record rec;
  add_target(rec, s.label);
  std::vector<std::string> missing =
      ib::add_saved_node(s.fabric.nodes[s.at.node], s.at.port, s.kind == ib::FabricFile::Topology,
                         c.opt.details, s.names, rec);
  c.out.record(one_field_a_line(c, rec));
  note_not_held(c, file, missing);
}

void node_show(Ctx& c) {
  std::optional<mad::Target> target = c.args.target_or_name({});
  FabricSource src = c.args.take_source();
  std::string via = src.via;
  c.args.done();
  if (!target) throw UsageError("missing target (lid N, guid G, gid G, dr PATH or name NAME)");
  if (!src.from.empty()) return node_show_saved(c, *target, src.from);
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
  static constexpr Cmd kTable[] = {
      {nullptr, node_help},
      {"show", node_show},
      {"list", node_show},
      {"set", node_set},
      // In node_vendor.cc: vendor-class MADs.
      {"ping", node_ping},
      {"sysstat", node_sysstat},
      {"vendor", node_vendor},
      {"help", node_help},
  };

  dispatch(c, kTable, "node command");
}

}  // namespace rdma
