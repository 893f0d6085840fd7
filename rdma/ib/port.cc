// rdma port show TARGET [port N] [pkeys|guids|sl2vl|vlarb]: PortInfo and
// the per-port tables (port set: port_set.cc).
#include "lib/error.h"
#include "lib/ib/node_view.h"
#include "lib/ib/port_select.h"
#include "lib/ib/port_view.h"
#include "lib/ib/saved_port.h"
#include "lib/mad/format.h"
#include "rdma/ib/port_check.h"
#include "rdma/ib/port_peer.h"
#include "rdma/ib/port_set.h"
#include "rdma/ib/port_tables.h"
#include "rdma/ib/saved_target.h"
#include "rdma/ib/session.h"
#include "rdma/objects.h"

namespace rdma {

namespace {

void port_help(Ctx& c) {
  std::fputs(
      "Usage: rdma [--sa] port show TARGET [port N] [ pkeys | guids | sl2vl | vlarb ] [via "
      "DEV/PORT]\n"
      "       rdma port show TARGET [port N] from FILE\n"
      "       rdma [-f] [--mkey KEY] port set TARGET port N [ STATE ] [ OP VALUE ]... [via "
      "DEV/PORT]\n"
      "       rdma --yes port set all init [via DEV/PORT]\n"
      "       rdma port peer [ DEV[/PORT] ]\n"
      "       rdma port check TARGET [ port { N | all } ] [ state | width | speed | errors ]...\n"
      "                          [ thresholds FILE ] [via DEV/PORT]\n"
      "where  TARGET := { lid LID | LID | guid GUID | gid GID | dr PATH |\n"
      "              dr lid LID PATH | name NAME }\n"
      "       STATE := { enable | disable | reset | down | arm | active | init }\n"
      "       OP := { speed | espeed | fdr10 | width | vls | mtu | lid | smlid | lmc | mkey }\n"
      "--sa reads the SA's PortInfoRecord instead of an SMP (PortInfo only);\n"
      "from FILE the port in a saved fabric or ibnetdiscover's topology file.\n",
      c.help_out);
}

// --sa: the PortInfoRecord of the target's LID: the port asked for, or the
// one a CA's LID is on (a switch: port 0), as an SMP would be answered.
void port_show_sa(Ctx& c, MadSession& s, const mad::Target& t, std::optional<uint8_t> port) {
  s.check_sa(t);
  ib::PortAttrs a = ib::read_port_attrs_sa(s, t, port);
  view::Record rec;
  add_target(rec, {false, a.lid, {}});
  rec.pair("port", a.port);
  ib::add_port_attrs(a, c.opt.details, c.opt.show_keys, rec);
  c.out.record(one_field_a_line(c, rec));
}

// from FILE: the port as the file holds it, no MAD sent; what the file
// does not hold is left out and said once on stderr.
void port_show_saved(Ctx& c, const mad::Target& t, std::optional<uint8_t> port,
                     const std::string& file) {
  SavedTarget s = load_saved_target(c, t, file);
  const ib::Node& n = s.fabric.nodes[s.at.node];
  view::Record rec;
  add_target(rec, s.label);
  // Without a port a CA answers for the port named, a switch for port 0.
  unsigned shown = port ? *port : n.is_switch() ? 0 : s.at.port;
  rec.pair("port", shown);
  std::vector<std::string> missing =
      ib::add_saved_port(n, s.at.port, shown, s.kind == ib::FabricFile::Topology, c.opt.details,
                         c.opt.show_keys, mad::route_text(s.label), rec);
  c.out.record(one_field_a_line(c, rec));
  note_not_held(c, file, missing);
}

}  // namespace

void explain_port_failure(MadSession& s, const mad::Route& route, uint8_t port,
                          const std::string& where) {
  ib::NodeInfo ni;
  try {
    ni = ib::read_node_info(s, route);
  } catch (const mad::MadError&) {
    return;  // the node does not say: the first failure stands
  }
  if (port == 0 && !ni.is_switch()) return;
  ib::check_port(ni, port, where);
}

void show_port(Ctx& c, MadSession& s, const mad::Route& route, std::optional<uint8_t> port,
               const mad::Route& label, const std::string* name) {
  view::Record rec;
  if (name) {
    std::string t = mad::route_text(label);
    rec.add("target", "", t);
    rec.add("peer", "peer " + mad::desc_text(*name) + ": ", *name);
  } else {
    add_target(rec, label);
  }
  mad::Mad pi;
  try {
    pi = ib::read_port_info(s, route, port.value_or(0));
  } catch (const mad::MadError& e) {
    if (port && e.failure.kind == mad::Failure::Kind::Status)
      explain_port_failure(s, route, *port, mad::route_text(label));
    throw;
  }
  ib::PortAttrs a = ib::port_attrs(s, route, port, pi.data());
  rec.pair("port", a.port);
  ib::add_port_attrs(a, c.opt.details, c.opt.show_keys, rec);
  c.out.record(one_field_a_line(c, rec));
}

namespace {

void port_show(Ctx& c) {
  std::optional<mad::Target> target =
      c.args.target_or_name({"port", "pkeys", "guids", "sl2vl", "vlarb"});
  FabricSource src = c.args.take_source();
  std::string via = src.via;
  if (!target) throw UsageError("missing target (lid N, guid G, gid G, dr PATH or name NAME)");
  std::optional<uint8_t> port;
  std::string table;
  while (!c.args.empty()) {
    std::string k = c.args.next();
    if (matches(k, "port"))
      port = parse_port(c.args.need_word("port number"));
    else if (k == "pkeys" || k == "guids" || k == "sl2vl" || k == "vlarb")
      table = k;
    else
      throw UsageError(
          unknown_word("port show argument", k, {"port", "pkeys", "guids", "sl2vl", "vlarb"}));
  }
  if (c.opt.sa && !table.empty())
    throw UsageError("--sa shows PortInfo; the " + table + " table needs SMPs");
  if (!src.from.empty()) {
    if (!table.empty())
      throw UsageError("\"from FILE\" shows PortInfo; the " + table + " table needs SMPs");
    return port_show_saved(c, *target, port, src.from);
  }
  MadSession s(c, via);
  if (c.opt.sa) return port_show_sa(c, s, *target, port);
  mad::Route route = s.route(target);
  if (table.empty()) return show_port(c, s, route, port, route);
  show_port_table(c, s, port_target(s, route, port), table);
}

}  // namespace

void cmd_port(Ctx& c) {
  static constexpr Cmd kTable[] = {
      {nullptr, port_help},
      {"show", port_show},
      {"list", port_show},
      {"set", port_set},
      {"peer", port_peer},
      {"help", port_help},
      {"check", port_check, Takes::Findings},
  };
  dispatch(c, kTable, "port command");
}

}  // namespace rdma
