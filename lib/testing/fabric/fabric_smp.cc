// The subnet management agent of every node: what a real SMA answers to
// Get (and the few Sets the tool sends), with the statuses of IBA 13.4.7
// for what it does not support or ports it does not have.
#include <algorithm>
#include <cstring>
#include <string>
#include <unordered_map>

#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/mad/attrs_cc.h"
#include "lib/mad/attrs_ext.h"
#include "lib/mad/attrs_pma.h"
#include "lib/mad/bits.h"
#include "lib/mad/speed.h"
#include "lib/mad/vendor.h"
#include "lib/testing/fabric/fabric.h"

namespace rdma::ibtest {

using mad::Mad;
namespace hdr = mad::hdr;

namespace {

// LinearFDBCap: ibsim 0.10's (Debian 12) MAXLINEARCAP, 30720 (0.12 has 49152).
constexpr uint32_t kLftCap = 30720;
// MulticastFDBCap: ibsim's 1024 MLIDs.
constexpr uint32_t kMftCap = 1024;

// Mad::set_attr, with the field found once per name (a string literal):
// PortInfo has 50 fields, and the double answers millions of MADs.
void put(Mad& m, const mad::AttrDef& a, const char* name, uint64_t v) {
  static std::unordered_map<const char*, const mad::FieldDef*> cache;
  const mad::FieldDef*& f = cache[name];
  if (!f || f < a.fields.data() || f >= a.fields.data() + a.fields.size()) {
    f = mad::find_field(a, name);
    if (!f) throw Error(std::string("internal: ") + a.name + " has no field " + name);
  }
  mad::set_bits(m.data(), f->bit, f->width, v);
}

// The request turned into its GetResp, attribute zeroed.
Mad response(const Mad& m, uint8_t method) {
  Mad r = m;
  r.set(hdr::kResponse, 1);
  r.set(hdr::kMethod, method & 0x7f);
  if (m.mgmt_class() == mad::kClassSmiDr) {
    r.set(hdr::kDirection, 1);
    r.set(hdr::kHopPointer, 0);  // as it reaches the requester (14.2.2.4)
  }
  // SMP data is 64 bytes; a directed route's paths follow it.
  auto d = r.data();
  std::fill(d.begin(), d.begin() + 64, 0);
  return r;
}

void set_status(Mad& r, uint16_t status) {
  if (r.mgmt_class() == mad::kClassSmiDr)
    r.set(hdr::kDrStatus, status);
  else
    r.set(hdr::kStatus, status);
}

void put_node_info(std::span<uint8_t> d, const FabricNode& n, int port) {
  Mad tmp;  // fields through the table, into d
  tmp.bytes[1] = mad::kClassSmiLid;
  auto set = [&](const char* f, uint64_t v) { put(tmp, mad::kNodeInfo, f, v); };
  set("BaseVersion", 1);
  set("ClassVersion", 1);
  set("NodeType", static_cast<uint64_t>(n.type));
  set("NumPorts", n.num_ports());
  set("SystemImageGUID", n.sys_guid);
  set("NodeGUID", n.node_guid);
  set("PortGUID", n.ports[n.is_switch() ? 0 : port].guid);
  set("PartitionCap", n.partition_cap);
  set("DeviceID", n.device_id);
  set("Revision", 0xa1);
  set("LocalPortNum", port);
  set("VendorID", n.vendor_id);
  std::copy_n(tmp.data().begin(), mad::kNodeInfo.bytes, d.begin());
}

}  // namespace

// Shared with the SA: PortInfo of node n port p as its SMA reports it.
void put_port_info(std::span<uint8_t> d, const FabricNode& n, int p, int local_port) {
  Mad tmp;
  tmp.bytes[1] = mad::kClassSmiLid;
  const FabricPort& fp = n.ports[p];
  const FabricPort& base = n.ports[n.is_switch() ? 0 : p];
  bool sw_ext = n.is_switch() && p != 0;
  auto set = [&](const char* f, uint64_t v) { put(tmp, mad::kPortInfo, f, v); };
  set("GIDPrefix", sw_ext ? 0 : 0xfe80000000000000ull);
  set("LID", sw_ext ? 0 : base.lid);
  set("MasterSMLID", sw_ext ? 0 : base.sm_lid);
  // ibsim 0.10's port templates (captured from it: lib/testing/captured.h),
  // IsSM added on the SM's port.
  bool sm = !sw_ext && base.sm_lid && base.lid == base.sm_lid;
  uint32_t caps = (n.is_switch() ? 0x0000c048 : 0x0050c048) | (sm ? 2 : 0);
  if (!n.ext_speeds_cap) caps &= ~mad::kCapExtendedSpeeds;
  set("CapabilityMask", sw_ext ? 0 : caps);
  set("M_Key", sw_ext ? 0 : base.mkey);
  set("M_KeyLeasePeriod", sw_ext ? 0 : base.mkey_lease);
  set("M_KeyProtectBits", sw_ext ? 0 : base.mkey_protect);
  set("GUIDCap", sw_ext ? 0 : base.guid_cap);
  set("SubnetTimeOut", sw_ext ? 0 : 31);
  set("RespTimeValue", n.is_switch() && p == 0 ? 8 : 0);
  uint32_t caps2 = n.is_switch() ? 0 : 0x0030;
  if (n.ext_speeds2_cap) caps2 |= mad::kCap2ExtendedSpeeds2;
  if (n.rs_fec) caps2 |= mad::kPortCap2PortInfoExtended;
  set("CapabilityMask2", sw_ext ? 0 : caps2);
  set("VLStallCount", 7);
  set("LocalPortNum", local_port);
  if (n.is_switch() && p == 0) {  // port 0 has no physical link: ibsim's smaport values
    set("LinkWidthEnabled", kWidth4x);
    set("LinkWidthSupported", kWidth1x | kWidth4x);
    set("LinkWidthActive", kWidth4x);
    set("LinkSpeedSupported", kSpeedSdr);
    set("LinkSpeedActive", kSpeedSdr);
    set("LinkSpeedEnabled", kSpeedSdr);
  } else {
    set("LinkWidthEnabled", fp.width_enabled);
    set("LinkWidthSupported", fp.width_supported);
    set("LinkWidthActive", fp.width_active);
    set("LinkSpeedSupported", fp.speed_supported);
    set("LinkSpeedActive", fp.speed_active);
    set("LinkSpeedEnabled", fp.speed_enabled);
    set("LinkSpeedExtActive", fp.speed_ext_active);
    set("LinkSpeedExtSupported", fp.speed_ext_supported);
    set("LinkSpeedExtEnabled", fp.speed_ext_enabled);
    set("LinkSpeedExtActive2", fp.speed_ext2_active);
  }
  set("PortState", fp.state);
  set("PortPhysicalState", fp.phys);
  set("LinkDownDefaultState", 2);  // Polling
  set("LMC", sw_ext ? 0 : base.lmc);
  set("NeighborMTU", fp.neighbor_mtu);
  set("VLCap", 4);  // VL0-7
  set("MTUCap", 4);
  set("VLHighLimit", 0);
  set("VLArbitrationHighCap", fp.vlarb_high_cap);
  set("VLArbitrationLowCap", fp.vlarb_low_cap);
  set("OperationalVLs", fp.oper_vls ? fp.oper_vls : fp.state >= kInit ? 4 : 1);
  set("PartitionEnforcementInbound", fp.pkey_enforce);
  set("PartitionEnforcementOutbound", fp.pkey_enforce);
  std::copy_n(tmp.data().begin(), mad::kPortInfo.bytes, d.begin());
}

void put_switch_info(std::span<uint8_t> d, const FabricNode& n) {
  Mad tmp;
  tmp.bytes[1] = mad::kClassSmiLid;
  auto set = [&](const char* f, uint64_t v) { put(tmp, mad::kSwitchInfo, f, v); };
  set("LinearFDBCap", kLftCap);
  set("MulticastFDBCap", kMftCap);
  set("LinearFDBTop", n.lft.empty() ? 0 : n.lft.size() - 1);
  set("LifeTimeValue", 0);
  set("PartitionEnforcementCap", n.partition_enforcement_cap);
  set("EnhancedPort0", n.enhanced_port0);
  set("MulticastFDBTop", n.mcast_fdb_top);
  std::copy_n(tmp.data().begin(), mad::kSwitchInfo.bytes, d.begin());
}

void put_sm_info(std::span<uint8_t> d, uint64_t guid, uint32_t activity, uint8_t priority,
                 uint8_t state) {
  Mad tmp;
  tmp.bytes[1] = mad::kClassSmiLid;
  tmp.set_attr(mad::kSmInfo, "GUID", guid);
  tmp.set_attr(mad::kSmInfo, "ActCount", activity);
  tmp.set_attr(mad::kSmInfo, "Priority", priority);
  tmp.set_attr(mad::kSmInfo, "SMState", state);
  std::copy_n(tmp.data().begin(), mad::kSmInfo.bytes, d.begin());
}

std::vector<Mad> FakeFabric::answer(Mad& m, Hop at, bool directed) {
  switch (m.mgmt_class()) {
    case mad::kClassSmiLid:
    case mad::kClassSmiDr:
      return answer_smp(m, at, directed);
    case mad::kClassPerf:
      return answer_pma(m, at);
    case mad::kClassCc:
      return answer_cc(m, at);
    case mad::kClassOpenIbPing:
    case mad::kClassOpenIbSysstat:
    case mad::kClassMellanox:
      return answer_vendor(m, at);
    case mad::kClassSa:
      if (sm_lid_ && lid(at.node, at.port) == sm_lid_) return answer_sa(m);
      // No SA there: the kernel answers an unmatched request itself.
      {
        Mad r = response(m, mad::kGetResp | (m.get(hdr::kMethod) & 0x7f));
        set_status(r, mad::kStatusBadMethodAttr);
        return {r};
      }
    default:
      return {};  // no agent for the class: silence, as umad gives
  }
}

std::vector<Mad> FakeFabric::answer_smp(const Mad& m, Hop at, bool directed) {
  const FabricNode& n = nodes_[at.node];
  uint8_t method = static_cast<uint8_t>(m.get(hdr::kMethod));
  if (m.get(hdr::kResponse)) return {};  // a response is not a request
  Mad r = response(m, mad::kGetResp);
  if (m.get(hdr::kBaseVersion) != 1 || m.get(hdr::kClassVersion) != 1) {
    set_status(r, mad::kStatusBadVersion);
    return {r};
  }
  if (method != mad::kGet && method != mad::kSet) {
    set_status(r, mad::kStatusBadMethod);
    return {r};
  }
  uint16_t attr = static_cast<uint16_t>(m.get(hdr::kAttrId));
  uint32_t mod = static_cast<uint32_t>(m.get(hdr::kAttrMod));
  auto d = r.data();
  // A LID-routed SMP reaches a switch at port 0; a directed one at the port
  // it came in by, which NodeInfo and PortInfo report as LocalPortNum.
  int local = directed || !n.is_switch() ? at.port : 0;
  auto bad = [&](uint16_t s) {
    set_status(r, s);
    return std::vector<Mad>{r};
  };
  // M_Key protection on Gets (IBA 14.2.4.1, as Linux's SMAs apply it:
  // ipath, qib and hfi1 check the key before the attribute): a Get
  // without the port's key is dropped unanswered at ProtectBits 2 and 3,
  // NodeInfo included, and answered at 1 with PortInfo's M_Key zeroed.
  const FabricPort& keyed_at = n.ports[n.is_switch() ? 0 : at.port];
  const bool key_ok = !keyed_at.mkey || m.get(hdr::kMKey) == keyed_at.mkey;
  if (method == mad::kGet && !key_ok && keyed_at.mkey_protect >= 2) return {};
  // Sets (fabric_sma_set.cc): applied first, then answered as a Get.
  if (method == mad::kSet) {
    std::optional<uint16_t> status = sma_set(m, at);
    if (!status) return {};
    if (*status) return bad(*status);
  }
  switch (attr) {
    case 0x0010: {  // NodeDescription
      size_t len = std::min<size_t>(n.description.size(), 64);
      std::memcpy(d.data(), n.description.data(), len);
      return {r};
    }
    case 0x0011:  // NodeInfo
      put_node_info(d, n, local);
      return {r};
    case 0x0012:  // SwitchInfo
      if (!n.is_switch()) return bad(mad::kStatusBadMethodAttr);
      put_switch_info(d, n);
      return {r};
    case 0x0015: {  // PortInfo
      int p = static_cast<int>(mod & 0xff);
      if ((mod & 0x7fffff00) != 0 || p > n.num_ports()) return bad(mad::kStatusBadField);
      if (!n.is_switch() && p == 0) p = at.port;  // CAs: 0 is the port asked through
      put_port_info(d, n, p, local);
      if (!key_ok && keyed_at.mkey_protect == 1) r.set_attr(mad::kPortInfo, "M_Key", 0);
      return {r};
    }
    case 0x0033: {  // PortInfoExtended: where port_info_ext, or RS-FEC where rs_fec
      int p = static_cast<int>(mod);
      if (p > n.num_ports()) return bad(mad::kStatusBadField);
      if (!n.is_switch() && p == 0) p = at.port;
      FabricPort& fp = nodes_[at.node].ports[p];
      if (!fp.port_info_ext && !n.rs_fec) return bad(mad::kStatusBadMethodAttr);
      static const char* const kEnabled[] = {"FDRFECModeEnabled", "EDRFECModeEnabled",
                                             "HDRFECModeEnabled", "NDRFECModeEnabled"};
      static const char* const kSupported[] = {"FDRFECModeSupported", "EDRFECModeSupported",
                                               "HDRFECModeSupported", "NDRFECModeSupported"};
      if (method == mad::kSet)
        for (size_t g = 0; g < 4; ++g)
          fp.fec_enabled[g] =
              static_cast<uint16_t>(m.get_attr(mad::kPortInfoExtended, kEnabled[g]));
      put(r, mad::kPortInfoExtended, "CapabilityMask", mad::kPortInfoExtCapFecMode);
      put(r, mad::kPortInfoExtended, "FECModeActive", n.rs_fec ? mad::kFecModeRs : fp.fec_active);
      for (size_t g = 0; g < 4; ++g) {
        put(r, mad::kPortInfoExtended, kSupported[g], fp.fec_supported[g]);
        put(r, mad::kPortInfoExtended, kEnabled[g], fp.fec_enabled[g]);
      }
      return {r};
    }
    case 0xff90: {  // MlnxExtPortInfo, as ibsim's do_extportinfo
      int p = static_cast<int>(mod);
      if (p > n.num_ports()) return bad(mad::kStatusBadField);
      if (!n.is_switch() && p == 0) p = at.port;
      FabricPort& fp = nodes_[at.node].ports[p];
      if ((fp.mlnx_speed_active || fp.mlnx_speeds_always) &&
          !fp.speed_ext_active) {  // ibsim's update_portinfo
        mad::set_field(mad::kMlnxExtPortInfo, d, "LinkSpeedSupported", fp.mlnx_speed_enabled);
        mad::set_field(mad::kMlnxExtPortInfo, d, "LinkSpeedEnabled", fp.mlnx_speed_enabled);
        mad::set_field(mad::kMlnxExtPortInfo, d, "LinkSpeedActive", fp.mlnx_speed_active);
      }
      return {r};
    }
    case 0x0014: {  // GUIDInfo: blocks of 8 up to GUIDCap; entry 0 is the port GUID
      const FabricPort& fp = n.ports[n.is_switch() ? 0 : at.port];
      if (mod * 8 >= fp.guid_cap) return bad(mad::kStatusBadField);
      for (uint32_t i = 0; i < 8; ++i) {
        uint32_t e = mod * 8 + i;
        uint64_t g = e == 0 ? fp.guid : e - 1 < fp.alias_guids.size() ? fp.alias_guids[e - 1] : 0;
        mad::set_bits(d, i * 64, 64, g);
      }
      return {r};
    }
    case 0x0016: {  // P_KeyTable: port << 16 (switches) | block of 32
      int p = n.is_switch() ? static_cast<int>(mod >> 16) : at.port;
      uint32_t block = mod & 0xffff;
      if (p > n.num_ports()) return bad(mad::kStatusBadField);
      uint32_t cap = n.is_switch() && p != 0 ? n.partition_enforcement_cap : n.partition_cap;
      if (block * 32 >= cap) return bad(mad::kStatusBadField);
      const std::vector<uint16_t>& keys = n.ports[p].pkeys;
      for (uint32_t i = 0; i < 32 && block * 32 + i < keys.size(); ++i)
        mad::set_bits(d, i * 16, 16, keys[block * 32 + i]);
      return {r};
    }
    case 0x0017: {  // SLtoVLMappingTable: input port << 8 | output port (switches)
      uint16_t key = 0;
      if (n.is_switch()) {
        int in = static_cast<int>((mod >> 8) & 0xff), out = static_cast<int>(mod & 0xff);
        if ((mod >> 16) != 0 || in > n.num_ports() || out > n.num_ports())
          return bad(mad::kStatusBadField);
        key = static_cast<uint16_t>(mod & 0xffff);
      }
      auto it = n.sl2vl.find(key);
      if (it != n.sl2vl.end())
        for (unsigned sl = 0; sl < 16; ++sl) mad::set_bits(d, sl * 4, 4, it->second[sl]);
      return {r};
    }
    case 0x0018: {  // VLArbitrationTable: block (1-2 low, 3-4 high) << 16 | port
      uint32_t block = mod >> 16;
      int p = n.is_switch() ? static_cast<int>(mod & 0xff) : at.port;
      if (block < 1 || block > 4 || p > n.num_ports() ||
          (n.is_switch() && p == 0 && !n.enhanced_port0))
        return bad(mad::kStatusBadField);
      const FabricPort& fp = n.ports[p];
      bool high = block >= 3;
      uint32_t first = (block - 1) % 2 * 32;
      if (first >= (high ? fp.vlarb_high_cap : fp.vlarb_low_cap)) return bad(mad::kStatusBadField);
      const std::vector<FabricPort::VlArb>& t = high ? fp.vlarb_high : fp.vlarb_low;
      for (uint32_t i = 0; i < 32 && first + i < t.size(); ++i) {
        mad::set_bits(d, i * 16 + 4, 4, t[first + i].vl);
        mad::set_bits(d, i * 16 + 8, 8, t[first + i].weight);
      }
      return {r};
    }
    case 0x0019: {  // LinearForwardingTable
      if (!n.is_switch()) return bad(mad::kStatusBadMethodAttr);
      if (mod >= kLftCap / 64) return bad(mad::kStatusBadField);
      for (size_t i = 0; i < 64; ++i) {
        size_t lid = mod * 64 + i;
        d[i] = lid < n.lft.size() ? n.lft[lid] : 0xff;
      }
      return {r};
    }
    case 0x001b: {  // MulticastForwardingTable: position << 28 | block of 32 MLIDs
      if (!n.is_switch()) return bad(mad::kStatusBadMethodAttr);
      uint32_t block = mod & 0x1ff, position = mod >> 28;
      if (block >= kMftCap / 32 || position * 16 > static_cast<uint32_t>(n.num_ports()) ||
          (mod & 0x0ffffe00))
        return bad(mad::kStatusBadField);
      for (uint32_t i = 0; i < 32; ++i) {
        auto it = n.mft.find(static_cast<uint16_t>(0xc000 + block * 32 + i));
        if (it != n.mft.end() && position < 4)  // the model keeps ports 0-63
          mad::set_bits(d, i * 16, 16, (it->second >> (position * 16)) & 0xffff);
      }
      return {r};
    }
    case 0x0020: {  // SMInfo: only the SM's port has an SM behind it
      const FabricPort& fp = n.ports[at.port];
      if (!sm_lid_ || at.node != attach_node_ || fp.lid != sm_lid_)
        return bad(mad::kStatusBadMethodAttr);
      put_sm_info(d, fp.guid, method == mad::kSet ? sm_activity_ : ++sm_activity_, sm_.priority,
                  sm_.state);
      return {r};
    }
    default:
      return bad(mad::kStatusBadMethodAttr);
  }
}

}  // namespace rdma::ibtest
