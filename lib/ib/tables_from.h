// A switch's forwarding tables read through any route, a target's combined
// one ("dr lid L PATH", lib/mad/combined_route.h) included: as read_lft
// and read_mft (lib/ib/unicast_route.h), each SMP built by make_smp_from
// with requester_lid, the local port's LID, where the replies' LID-routed
// part returns. requester_lid 0: a combined route is an Error.
#pragma once

#include <cstdint>

#include "lib/ib/unicast_route.h"

namespace rdma::ib {

Lft read_lft_from(uint16_t requester_lid, mad::Engine& e, const mad::Route& r, uint16_t lo,
                  uint16_t hi);
Mft read_mft_from(uint16_t requester_lid, mad::Engine& e, const mad::Route& r, uint16_t lo,
                  uint16_t hi);

}  // namespace rdma::ib
