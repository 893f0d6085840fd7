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

// The changes from before to now: nodes, then links, then ports and
// values, each in the order of the fabric they are found in.
std::vector<Change> diff(const Fabric& before, const Fabric& now);

// change, object, node_guid, description, port, peer_*, field, before, now.
void change_record(const Change& c, view::Record& out);

}  // namespace rdma::ib
