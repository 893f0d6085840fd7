// `rdma fabric check fattree` (ibdiagnet --ft and -r's hop histogram):
// the fabric judged as a fat tree.
#pragma once

#include <vector>

#include "lib/ib/check.h"

namespace rdma::ib {

// Switch levels from the CAs up: leaves are the switches with at least
// half as many CA ports as switch ports, the roots the switches farthest
// from them, ranks count down from the roots, and the leaf level is the
// rank most of the leaves' CAs hang on. Findings (check "fattree"): a CA cabled to a switch off the
// leaf level (error); a link between two switches of one level (down-down)
// or one that skips a level (error); per level, the switches' down and up
// port counts and the oversubscription (down:up, a note), a switch whose
// up count is below its level's most common one (a warning: an uplink
// missing); and, with lfts, a note with the histogram of CA pairs by the
// switches on their route (lfts empty: not read).
std::vector<Finding> check_fattree(const Fabric& f, const Lfts& lfts);

// Hops over switch-to-switch links from the nearest switch of start, by
// node index; -1 for CAs, routers and switches start does not reach.
std::vector<int> switch_distances(const Fabric& f, const std::vector<uint32_t>& start);

}  // namespace rdma::ib
