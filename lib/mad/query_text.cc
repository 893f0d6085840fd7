#include "lib/mad/query_text.h"

#include <algorithm>

#include "lib/mad/attrs.h"
#include "lib/mad/target.h"

namespace rdma::mad {

std::string query_text(const Mad& m, const Address& to) {
  Route r{m.mgmt_class() == kClassSmiDr, to.lid, {}};
  if (r.directed) {
    if (to.lid == kPermissiveLid) r.lid = 0;
    size_t hops = std::min<size_t>(m.get(hdr::kHopCount), kMaxHops);
    for (size_t i = 1; i <= hops; ++i)
      r.path.push_back(static_cast<uint8_t>(get_bits(m.bytes, hdr::kInitialPath.bit + i * 8, 8)));
  }
  auto mod = static_cast<uint32_t>(m.get(hdr::kAttrMod));
  return attr_name(m.mgmt_class(), static_cast<uint16_t>(m.get(hdr::kAttrId))) +
         (mod ? " port " + std::to_string(mod) : "") + " from " + route_text(r);
}

}  // namespace rdma::mad
