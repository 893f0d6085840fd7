// `rdma fabric topology`: the fabric in ibnetdiscover's topology-file
// format, which ibsim, opensm's tools and infiniband-diags read.
#pragma once

#include <cstdio>

#include "lib/ib/fabric_model.h"

namespace rdma::ib {

// full (ibnetdiscover -f): each link line ends with the port's raw
// LinkSpeedActive, LinkWidthActive and VLCap codes (" s=1 w=2 v=4"), read
// from the port the line is under.
// grouped (ibnetdiscover -g): the nodes by chassis (lib/ib/chassis.h),
// each chassis' spines, lines and other chips first.
struct TopologyStyle {
  bool full = false;
  bool grouped = false;
};

void write_topology(const Fabric& f, std::FILE* out, TopologyStyle style = {});

// "S-0000000000200000": ibnetdiscover's node name, a type letter (S, H or
// R) and the node GUID, so the file names every node uniquely.
std::string topology_node_name(const Node& n);

// ibnetdiscover's link rate word: "4xSDR", "4xEDR", "12xQDR"; the extended
// speeds as caps' masks vouch for them (lib/ib/records.h), all without.
std::string rate_text(const PortInfo& p, const PortInfo* caps = nullptr);

}  // namespace rdma::ib
