#include "lib/ib/lid_discover.h"

#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "lib/error.h"
#include "lib/ib/fdr10.h"
#include "lib/mad/attrs.h"
#include "lib/mad/format.h"
#include "lib/mad/target.h"

namespace rdma::ib {

namespace {

// Waves, one per hop, as directed-route discovery runs them (so the nodes
// come in its order and a link's "a" end is the same): the NodeInfo probes
// behind the last wave's ports, the new nodes' LIDs, then their details by
// LID. Each step waits for the one before it; the window is filled within
// a step.
class LidDiscoverer {
 public:
  LidDiscoverer(mad::Engine& e, size_t* nodes_found) : e_(e), nodes_found_(nodes_found) {}

  Discovery run() {
    std::vector<Probe> wave(1);  // the local node: behind no port
    while (!wave.empty()) {
      for (Probe& p : wave) probe(p);
      e_.run();
      std::vector<uint32_t> found = settle(wave);
      for (uint32_t n : found) {
        const Node& node = d_.fabric.nodes[n];
        port_info(n, directed(node.path), node.is_switch() ? 0 : node.info.local_port);
      }
      e_.run();
      for (uint32_t n : found) details(n);
      e_.run();
      wave = next_wave(found);
    }
    if (unlidded_)
      d_.warnings.push_back(
          std::to_string(unlidded_) + (unlidded_ == 1 ? " node has" : " nodes have") +
          " no LID (no subnet manager has configured " + (unlidded_ == 1 ? "it" : "them") +
          "): read by directed route, first " + first_unlidded_);
    return std::move(d_);
  }

 private:
  struct Probe {
    std::vector<uint8_t> path;    // directed route to the node behind
    std::optional<PortRef> from;  // the port it is behind (none: the local node)
    std::optional<NodeInfo> info;
  };

  static mad::Route directed(const std::vector<uint8_t>& path) { return {true, 0, path}; }

  // One SMP Get; done gets the attribute of a good reply. A failure is a
  // warning unless quiet (a question whose silence means "no").
  template <typename Done>
  void ask(const mad::Route& r, const mad::AttrDef& a, uint32_t mod, Done done, bool quiet = false,
           uint64_t behind = 0) {
    std::string what = std::string(a.name) + (mod ? " port " + std::to_string(mod) : "") +
                       " from " + mad::route_text(r);
    mad::Query q{mad::make_smp(r, mad::kGet, a, mod), mad::smp_address(r), std::move(what),
                 [this, done, quiet](const mad::Mad* reply, const mad::Failure* f) {
                   if (!reply) {
                     if (!quiet) d_.warnings.push_back(f->message);
                     return;
                   }
                   try {
                     done(reply->data());
                   } catch (const Error& err) {  // a reply too short for its view
                     if (!quiet) d_.warnings.push_back(err.what());
                   }
                 }};
    // A probe's end is not known until it answers: the engine limits such
    // probes per node they leave from (mad::Query::unknown_end).
    q.unknown_end = behind != 0 || (r.directed && a.id == mad::kNodeInfo.id);
    q.behind = behind;
    e_.submit(std::move(q));
  }

  void probe(Probe& p) {
    uint64_t behind = p.from ? d_.fabric.nodes[p.from->node].info.node_guid : 0;
    ask(
        directed(p.path), mad::kNodeInfo, 0,
        [&p](std::span<const uint8_t> a) { p.info = NodeInfo::from(a); }, false, behind);
  }

  // PortInfo of port `port` of node n by route r, and where iblinkinfo asks
  // it the vendor's MlnxExtPortInfo (lib/ib/fdr10.h) by the same route.
  void port_info(uint32_t n, const mad::Route& r, uint8_t port) {
    ask(r, mad::kPortInfo, port, [this, n, r, port](std::span<const uint8_t> a) {
      Port& p = d_.fabric.nodes[n].ports[port];
      p.info = PortInfo::from(a);
      if (!ask_fdr10(d_.fabric.nodes[n].info, *p.info)) return;
      ask(
          r, mad::kMlnxExtPortInfo, port,
          [this, n, port](std::span<const uint8_t> x) {
            PortInfo& info = *d_.fabric.nodes[n].ports[port].info;
            info.mlnx_speed_active = mlnx_speed_active(x);
            info.mlnx_speed_supported = mlnx_speed_supported(x);
          },
          true);
    });
  }

