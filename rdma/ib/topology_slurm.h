// rdma fabric topology slurm [ tree | block ]: Slurm's topology.conf of the
// fabric (lib/ib/slurm_topology_conf.h) on standard output.
#pragma once

#include "rdma/command.h"

namespace rdma {

// The words after `slurm`; src: the fabric's `from`/`via`, taken already.
void fabric_topology_slurm(Ctx& c, const FabricSource& src);

}  // namespace rdma
