// The typed model of a subnet as discovery finds it: nodes (by GUID), their
// ports with PortInfo, and the links between ports. Every fabric command
// reads this, whether it came from the wire or from a saved file.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lib/ib/node_path.h"
#include "lib/ib/node_ports.h"
#include "lib/ib/port_parts.h"
#include "lib/ib/smp.h"
#include "lib/mad/key_index.h"

namespace rdma::ib {

struct Node {
  NodeInfo info;
  std::string description;
  std::optional<SwitchInfo> sw;  // switches
  // Indexed by port number: 0..NumPorts for switches (port 0 is the
  // management port), 1..NumPorts for CAs and routers (ports[0] reads as
  // an empty Port, and is not kept: lib/ib/node_ports.h).
  NodePorts ports;
  // How discovery reached it: the directed route from the local port.
  NodePath path;

  bool is_switch() const { return info.is_switch(); }
  // The LIDs of the node: a switch's port 0, each known CA port's.
  std::vector<uint16_t> lids() const;
  // The port by number, or nullptr when out of range.
  const Port* port(unsigned n) const { return n < ports.size() ? &ports[n] : nullptr; }
};

// A link, each once: a is the end found first (discovery order).
struct Link {
  PortRef a, b;
};

struct Fabric {
  std::vector<Node> nodes;  // discovery order: the local node first

  // Adds a node (ports sized from NodeInfo) unless its GUID is known;
  // returns its index either way.
  uint32_t add(const NodeInfo& info, NodePath path);
  // The node with that GUID: its index, or none.
  std::optional<uint32_t> index_of(uint64_t node_guid) const;
  const Node* find(uint64_t node_guid) const;
  // Indexes the nodes' GUIDs again, after one of them was changed.
  void reindex();
  // Records that a and b are joined (both ends).
  void connect(PortRef a, PortRef b);
  // Every link once, in node order.
  std::vector<Link> links() const;
  const Port& at(PortRef r) const { return nodes[r.node].ports[r.port]; }
  Port& at(PortRef r) { return nodes[r.node].ports[r.port]; }

 private:
  // Node GUID to index: 8-byte slots over nodes, not a hash node a node.
  mad::KeyIndex by_guid_;
};

}  // namespace rdma::ib
