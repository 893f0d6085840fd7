// `rdma fabric topology`: the fabric in ibnetdiscover's topology-file
// format, which ibsim, opensm's tools and infiniband-diags read.
#pragma once

#include <cstdio>

#include "lib/ib/fabric.h"

namespace rdma::ib {

void write_topology(const Fabric& f, std::FILE* out);

// ibnetdiscover's link rate word: "4xSDR", "4xEDR", "12xQDR"; the extended
// speeds as caps' masks vouch for them (lib/ib/records.h), all without.
std::string rate_text(const PortInfo& p, const PortInfo* caps = nullptr);

}  // namespace rdma::ib
