// Typed views of the SMP attributes the fabric code reasons about:
// NodeInfo, PortInfo and SwitchInfo as plain structs. They are read through
// the attribute tables of lib/mad (one description of where a field lives),
// so a view and `rdma mad get` never disagree.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "lib/ib/types.h"

namespace rdma::ib {

struct NodeInfo {
  uint8_t base_version = 0;
  uint8_t class_version = 0;
  uint8_t node_type = 0;  // NodeType
  uint8_t num_ports = 0;
  uint64_t sys_image_guid = 0;
  uint64_t node_guid = 0;
  uint64_t port_guid = 0;
  uint16_t partition_cap = 0;
  uint16_t device_id = 0;
  uint32_t revision = 0;
  uint8_t local_port = 0;  // the port the SMP arrived on
  uint32_t vendor_id = 0;

  bool is_switch() const { return node_type == static_cast<uint8_t>(NodeType::Switch); }
  // Throws Error when attr is shorter than NodeInfo.
  static NodeInfo from(std::span<const uint8_t> attr);
};

struct PortInfo {
  uint64_t gid_prefix = 0;
  uint16_t lid = 0;
  uint16_t sm_lid = 0;
  uint32_t caps = 0;
  uint16_t caps2 = 0;  // CapabilityMask2 (here, not in field order: Port packs in 72 bytes)
  uint8_t local_port = 0;
  uint8_t width_enabled = 0;
  uint8_t width_supported = 0;
  uint8_t width_active = 0;
  uint8_t speed_supported = 0;
  uint8_t state = 0;       // PortState
  uint8_t phys_state = 0;  // PhysState
  uint8_t lmc = 0;
  uint8_t speed_active = 0;
  uint8_t speed_enabled = 0;
  uint8_t mtu = 0;  // NeighborMTU
  uint8_t mtu_cap = 0;
  uint8_t speed_ext_active = 0;
  uint8_t speed_ext_supported = 0;
  uint8_t speed_ext_enabled = 0;
  uint8_t speed_ext2_active = 0;  // LinkSpeedExtActive2 (XDR)
  // Not PortInfo's: the vendor's MlnxExtPortInfo LinkSpeedActive (bit 0
  // FDR10), where discovery asks it (lib/ib/fdr10.h); 0 elsewhere.
  uint8_t mlnx_speed_active = 0;
  // MlnxExtPortInfo's LinkSpeedSupported, where discovery asks it.
  uint8_t mlnx_speed_supported = 0;
  uint8_t vl_cap = 0;    // VLCap: 1 VL0, 2 VL0-1, 3 VL0-3, 4 VL0-7, 5 VL0-14
  uint8_t oper_vls = 0;  // OperationalVLs, in VLCap's codes (0: not set, or a file without it)
  // PartitionEnforcementInbound/Outbound: a switch's external port checks
  // packets' P_Keys against its own table (0 in a file saved before them).
  uint8_t pkey_enforce_in = 0;
  uint8_t pkey_enforce_out = 0;
  // HOQLife and VLStallCount, the switch port's settings iblinkinfo -p
  // shows (unknown in a fabric file saved before them).
  std::optional<uint8_t> hoq_life;
  std::optional<uint8_t> vl_stall_count;

  // The link trained: a neighbour answers behind it (state INIT or more).
  bool link_up() const { return state >= kPortInit; }
  static PortInfo from(std::span<const uint8_t> attr);
};

struct SwitchInfo {
  uint16_t linear_fdb_cap = 0;
  uint16_t mcast_fdb_cap = 0;
  uint16_t linear_fdb_top = 0;
  uint16_t partition_enforcement_cap = 0;
  bool enhanced_port0 = false;
  // MulticastFDBTop (0: not kept, the whole MulticastFDBCap holds MLIDs);
  // nullopt: not known, in a fabric file saved before it.
  std::optional<uint16_t> mcast_fdb_top;
  static SwitchInfo from(std::span<const uint8_t> attr);
};

// The members of each view with the IBA field each is read from, listed
// once: decoding (smp.cc) and the fabric cache file (cache.cc) walk them.
// A name "Attribute.Field" is another attribute's field, which decoding
// leaves alone. The cache's columns follow this order: a member added
// goes last (cache.cc reads files saved before it).
template <typename S, typename F>
void node_info_fields(S& v, F&& f) {
  f("BaseVersion", v.base_version);
  f("ClassVersion", v.class_version);
  f("NodeType", v.node_type);
  f("NumPorts", v.num_ports);
  f("SystemImageGUID", v.sys_image_guid);
  f("NodeGUID", v.node_guid);
  f("PortGUID", v.port_guid);
  f("PartitionCap", v.partition_cap);
  f("DeviceID", v.device_id);
  f("Revision", v.revision);
  f("LocalPortNum", v.local_port);
  f("VendorID", v.vendor_id);
}

template <typename S, typename F>
void port_info_fields(S& v, F&& f) {
  f("GIDPrefix", v.gid_prefix);
  f("LID", v.lid);
  f("MasterSMLID", v.sm_lid);
  f("CapabilityMask", v.caps);
  f("LocalPortNum", v.local_port);
  f("LinkWidthEnabled", v.width_enabled);
  f("LinkWidthSupported", v.width_supported);
  f("LinkWidthActive", v.width_active);
  f("LinkSpeedSupported", v.speed_supported);
  f("PortState", v.state);
  f("PortPhysicalState", v.phys_state);
  f("LMC", v.lmc);
  f("LinkSpeedActive", v.speed_active);
  f("LinkSpeedEnabled", v.speed_enabled);
  f("NeighborMTU", v.mtu);
  f("MTUCap", v.mtu_cap);
  f("LinkSpeedExtActive", v.speed_ext_active);
  f("LinkSpeedExtSupported", v.speed_ext_supported);
  f("LinkSpeedExtEnabled", v.speed_ext_enabled);
  f("LinkSpeedExtActive2", v.speed_ext2_active);
  f("MlnxExtPortInfo.LinkSpeedActive", v.mlnx_speed_active);
  f("CapabilityMask2", v.caps2);
  f("MlnxExtPortInfo.LinkSpeedSupported", v.mlnx_speed_supported);
  f("VLCap", v.vl_cap);
  f("OperationalVLs", v.oper_vls);
  f("PartitionEnforcementInbound", v.pkey_enforce_in);
  f("PartitionEnforcementOutbound", v.pkey_enforce_out);
  f("HOQLife", v.hoq_life);
  f("VLStallCount", v.vl_stall_count);
}

template <typename S, typename F>
void switch_info_fields(S& v, F&& f) {
  f("LinearFDBCap", v.linear_fdb_cap);
  f("MulticastFDBCap", v.mcast_fdb_cap);
  f("LinearFDBTop", v.linear_fdb_top);
  f("PartitionEnforcementCap", v.partition_enforcement_cap);
  f("EnhancedPort0", v.enhanced_port0);
  f("MulticastFDBTop", v.mcast_fdb_top);
}

}  // namespace rdma::ib
