// The bounds the IBA puts on numbers a user types: the unicast and
// multicast LID spaces (IBA 4.1.3), a directed route's hops (14.2.2), so
// the front end checks its words without naming a protocol constant.
#pragma once

#include <cstdint>

#include "lib/mad/mad.h"
#include "lib/mad/types.h"

namespace rdma::ib {

struct LidBounds {
  uint16_t first, last;
};

// Every unicast LID a table holds: 0 (no port's) to 0xbfff.
inline constexpr LidBounds unicast_lid_bounds() {
  return {0, mad::kMaxUnicastLid};
}

// The multicast LIDs: 0xc000 to 0xfffe (0xffff is the permissive LID).
inline constexpr LidBounds mcast_lid_bounds() {
  return {mad::kFirstMlid, mad::kLastMlid};
}

// The most hops a directed route takes.
inline constexpr unsigned max_dr_hops() {
  return static_cast<unsigned>(mad::kMaxHops);
}

}  // namespace rdma::ib
