// The SMA's Sets: PortInfo (what ibportstate and `rdma port set` change),
// the vendor's MlnxExtPortInfo (FDR10 enabled) and SMInfo (sminfo's set
// forms). Every field is checked before anything changes, as an SMA that
// answers a bad field with status 0x1c leaves the port as it was.
#include <string>

#include "lib/mad/attrs.h"
#include "lib/mad/attrs_ext.h"
#include "lib/testing/fabric/fabric.h"

namespace rdma::ibtest {

using mad::Mad;

namespace {

constexpr uint8_t kVlCap = 4, kMtuCap = 4;  // what put_port_info reports

}  // namespace

// PortState Down (IBA 14.2.5.6): the link goes down and trains again, both
// ends coming back in INIT, at the widths and speeds enabled now.
void FakeFabric::retrain(int n, int p) {
  FabricPort& x = nodes_[n].ports[p];
  if (x.peer_node < 0) return;
  int peer = x.peer_node, peer_port = x.peer_port;
  link_down(n, p);
  link_up(n, p, peer, peer_port);
  x.state = kInit;
  nodes_[peer].ports[peer_port].state = kInit;
}

std::optional<uint16_t> FakeFabric::sma_set(const Mad& m, Hop at) {
  FabricNode& n = nodes_[at.node];
  const FabricPort& base = n.ports[n.is_switch() ? 0 : at.port];
  if (base.mkey && m.get(mad::hdr::kMKey) != base.mkey) return std::nullopt;
  uint16_t attr = static_cast<uint16_t>(m.get(mad::hdr::kAttrId));
  uint32_t mod = static_cast<uint32_t>(m.get(mad::hdr::kAttrMod));
  if (attr == mad::kPortInfo.id) {
    int p = static_cast<int>(mod & 0xff);
    if ((mod & 0x7fffff00) != 0 || p > n.num_ports()) return mad::kStatusBadField;
    if (!n.is_switch() && p == 0) p = at.port;
    // A CA's SMA sets only the port the SMP arrived by (ibsim's rule too).
    if (!n.is_switch() && p != at.port) return mad::kStatusBadField;
    return set_port_info(m, at.node, p);
  }
  if (attr == mad::kMlnxExtPortInfo.id) {
    int p = static_cast<int>(mod);
    if (p > n.num_ports()) return mad::kStatusBadField;
    if (!n.is_switch() && p == 0) p = at.port;
    n.ports[p].mlnx_speed_enabled =
        static_cast<uint8_t>(mad::get_field(mad::kMlnxExtPortInfo, m.data(), "LinkSpeedEnabled"));
    return 0;
  }
  // PortInfoExtended's FEC enables: applied where the Get answer is built
  // (fabric_smp.cc), which checks the port.
  if (attr == mad::kPortInfoExtended.id) return 0;
  if (attr == mad::kSmInfo.id) {
    if (!sm_lid_ || at.node != attach_node_ || n.ports[at.port].lid != sm_lid_)
      return mad::kStatusBadMethodAttr;
    if (mod > 5) return mad::kStatusBadField;  // 1-5: HANDOVER .. DISCOVER (IBA 14.4.1)
    sm_.priority = static_cast<uint8_t>(m.get_attr(mad::kSmInfo, "Priority"));
    sm_.state = static_cast<uint8_t>(m.get_attr(mad::kSmInfo, "SMState"));
    sm_activity_ = static_cast<uint32_t>(m.get_attr(mad::kSmInfo, "ActCount"));
    return 0;
  }
  return mad::kStatusBadMethodAttr;
}

uint16_t FakeFabric::set_port_info(const Mad& m, int node, int p) {
  FabricNode& n = nodes_[node];
  FabricPort& fp = n.ports[p];
  FabricPort& base = n.ports[n.is_switch() ? 0 : p];
  bool sw_ext = n.is_switch() && p != 0;
  auto get = [&](const char* f) { return m.get_attr(mad::kPortInfo, f); };
  uint64_t state = get("PortState"), phys = get("PortPhysicalState");
  uint64_t vls = get("OperationalVLs"), mtu = get("NeighborMTU");
  uint64_t lid = get("LID"), lmc = get("LMC");
  // Checks first: a refused Set changes nothing.
  if (vls > kVlCap || mtu > kMtuCap) return mad::kStatusBadField;
  if (phys != 0 && phys != kPolling && phys != kDisabled) return mad::kStatusBadField;
  if (state == kInit || state > kActive) return mad::kStatusBadField;
  if (state == kArmed && fp.state != kInit && fp.state != kArmed) return mad::kStatusBadField;
  // Active from Armed, and only when the other end is Armed or Active too.
  if (state == kActive && (fp.state < kArmed || fp.peer_node < 0 ||
                           nodes_[fp.peer_node].ports[fp.peer_port].state < kArmed))
    return mad::kStatusBadField;
  if (!sw_ext && lid >= 0xc000) return mad::kStatusBadField;
  // Then the change.
  if (!sw_ext) {
    if (lid != base.lid) {
      if (base.lid < lids_.size() && lids_[base.lid].node == node) lids_[base.lid] = Hop{};
      if (lid) {
        if (lid >= lids_.size()) lids_.resize(lid + 1);
        lids_[lid] = Hop{node, n.is_switch() ? 0 : p};
      }
      base.lid = static_cast<uint16_t>(lid);
    }
    base.sm_lid = static_cast<uint16_t>(get("MasterSMLID"));
    base.lmc = static_cast<uint8_t>(lmc);
    base.mkey = get("M_Key");
    base.mkey_lease = static_cast<uint16_t>(get("M_KeyLeasePeriod"));
    base.mkey_protect = static_cast<uint8_t>(get("M_KeyProtectBits"));
  }
  if (uint64_t w = get("LinkWidthEnabled"))
    fp.width_enabled = static_cast<uint8_t>(w == 255 ? fp.width_supported : w);
  if (uint64_t s = get("LinkSpeedEnabled"))
    fp.speed_enabled = static_cast<uint8_t>(s == 15 ? fp.speed_supported : s);
  if (uint64_t e = get("LinkSpeedExtEnabled"); e && (m.get(mad::hdr::kAttrMod) >> 31))
    fp.speed_ext_enabled = static_cast<uint8_t>(e == 31 ? fp.speed_ext_supported : e == 30 ? 0 : e);
  if (vls) fp.oper_vls = static_cast<uint8_t>(vls);
  if (mtu) fp.neighbor_mtu = static_cast<uint8_t>(mtu);
  if (phys == kDisabled) set_port_disabled(node, p, true);
  if (phys == kPolling) set_port_disabled(node, p, false);
  if (state == kDown) retrain(node, p);
  if (state == kArmed || state == kActive) fp.state = static_cast<uint8_t>(state);
  return 0;
}

}  // namespace rdma::ibtest
