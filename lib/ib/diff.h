// `rdma fabric diff`: what changed between two discoveries of a subnet.
// Nodes are matched by GUID, ports by (node GUID, port), links by both
// ends, so a node that moved shows as links gone and added.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lib/ib/fabric_model.h"
#include "lib/view/record.h"

namespace rdma::ib {

struct Change {
  enum class Kind : uint8_t { Added, Gone, Changed } kind = Kind::Changed;
  enum class Object : uint8_t { Node, Port, Link } object = Object::Node;
  uint8_t node_type = 0;       // NodeType, of the node and of a link's other end,
  uint8_t peer_node_type = 0;  // for DiffChecks' node kinds
  uint64_t node_guid = 0;
  std::string description;
  int port = -1;  // ports and links
  // Links: the other end.
  uint64_t peer_node_guid = 0;
  int peer_port = -1;
  std::string peer_description;
  // Changed: which value, before and now ("width", "4X", "1X").
  std::string field, before, now;
};

// Which changes a diff reports (ibnetdiscover --diffcheck): the kinds of
// node looked at (sw, ca, router), and what is compared of them: their
// links (port), LIDs (lid), descriptions (nodedesc) and, ours besides,
// the ports' values (state, physical state, width, speed, the number of
// ports). A node added or gone is reported when its kind is looked at; a
// link when either end's kind is.
struct DiffChecks {
  bool switches = true, cas = true, routers = true;
  bool links = true, lids = true, descriptions = true, ports = true;
};

// The changes from before to now: nodes, then links, then ports and
// values, each in the order of the fabric they are found in.
std::vector<Change> diff(const Fabric& before, const Fabric& now, const DiffChecks& checks = {});

// change, object, node_guid, description, port, peer_*, field, before, now.
void change_record(const Change& c, view::Record& out);

}  // namespace rdma::ib
