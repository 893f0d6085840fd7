// Fabric discovery: breadth-first by directed route from the local port,
// as ibnetdiscover does, with many SMPs in flight (the engine's window).
// Every node is reached once (by GUID); a switch's ports are queried in
// parallel; no LID is needed, so it works without a subnet manager.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "lib/ib/fabric_model.h"
#include "lib/mad/engine.h"

namespace rdma::ib {

struct Discovery {
  Fabric fabric;
  // One line per problem (a query that timed out or failed, naming the
  // attribute and the route): the fabric is then partial.
  std::vector<std::string> warnings;
};

// A partial scan (iblinkinfo -D PATH -n HOPS): discovery from the node at
// the directed route `from` (the local node when empty), no further than
// `hops` links from it.
struct DiscoverScope {
  std::vector<uint8_t> from;
  std::optional<unsigned> hops;
  // When set, the number of nodes found so far (a progress line reads it).
  size_t* nodes_found = nullptr;
};

// Discovers the subnet the engine's transport is attached to (or the part
// of it scope names; the start node is nodes[0], every path still from the
// local port). Never throws for a sick fabric: what did not answer is a
// warning. Throws Error only when the start node itself does not answer.
//
// A fabric that contradicts itself is not believed: one node GUID met at
// two places as different nodes (type, port count), a port answering
// behind a link while its peer is already another port, two switches of
// one size with one LID, more nodes than the unicast LIDs could name.
// Each is a warning naming the GUIDs and directed routes, and discovery
// does not explore through the place that contradicts what it found
// first. So what a lying fabric costs is bounded by its true size
// (man/rdma.8, TIME BOUND).
Discovery discover(mad::Engine& e, const DiscoverScope& scope = {});

}  // namespace rdma::ib
