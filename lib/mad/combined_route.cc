#include "lib/mad/combined_route.h"

#include <string>

#include "lib/error.h"

namespace rdma::mad {

Mad make_smp_from(uint16_t requester_lid, const Route& r, uint8_t method, const AttrDef& a,
                  uint32_t mod) {
  if (!is_combined(r)) return make_smp(r, method, a, mod);
  if (requester_lid == 0 || requester_lid >= kPermissiveLid)
    throw Error("a combined route (LID " + std::to_string(r.lid) +
                ", then directed) needs the local port's LID, and it has none");
  // The directed part is encoded as from the local port; the LID-routed
  // start is the address's DLID (smp_address) and DrSLID here, with the
  // hop pointer at 0 (14.2.2.1: the start node's SMI begins the path).
  Mad m = make_smp({true, 0, r.path}, method, a, mod);
  m.set(hdr::kDrSlid, requester_lid);
  return m;
}

}  // namespace rdma::mad
