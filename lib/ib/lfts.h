// Every switch's linear forwarding table in one run (dump_fts): the blocks
// of all switches submitted together by directed route, so the engine's
// window keeps them in flight across switches.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lib/ib/fabric.h"
#include "lib/ib/route.h"
#include "lib/mad/engine.h"

namespace rdma::ib {

// The tables by node index, LIDs 0 to each switch's LinearFDBTop (from its
// SwitchInfo as discovery found it): nullopt for CAs and routers, and for a
// switch whose table could not be read, which adds a warning naming it.
std::vector<std::optional<Lft>> read_lfts(mad::Engine& e, const Fabric& f,
                                          std::vector<std::string>& warnings);

}  // namespace rdma::ib