  // The wave's answers in probe order: new nodes added (returned), links
  // joined. What contradicts what was found before is a warning and is not
  // explored through.
  std::vector<uint32_t> settle(std::vector<Probe>& wave) {
    std::vector<uint32_t> found;
    for (Probe& p : wave) {
      if (!p.info) {
        if (!p.from)
          throw Error("the local node does not answer: " +
                      (d_.warnings.empty() ? std::string("no reply") : d_.warnings.back()));
        continue;
      }
      const NodeInfo& ni = *p.info;
      std::string at = mad::route_text(directed(p.path));
      const Node* seen = d_.fabric.find(ni.node_guid);
      if (seen && (seen->info.node_type != ni.node_type || seen->info.num_ports != ni.num_ports)) {
        d_.warnings.push_back("node " + mad::guid_hex(ni.node_guid) + " at " + at +
                              " differs from the node of that GUID at " +
                              mad::route_text(directed(seen->path)) + ": not exploring through " +
                              at);
        continue;
      }
      uint32_t n = d_.fabric.add(ni, p.path);
      Node& node = d_.fabric.nodes[n];
      if (ni.local_port >= node.ports.size()) {
        d_.warnings.push_back("NodeInfo from " + at + ": arrived on port " +
                              std::to_string(ni.local_port) + " of " +
                              std::to_string(ni.num_ports));
        continue;
      }
      Port& arrival = node.ports[ni.local_port];
      if (p.from && arrival.peer && !(*arrival.peer == *p.from)) {
        d_.warnings.push_back("port " + std::to_string(ni.local_port) + " of node " +
                              mad::guid_hex(ni.node_guid) +
                              " answers behind two ports: not exploring through " + at);
        continue;
      }
      if (!node.is_switch()) arrival.guid = ni.port_guid;
      if (p.from) d_.fabric.connect(*p.from, PortRef{n, ni.local_port});
      if (seen) {
        // A second port of a known CA: its own LID and PortInfo.
        if (!node.is_switch() && !arrival.info) port_info(n, directed(p.path), ni.local_port);
        continue;
      }
      found.push_back(n);
      if (nodes_found_) *nodes_found_ = d_.fabric.nodes.size();
    }
    return found;
  }

  // NodeDescription, and for a switch SwitchInfo and its other ports'
  // PortInfo: by the node's LID when it has one.
  void details(uint32_t n) {
    Node& node = d_.fabric.nodes[n];
    const Port* base = node.port(node.is_switch() ? 0 : node.info.local_port);
    uint16_t lid = base && base->info ? base->info->lid : 0;
    mad::Route r = lid ? mad::Route{false, lid, {}} : directed(node.path);
    if (!lid && !unlidded_++)
      first_unlidded_ = mad::guid_hex(node.info.node_guid) + " at " + mad::route_text(r);
    ask(r, mad::kNodeDescription, 0, [this, n](std::span<const uint8_t> a) {
      d_.fabric.nodes[n].description = mad::c_string(a.first(std::min<size_t>(a.size(), 64)));
    });
    if (!node.is_switch()) return;
    node.ports[0].guid = node.info.port_guid;
    ask(r, mad::kSwitchInfo, 0,
        [this, n](std::span<const uint8_t> a) { d_.fabric.nodes[n].sw = SwitchInfo::from(a); });
    for (uint8_t p = 1; p <= node.info.num_ports; ++p) port_info(n, r, p);
  }

  // Probes behind every port of the new switches (and the local CA's own
  // port) whose link is up and whose peer is not known yet.
  std::vector<Probe> next_wave(const std::vector<uint32_t>& found) {
    std::vector<Probe> wave;
    for (uint32_t n : found) {
      const Node& node = d_.fabric.nodes[n];
      if (!node.is_switch() && n != 0) continue;  // CAs do not forward
      if (node.path.size() >= mad::kMaxHops) {
        d_.warnings.push_back("not exploring behind " + mad::route_text(directed(node.path)) +
                              ": the directed route has " + std::to_string(mad::kMaxHops) +
                              " hops");
        continue;
      }
      for (const Port& port : node.ports) {
        if (port.num == 0 || port.peer || !port.info || !port.info->link_up()) continue;
        if (!node.is_switch() && port.num != node.info.local_port) continue;
        Probe p{node.path, PortRef{n, port.num}, std::nullopt};
        p.path.push_back(port.num);
        wave.push_back(std::move(p));
      }
    }
    return wave;
  }

  mad::Engine& e_;
  size_t* nodes_found_;
  size_t unlidded_ = 0;         // nodes read by directed route for want of a LID
  std::string first_unlidded_;  // the first of them, for the warning
  Discovery d_;
};

}  // namespace

Discovery discover_by_lid(mad::Engine& e, size_t* nodes_found) {
  return LidDiscoverer(e, nodes_found).run();
}

}  // namespace rdma::ib
