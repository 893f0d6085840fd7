// `rdma fabric topology dot`: the fabric as a Graphviz graph, switches
// ranked by level, CAs grouped under their leaf, links coloured by health.
#pragma once

#include <cstdint>
#include <cstdio>
#include <vector>

#include "lib/ib/fabric_model.h"

namespace rdma::ib {

// Each node's level (indexed as Fabric::nodes): 0 for CAs and routers, a
// switch's distance in links from the nearest of them; switches no CA
// reaches are one above the highest level found.
std::vector<unsigned> node_levels(const Fabric& f);

// Writes f as an undirected dot graph: a node per fabric node (id "S-GUID",
// "H-GUID" or "R-GUID" as the topology file, labelled with the description
// and LID), a `rank=same` subgraph per switch level with the highest on top,
// a cluster per leaf switch holding the CAs whose first link leads to it, and
// an edge per link labelled with both port numbers, width and speed. Edges
// are red when an end is not Active, magenta when an end is in over (ports
// over an error threshold), and orange when degraded (and not over).
void write_dot(const Fabric& f, std::FILE* out, const std::vector<PortRef>& over = {});

}  // namespace rdma::ib
