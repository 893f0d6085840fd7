// rdma port show TARGET [port N] [pkeys|guids|sl2vl|vlarb]: PortInfo and
// the per-port tables (port set: port_set.cc).
#include "lib/error.h"
#include "lib/ib/fdr10.h"
#include "lib/ib/port_address.h"
#include "lib/ib/port_select.h"
#include "lib/ib/sa_records.h"
#include "lib/ib/smp.h"
#include "lib/mad/attrs.h"
#include "lib/mad/format.h"
#include "lib/mad/speed.h"
#include "rdma/ib/port_peer.h"
#include "rdma/ib/port_set.h"
#include "rdma/ib/port_tables.h"
#include "rdma/ib/session.h"
#include "rdma/objects.h"

namespace rdma {

namespace {

void port_help(Ctx& c) {
  std::fputs(
      "Usage: rdma [--sa] port show TARGET [port N] [ pkeys | guids | sl2vl | vlarb ] [via "
      "DEV/PORT]\n"
      "       rdma [-f] [--mkey KEY] port set TARGET port N [ STATE ] [ OP VALUE ]... [via "
      "DEV/PORT]\n"
      "       rdma --yes port set all init [via DEV/PORT]\n"
      "       rdma port peer [ DEV[/PORT] ]\n"
      "where  TARGET := { lid LID | LID | guid GUID | gid GID | dr PATH |\n"
      "              name NAME }\n"
      "       STATE := { enable | disable | reset | down | arm | active | init }\n"
      "       OP := { speed | espeed | fdr10 | width | vls | mtu | lid | smlid | lmc | mkey }\n"
      "--sa reads the SA's PortInfoRecord instead of an SMP (PortInfo only).\n",
      c.help_out);
}

// --sa: the PortInfoRecord of the target's LID: the port asked for, or the
// one a CA's LID is on (a switch: port 0), as an SMP would be answered.
void port_show_sa(Ctx& c, MadSession& s, const mad::Target& t, std::optional<uint8_t> port) {
  std::vector<std::vector<uint8_t>> recs = s.sa_records(t, mad::kPortInfoRecord, port);
  const std::vector<uint8_t>* pick = &recs.front();
  if (!port) {
    // A switch has a record per port: port 0 carries its LID.
    for (const auto& r : recs)
      if (mad::get_field(mad::kPortInfoRecord, r, "PortNum") == 0) pick = &r;
  }
  std::span<const uint8_t> pi = ib::sa_carried(mad::kPortInfoRecord, mad::kPortInfo, *pick);
  view::Record rec;
  add_target(rec, {false,
                   static_cast<uint16_t>(mad::get_field(mad::kPortInfoRecord, *pick, "EndportLID")),
                   {}});
  unsigned n = static_cast<unsigned>(mad::get_field(mad::kPortInfoRecord, *pick, "PortNum"));
  rec.pair("port", n);
  mad::decode(mad::kPortInfo, pi, c.opt.details, rec, {.show_keys = c.opt.show_keys});
  ib::add_port_address(ib::port_address_sa(s, t, pi, port.value_or(0)), rec);  // ibaddr's
  c.out.record(one_field_a_line(c, rec));
}

// Whether the port runs FDR10: the vendor's MlnxExtPortInfo, asked where
// iblinkinfo asks it (lib/ib/fdr10.h: a QDR link of a device that answers
// it). No answer is no FDR10, not an error.
bool fdr10(MadSession& s, const mad::Route& route, const mad::Mad& port_info, unsigned port) {
  ib::PortInfo pi = ib::PortInfo::from(port_info.data());
  if (!ib::may_be_fdr10(pi)) return false;  // no NodeInfo asked for the others
  try {
    ib::NodeInfo ni = ib::NodeInfo::from(s.smp(route, mad::kGet, mad::kNodeInfo, 0).data());
    if (!ib::ask_fdr10(ni, pi)) return false;
    mad::Mad ext = s.smp(route, mad::kGet, mad::kMlnxExtPortInfo, port);
    return ib::mlnx_speed_active(ext.data()) & mad::kMlnxSpeedFdr10;
  } catch (const Error&) {
    return false;
  }
}

// The PortInfo whose capability masks vouch for the port's extended speed
// fields (lib/mad/speed.h): its own, or for a switch's port its port 0's,
// asked only when the port shows an extended speed its own masks (reserved
// on a switch's external port) do not vouch for.
std::vector<uint8_t> speed_caps(MadSession& s, const mad::Route& route, const mad::Mad& pi,
                                unsigned port) {
  auto d = pi.data();
  std::vector<uint8_t> own(d.begin(), d.begin() + mad::kPortInfo.bytes);
  mad::ExtSpeedCaps caps = mad::ext_speed_caps(own);
  ib::PortInfo info = ib::PortInfo::from(d);
  bool ext = info.speed_ext_active != 0;
  bool ext2 = info.speed_ext2_active != 0;
  if (port == 0 || ((!ext || caps.ext) && (!ext2 || caps.ext2))) return own;
  ib::NodeInfo ni = ib::NodeInfo::from(s.smp(route, mad::kGet, mad::kNodeInfo, 0).data());
  if (!ni.is_switch()) return own;
  mad::Mad port0 = s.smp(route, mad::kGet, mad::kPortInfo, 0);
  auto p0 = port0.data();
  return {p0.begin(), p0.begin() + mad::kPortInfo.bytes};
}

}  // namespace

void explain_port_failure(MadSession& s, const mad::Route& route, uint8_t port,
                          const std::string& where) {
  ib::NodeInfo ni;
  try {
    ni = ib::NodeInfo::from(s.smp(route, mad::kGet, mad::kNodeInfo, 0).data());
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
    pi = s.smp(route, mad::kGet, mad::kPortInfo, port.value_or(0));
  } catch (const mad::MadError& e) {
    if (port && e.failure.kind == mad::Failure::Kind::Status)
      explain_port_failure(s, route, *port, mad::route_text(label));
    throw;
  }
  // Without "port N" a CA answers for the port the MAD arrived on.
  unsigned n = port ? *port : ib::PortInfo::from(pi.data()).local_port;
  rec.pair("port", n);
  std::vector<uint8_t> caps = speed_caps(s, route, pi, n);
  mad::decode(mad::kPortInfo, pi.data(), c.opt.details, rec,
              {.show_keys = c.opt.show_keys, .fdr10 = fdr10(s, route, pi, n), .speed_caps = caps});
  ib::add_port_address(ib::port_address(s, route, pi.data(), port.value_or(0)), rec);  // ibaddr's
  c.out.record(one_field_a_line(c, rec));
}

namespace {

void port_show(Ctx& c) {
  std::optional<mad::Target> target =
      c.args.target_or_name({"port", "pkeys", "guids", "sl2vl", "vlarb"});
  std::string via = c.args.take_via();
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
  MadSession s(c, via);
  if (c.opt.sa) return port_show_sa(c, s, *target, port);
  mad::Route route = s.route(target);
  if (table.empty()) return show_port(c, s, route, port, route);
  show_port_table(c, s, port_target(s, route, port), table);
}

}  // namespace

void cmd_port(Ctx& c) {
  static constexpr Cmd kTable[] = {
      {nullptr, port_help}, {"show", port_show}, {"list", port_show},
      {"set", port_set},    {"peer", port_peer}, {"help", port_help},
  };
  dispatch(c, kTable, "port command");
}

}  // namespace rdma
