// The vendor-class agents of the fake fabric (ibsim has none: its nodes
// leave ibping, ibsysstat and vendstat unanswered even with ibping -S
// running): a node's ibping and ibsysstat servers, when a test starts
// them, answer with its host name and CPU lines as the diags' servers do;
// a Mellanox node's vendor agent answers ClassPortInfo and GeneralInfo.
#include <algorithm>

#include "lib/mad/attrs.h"
#include "lib/mad/vendor.h"
#include "lib/testing/fabric/fabric.h"

namespace rdma::ibtest {

using mad::Mad;
namespace hdr = mad::hdr;

std::vector<Mad> FakeFabric::answer_vendor(const Mad& m, Hop at) {
  const FabricVendor& v = nodes_[at.node].vendor;
  if (m.get(hdr::kResponse)) return {};
  uint16_t attr = static_cast<uint16_t>(m.get(hdr::kAttrId));
  switch (m.mgmt_class()) {
    case mad::kClassOpenIbPing:
      if (!v.ping_server || !mad::is_vendor_request(m, m.mgmt_class(), mad::kOpenIbOui)) return {};
      return {mad::vendor_response(m, v.host)};
    case mad::kClassOpenIbSysstat:
      if (!v.sysstat_server || !mad::is_vendor_request(m, m.mgmt_class(), mad::kOpenIbOui))
        return {};
      if (attr == mad::kSysstatPing) return {mad::vendor_response(m, "")};
      if (attr == mad::kSysstatHost) return {mad::vendor_response(m, v.host)};
      if (attr == mad::kSysstatCpu) return {mad::vendor_response(m, v.cpus)};
      return {mad::vendor_response(m, "", mad::kStatusBadMethodAttr)};
    default: {
      if (!v.mellanox) return {};
      if (m.get(hdr::kMethod) != mad::kGet)
        return {mad::vendor_response(m, "", mad::kStatusBadMethod)};
      if (attr == mad::kClassPortInfo.id) {
        Mad r = mad::vendor_response(m, "");
        r.set_attr(mad::kClassPortInfo, "BaseVersion", 1);
        r.set_attr(mad::kClassPortInfo, "ClassVersion", 1);
        return {r};
      }
      if (attr != mad::kMellanoxGeneralInfo)
        return {mad::vendor_response(m, "", mad::kStatusBadMethodAttr)};
      Mad r = mad::vendor_response(m, "");
      mad::encode_general_info(v.general, mad::vendor_data(r));
      return {r};
    }
  }
}

}  // namespace rdma::ibtest
