#include "lib/mad/query_text.h"

#include "lib/mad/attrs.h"
#include "lib/mad/target.h"

namespace rdma::mad {

std::string query_text(const Mad& m, const Address& to) {
  std::span<const uint8_t> path = m.dr_path();
  Route r{m.mgmt_class() == kClassSmiDr, to.lid, {path.begin(), path.end()}};
  if (r.directed && to.lid == kPermissiveLid) r.lid = 0;
  auto mod = static_cast<uint32_t>(m.get(hdr::kAttrMod));
  return attr_name(m.mgmt_class(), static_cast<uint16_t>(m.get(hdr::kAttrId))) +
         (mod ? " port " + std::to_string(mod) : "") + " from " + route_text(r);
}

}  // namespace rdma::mad
