// The congestion control agent of every node (IBA annex A10): ClassPortInfo,
// CongestionInfo, CongestionKeyInfo, CongestionLog (empty), the switch
// settings on switches and the CA settings and table on CAs, stored as
// written; Timestamp. A MAD with the wrong CC_Key is dropped. ibsim answers
// this class wrongly, so the tests of `rdma cc` run here.
#include <algorithm>

#include "lib/mad/attrs.h"
#include "lib/mad/attrs_cc.h"
#include "lib/testing/fabric/fabric.h"

namespace rdma::ibtest {

using mad::Mad;
namespace hdr = mad::hdr;

namespace {

// CongestionControlTable blocks a CA has (CongestionInfo ControlTableCap).
constexpr uint8_t kCaTableCap = 2;

}  // namespace

std::vector<Mad> FakeFabric::answer_cc(const Mad& m, Hop at) {
  FabricNode& n = nodes_[at.node];
  FabricCc& cc = n.cc;
  if (m.get(hdr::kResponse) || !cc.agent) return {};
  if (cc.key && m.get(hdr::kCcKey) != cc.key) {
    ++cc.key_violations;
    return {};  // silence, as for a wrong M_Key
  }
  Mad r = m;
  r.set(hdr::kResponse, 1);
  r.set(hdr::kMethod, mad::kGet);
  std::fill(r.bytes.begin() + 32, r.bytes.end(), 0);
  auto fail = [&](uint16_t s) {
    r.set(hdr::kStatus, s);
    return std::vector<Mad>{r};
  };
  if (m.get(hdr::kBaseVersion) != 1 || m.get(hdr::kClassVersion) != mad::kClassCcVersion)
    return fail(mad::kStatusBadVersion);
  uint8_t method = static_cast<uint8_t>(m.get(hdr::kMethod));
  if (method != mad::kGet && method != mad::kSet) return fail(mad::kStatusBadMethod);
  uint16_t attr = static_cast<uint16_t>(m.get(hdr::kAttrId));
  uint32_t mod = static_cast<uint32_t>(m.get(hdr::kAttrMod));
  bool set = method == mad::kSet;
  auto d = std::span(r.bytes).subspan(mad::cc_data_offset(attr));
  auto in = std::span(m.bytes).subspan(mad::cc_data_offset(attr));
  switch (attr) {
    case 0x0001:  // ClassPortInfo
      if (set) return fail(mad::kStatusBadMethodAttr);
      mad::set_field(mad::kClassPortInfo, d, "BaseVersion", 1);
      mad::set_field(mad::kClassPortInfo, d, "ClassVersion", mad::kClassCcVersion);
      return {r};
    case 0x0011:  // CongestionInfo
      if (set) return fail(mad::kStatusBadMethodAttr);
      mad::set_field(mad::kCongestionInfo, d, "ControlTableCap", n.is_switch() ? 0 : kCaTableCap);
      return {r};
    case 0x0012:  // CongestionKeyInfo
      if (set) {
        cc.key = mad::get_field(mad::kCongestionKeyInfo, in, "CC_Key");
        cc.key_protect =
            static_cast<uint8_t>(mad::get_field(mad::kCongestionKeyInfo, in, "CC_KeyProtectBit"));
        cc.key_lease =
            static_cast<uint16_t>(mad::get_field(mad::kCongestionKeyInfo, in, "CC_KeyLeasePeriod"));
      }
      mad::set_field(mad::kCongestionKeyInfo, d, "CC_Key", cc.key);
      mad::set_field(mad::kCongestionKeyInfo, d, "CC_KeyProtectBit", cc.key_protect);
      mad::set_field(mad::kCongestionKeyInfo, d, "CC_KeyLeasePeriod", cc.key_lease);
      mad::set_field(mad::kCongestionKeyInfo, d, "CC_KeyViolations", cc.key_violations);
      return {r};
    case 0x0013:  // CongestionLog: no events
      if (set) return fail(mad::kStatusBadMethodAttr);
      mad::set_field(mad::kCongestionLogSwitch, d, "LogType", n.is_switch() ? 1 : 2);
      return {r};
    case 0x0014:    // SwitchCongestionSetting
    case 0x0015:    // SwitchPortCongestionSetting: 48 ports a block
    case 0x0016:    // CACongestionSetting
    case 0x0017: {  // CongestionControlTable
      bool for_switch = attr <= 0x0015;
      if (for_switch != n.is_switch()) return fail(mad::kStatusBadMethodAttr);
      if ((attr == 0x0015 && mod > static_cast<uint32_t>(n.num_ports()) / 48) ||
          (attr == 0x0017 && mod >= kCaTableCap) || ((attr == 0x0014 || attr == 0x0016) && mod))
        return fail(mad::kStatusBadField);
      std::array<uint8_t, 192>& stored = cc.settings[uint32_t{attr} << 16 | mod];
      if (set) std::copy_n(in.begin(), stored.size(), stored.begin());
      std::copy(stored.begin(), stored.end(), d.begin());
      return {r};
    }
    case 0x0018:  // Timestamp
      if (set) return fail(mad::kStatusBadMethodAttr);
      mad::set_field(mad::kTimestamp, d, "Timestamp", ++cc.timestamp);
      return {r};
    default:
      return fail(mad::kStatusBadMethodAttr);
  }
}

}  // namespace rdma::ibtest
