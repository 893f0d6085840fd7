// Combined routes (IBA 14.2.2): LID-routed from the requester to a start
// node, directed from there. A Route says so by being directed and having
// a LID: Route{true, 4, {1}} is "lid 4 dr 0,1", port 1 of the node at LID
// 4. The reply's LID-routed part returns to DrSLID, the requester's own
// LID, which only the caller knows: make_smp refuses such a route, and
// make_smp_from takes that LID.
#pragma once

#include <cstdint>

#include "lib/mad/mad.h"

namespace rdma::mad {

inline bool is_combined(const Route& r) {
  return r.directed && r.lid != 0;
}

// make_smp for any route; a combined one leaves LID-routed to r.lid and
// carries requester_lid as DrSLID. Throws Error for a combined route when
// requester_lid is 0 (the local port has no LID to be answered at).
Mad make_smp_from(uint16_t requester_lid, const Route& r, uint8_t method, const AttrDef& a,
                  uint32_t mod);

}  // namespace rdma::mad
