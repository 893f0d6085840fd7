// `rdma fabric topology slurm`: the fabric as Slurm's topology.conf, so a
// scheduler places jobs by the switches their nodes hang on.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "lib/ib/fabric_model.h"

namespace rdma::ib {

enum class SlurmFormat : uint8_t { Tree, Block };

// topology/tree: a line per switch, leaves (the switches CAs hang on)
// with their hosts (Nodes=), each switch above with the switches one level
// below it (Switches=), levels counted from the leaves up by hops (links
// within a level and down more than one are not the tree's). topology/block
// (Slurm 23.11): a block per leaf switch with its hosts. Hosts are the
// first word of the CAs' descriptions (rdma-ndd's "host mlx5_0"; the
// node-name-map's name when the fabric was renamed); switches are named by
// their descriptions when those are one word Slurm takes and no other
// switch has, else ibnetdiscover's "S-GUID". Lists are Slurm hostlists
// ("h[1-3,7],login1").
void write_slurm_topology(const Fabric& f, SlurmFormat format, std::FILE* out);

// "h[01-03,7],x": names sorted, runs of a prefix and numbers of one width
// as Slurm's hostlist expressions take them.
std::string slurm_hostlist(std::vector<std::string> names);

}  // namespace rdma::ib
