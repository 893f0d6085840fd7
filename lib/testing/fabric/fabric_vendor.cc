// The vendor-class agents of the fake fabric (ibsim has none: its nodes
// leave ibping, ibsysstat and vendstat unanswered even with ibping -S
// running): a node's ibping and ibsysstat servers, when a test starts
// them, answer with its host name and CPU lines as the diags' servers do;
// a Mellanox node's vendor agent answers ClassPortInfo, GeneralInfo, the
// InfiniScale III config space and the InfiniScale IV counter groups.
#include <algorithm>

#include "lib/mad/attrs.h"
#include "lib/mad/vendor.h"
#include "lib/testing/fabric/fabric.h"

namespace rdma::ibtest {

using mad::Mad;
namespace hdr = mad::hdr;

std::vector<Mad> FakeFabric::answer_vendor(const Mad& m, Hop at) {
  FabricVendor& v = nodes_[at.node].vendor;
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
      uint8_t method = static_cast<uint8_t>(m.get(hdr::kMethod));
      bool set = method == mad::kSet;
      if (method != mad::kGet && !set) return {mad::vendor_response(m, "", mad::kStatusBadMethod)};
      auto port = static_cast<uint8_t>(m.get(hdr::kAttrMod));
      Mad r = mad::vendor_response(m, "");
      if (attr == mad::kClassPortInfo.id && !set) {
        r.set_attr(mad::kClassPortInfo, "BaseVersion", 1);
        r.set_attr(mad::kClassPortInfo, "ClassVersion", 1);
      } else if (attr == mad::kMellanoxGeneralInfo && !set) {
        mad::encode_general_info(v.general, mad::vendor_data(r));
      } else if (attr == mad::kMellanoxConfigSpace) {
        // Each record: a Set writes the mask's bits; the answer (to a Get
        // or a Set) carries the word and the request's mask.
        unsigned n = mad::config_space_records(static_cast<uint32_t>(m.get(hdr::kAttrMod)));
        std::vector<mad::ConfigRecord> recs = mad::decode_config_records(mad::vendor_data(m), n);
        for (mad::ConfigRecord& rec : recs) {
          uint32_t& word = v.config[rec.address];
          bool ro =
              std::find(v.read_only.begin(), v.read_only.end(), rec.address) != v.read_only.end();
          if (set && !ro) word = (word & ~rec.mask) | (rec.data & rec.mask);
          rec.data = word;
        }
        mad::encode_config_records(recs, mad::vendor_data(r));
      } else if (attr == mad::kMellanoxCounterGroupInfo && !set) {
        mad::encode_counter_group_info(v.counter_groups, mad::vendor_data(r));
      } else if (attr == mad::kMellanoxConfigCounterGroup) {
        if (set) v.group_selects[port] = mad::decode_counter_group_select(mad::vendor_data(m));
        mad::encode_counter_group_select(v.group_selects[port], mad::vendor_data(r));
      } else {
        return {mad::vendor_response(m, "", mad::kStatusBadMethodAttr)};
      }
      return {r};
    }
  }
}

}  // namespace rdma::ibtest
