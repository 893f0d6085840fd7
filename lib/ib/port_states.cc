#include "lib/ib/port_states.h"

#include <functional>
#include <string>

#include "lib/mad/attrs.h"
#include "lib/mad/mad.h"
#include "lib/mad/target.h"
#include "lib/mad/types.h"

namespace rdma::ib {

namespace {

// The LID a node's SMA answers at: a switch's port 0's, a CA's port's own.
uint16_t sma_lid(const Node& n, const Port& p) {
  if (!n.is_switch()) return p.info->lid;
  return n.ports.empty() || !n.ports[0].info ? 0 : n.ports[0].info->lid;
}

}  // namespace

PortStates read_port_states(mad::Engine& e, const Fabric& f, const NodeSelect& sel) {
  PortStates out;
  // By the directed route first; where that fails (the link that went down
  // was on it), by LID, as the PMA was just reached.
  std::function<void(uint32_t, uint8_t, mad::Route)> ask = [&](uint32_t n, uint8_t port,
                                                               mad::Route r) {
    const Node& node = f.nodes[n];
    std::string what = "PortInfo port " + std::to_string(port) + " of \"" + node.description +
                       "\" (" + mad::route_text(r) + ")";
    e.submit({mad::make_smp(r, mad::kGet, mad::kPortInfo, port), mad::smp_address(r), what,
              [&, n, port, directed = r.directed](const mad::Mad* reply, const mad::Failure*) {
                if (reply) {
                  out[{n, port}] = PortInfo::from(reply->data()).state;
                  return;
                }
                uint16_t lid = sma_lid(f.nodes[n], f.nodes[n].ports[port]);
                if (directed && lid) ask(n, port, mad::Route{false, lid, {}});
              }});
  };
  for (uint32_t n = 0; n < f.nodes.size(); ++n) {
    if (!sel.covers(f, n)) continue;
    const Node& node = f.nodes[n];
    for (const Port& p : node.ports) {
      if (p.num == 0 || !p.info || p.info->state != mad::kPortActive) continue;
      if (sel.port && p.num != *sel.port) continue;
      ask(n, p.num, mad::Route{true, 0, node.path});
    }
  }
  e.run();
  return out;
}

}  // namespace rdma::ib
