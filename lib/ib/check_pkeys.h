// `rdma fabric check pkeys` (ibdiagnet's P_Key checks): each CA port's
// P_Key table, and against it the table of the switch port cabled to it
// where that port enforces partitions.
#pragma once

#include <vector>

#include "lib/ib/check.h"
#include "lib/ib/pkeys.h"

namespace rdma::ib {

// Findings (check "pkeys"), from the tables t holds:
// - a CA or router port without the default partition (0x7fff or 0xffff):
//   an error, it cannot reach the SA;
// - where its switch port enforces: a partition the CA port has and the
//   switch port has not (an error: the switch drops its packets); one the
//   switch port has and the CA port has not (a warning: a table left
//   behind); the CA a full member where the switch port says limited (an
//   error: packets of the partition's limited members to it are dropped),
//   a limited one where it says full (a warning: the switch lets through
//   what the CA drops);
// - a partition whose member ports are all limited (a warning: no two of
//   them can talk).
// The detail names the P_Key.
std::vector<Finding> check_pkeys(const Fabric& f, const PKeyTables& t);

}  // namespace rdma::ib
