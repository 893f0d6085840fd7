#include "lib/ib/cable_peer.h"

#include "lib/mad/attrs.h"
#include "lib/mad/format.h"
#include "lib/mad/target.h"

namespace rdma::ib {

namespace {

// Node r reaches, as discovery keeps it: NodeInfo, NodeDescription and
// the PortInfo of port (and a switch's port 0).
uint32_t add_node(MadClient& c, Fabric& f, const mad::Route& r, uint8_t port) {
  NodeInfo ni = NodeInfo::from(c.smp(r, mad::kGet, mad::kNodeInfo, 0).data());
  if (!port) port = ni.local_port;
  uint32_t n = f.add(ni, r.path);
  Node& node = f.nodes[n];
  node.description = mad::c_string(
      c.smp(r, mad::kGet, mad::kNodeDescription, 0).data().first(mad::kNodeDescription.bytes));
  auto read_port = [&](uint8_t p) {
    if (p >= node.ports.size()) return;
    node.ports[p].info = PortInfo::from(c.smp(r, mad::kGet, mad::kPortInfo, p).data());
  };
  read_port(port);
  if (node.is_switch() && port != 0) read_port(0);
  if (!node.is_switch() && port < node.ports.size()) node.ports[port].guid = ni.port_guid;
  return n;
}

}  // namespace

Fabric cable_peer(MadClient& c) {
  Fabric f;
  uint8_t port = static_cast<uint8_t>(c.local().port);
  add_node(c, f, {true, 0, {}}, port);
  const Port* local = f.nodes[0].port(port);
  // A port without a link (Down) has nothing behind it to ask.
  if (!local || !local->info || !local->info->link_up()) return f;
  uint32_t peer = add_node(c, f, {true, 0, {port}}, 0);
  f.connect({0, port}, {peer, f.nodes[peer].info.local_port});
  return f;
}

}  // namespace rdma::ib
