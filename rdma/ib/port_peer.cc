#include "rdma/ib/port_peer.h"

#include "lib/error.h"
#include "lib/ib/cable_peer.h"
#include "lib/ib/node_name_map.h"
#include "lib/ib/records.h"
#include "rdma/ib/session.h"
#include "rdma/words.h"

namespace rdma {

namespace {

std::string port_name(const mad::LocalPort& p) {
  return p.ca + "/" + std::to_string(p.port);
}

// The local InfiniBand ports (a switch's port 0 has no cable), those of
// `want` (DEV or DEV/PORT) when given; a word that names none is refused
// with the choices.
std::vector<mad::LocalPort> local_ports(const mad::Devices& d, const std::string& want) {
  std::vector<mad::LocalPort> out;
  std::vector<std::string> choices;
  for (const mad::Devices::Ca& ca : d.umad)
    for (const mad::Devices::Port& p : ca.ports) {
      if (!p.infiniband || p.port.port == 0) continue;
      choices.push_back(port_name(p.port));
      if (want.empty() || want == ca.name || want == port_name(p.port)) out.push_back(p.port);
    }
  if (out.empty() && !want.empty())
    throw UsageError(unknown_word("local InfiniBand port", want, choices));
  if (out.empty()) throw Error("no InfiniBand port on this machine");
  return out;
}

}  // namespace

void port_peer(Ctx& c) {
  std::string want = c.args.empty() ? "" : c.args.next();
  c.args.done();
  if (!c.mad || !c.mad->devices) throw Error("InfiniBand management is not available here");
  // The map first: a bad file is an error before any MAD.
  ib::NodeNameMap names = ib::load_node_name_map(c.opt.node_name_map);
  view::Record rec;
  for (const mad::LocalPort& p : local_ports(c.mad->devices(), want)) {
    MadSession s(c, port_name(p));
    ib::Fabric f = ib::cable_peer(s);
    s.end_progress();
    ib::rename_nodes(names, f);
    rec.clear();
    rec.pair("dev", p.ca);
    ib::port_record(f, {0, static_cast<uint8_t>(p.port)}, c.opt.details, rec);
    c.out.record(rec);
  }
}

}  // namespace rdma
