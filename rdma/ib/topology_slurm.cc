#include "rdma/ib/topology_slurm.h"

#include "lib/error.h"
#include "lib/ib/slurm_topology_conf.h"
#include "rdma/ib/fabric_source.h"

namespace rdma {

void fabric_topology_slurm(Ctx& c, const FabricSource& src) {
  ib::SlurmFormat format = ib::SlurmFormat::Tree;
  if (!c.args.empty()) {
    std::string k = c.args.next();
    if (matches(k, "block"))
      format = ib::SlurmFormat::Block;
    else if (!matches(k, "tree"))
      throw UsageError(unknown_word("Slurm topology", k, {"tree", "block"}));
  }
  c.args.done();
  if (c.out.is_json()) throw UsageError("fabric topology slurm is Slurm's topology.conf; no JSON");
  ib::Fabric f = fabric_of(c, src, nullptr, fabric_options(c));
  std::fflush(c.help_out);
  ib::write_slurm_topology(f, format, c.help_out);
}

}  // namespace rdma
