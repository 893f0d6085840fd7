// SMP attributes (IBA vol 1, chapter 14.2.5). Offsets are the spec's, in
// bits from the start of the attribute.
#include "lib/mad/attrs.h"
#include "lib/mad/attrs_ext.h"

namespace rdma::mad {

namespace {

constexpr FieldDef kNodeDescriptionFields[] = {
    {"NodeString", "description", 0, 512, Fmt::Desc},
};

constexpr FieldDef kNodeInfoFields[] = {
    {"BaseVersion", "base_version", 0, 8, Fmt::Uint, kDetail},
    {"ClassVersion", "class_version", 8, 8, Fmt::Uint, kDetail},
    {"NodeType", "type", 16, 8, Fmt::NodeType},
    {"NumPorts", "ports", 24, 8},
    {"SystemImageGUID", "sys_image_guid", 32, 64, Fmt::Guid, kDetail},
    {"NodeGUID", "node_guid", 96, 64, Fmt::Guid},
    {"PortGUID", "port_guid", 160, 64, Fmt::Guid},
    {"PartitionCap", "partition_cap", 224, 16, Fmt::Uint, kDetail},
    {"DeviceID", "device_id", 240, 16, Fmt::Hex, kDetail},
    {"Revision", "revision", 256, 32, Fmt::Hex, kDetail},
    {"LocalPortNum", "local_port", 288, 8},
    {"VendorID", "vendor_id", 296, 24, Fmt::Hex},
};

constexpr FieldDef kSwitchInfoFields[] = {
    {"LinearFDBCap", "linear_fdb_cap", 0, 16},
    {"RandomFDBCap", "random_fdb_cap", 16, 16, Fmt::Uint, kDetail},
    {"MulticastFDBCap", "mcast_fdb_cap", 32, 16},
    {"LinearFDBTop", "linear_fdb_top", 48, 16},
    {"DefaultPort", "default_port", 64, 8, Fmt::Uint, kDetail},
    {"DefaultMulticastPrimaryPort", "default_mcast_primary_port", 72, 8, Fmt::Uint, kDetail},
    {"DefaultMulticastNotPrimaryPort", "default_mcast_not_primary_port", 80, 8, Fmt::Uint, kDetail},
    {"LifeTimeValue", "lifetime", 88, 5, Fmt::Uint, kDetail},
    {"PortStateChange", "port_state_change", 93, 1},
    {"OptimizedSLtoVLMappingProgramming", "optimized_sl2vl", 94, 2, Fmt::Uint, kDetail},
    {"LIDsPerPort", "lids_per_port", 96, 16, Fmt::Uint, kDetail},
    {"PartitionEnforcementCap", "partition_enforcement_cap", 112, 16, Fmt::Uint, kDetail},
    {"InboundEnforcementCap", "inbound_enforcement_cap", 128, 1, Fmt::Uint, kDetail},
    {"OutboundEnforcementCap", "outbound_enforcement_cap", 129, 1, Fmt::Uint, kDetail},
    {"FilterRawInboundCap", "filter_raw_inbound_cap", 130, 1, Fmt::Uint, kDetail},
    {"FilterRawOutboundCap", "filter_raw_outbound_cap", 131, 1, Fmt::Uint, kDetail},
    {"EnhancedPort0", "enhanced_port0", 132, 1},
    {"MulticastFDBTop", "mcast_fdb_top", 144, 16, Fmt::Hex, kDetail},
};

constexpr FieldDef kGuidInfoFields[] = {
    {"GUIDBlock", "guids", 0, 64, Fmt::Guid, kShow, 8},
};

constexpr FieldDef kPortInfoFields[] = {
    {"M_Key", "mkey", 0, 64, Fmt::Key, kDetail},
    {"GIDPrefix", "subnet_prefix", 64, 64, Fmt::Guid},
    {"LID", "lid", 128, 16},
    {"MasterSMLID", "sm_lid", 144, 16},
    {"CapabilityMask", "caps", 160, 32, Fmt::Hex, kDetail},
    {"DiagCode", "diag_code", 192, 16, Fmt::Hex, kDetail},
    {"M_KeyLeasePeriod", "mkey_lease_period", 208, 16, Fmt::Uint, kDetail},
    {"LocalPortNum", "local_port", 224, 8, Fmt::Uint, kDetail},
    {"LinkWidthEnabled", "width_enabled", 232, 8, Fmt::WidthMask, kDetail},
    {"LinkWidthSupported", "width_supported", 240, 8, Fmt::WidthMask, kDetail},
    {"LinkWidthActive", "width", 248, 8, Fmt::Width},
    {"LinkSpeedSupported", "speed_supported", 256, 4, Fmt::SpeedMask, kDetail},
    {"PortState", "state", 260, 4, Fmt::PortState},
    {"PortPhysicalState", "physical_state", 264, 4, Fmt::PhysState},
    {"LinkDownDefaultState", "link_down_default", 268, 4, Fmt::LinkDownDef, kDetail},
    {"M_KeyProtectBits", "mkey_protect", 272, 2, Fmt::Uint, kDetail},
    {"LMC", "lmc", 277, 3},
    {"LinkSpeedActive", "speed", 280, 4, Fmt::LinkSpeed},
    {"LinkSpeedEnabled", "speed_enabled", 284, 4, Fmt::SpeedMask, kDetail},
    {"NeighborMTU", "mtu", 288, 4, Fmt::Mtu},
    {"MasterSMSL", "sm_sl", 292, 4, Fmt::Uint, kDetail},
    {"VLCap", "vl_cap", 296, 4, Fmt::VlCap, kDetail},
    {"InitType", "init_type", 300, 4, Fmt::Hex, kDetail},
    {"VLHighLimit", "vl_high_limit", 304, 8, Fmt::Uint, kDetail},
    {"VLArbitrationHighCap", "vlarb_high_cap", 312, 8, Fmt::Uint, kDetail},
    {"VLArbitrationLowCap", "vlarb_low_cap", 320, 8, Fmt::Uint, kDetail},
    {"InitTypeReply", "init_type_reply", 328, 4, Fmt::Hex, kDetail},
    {"MTUCap", "mtu_cap", 332, 4, Fmt::Mtu, kDetail},
    {"VLStallCount", "vl_stall_count", 336, 3, Fmt::Uint, kDetail},
    {"HOQLife", "hoq_life", 339, 5, Fmt::Uint, kDetail},
    {"OperationalVLs", "oper_vls", 344, 4, Fmt::VlCap, kDetail},
    {"PartitionEnforcementInbound", "partition_enforcement_inbound", 348, 1, Fmt::Uint, kDetail},
    {"PartitionEnforcementOutbound", "partition_enforcement_outbound", 349, 1, Fmt::Uint, kDetail},
    {"FilterRawInbound", "filter_raw_inbound", 350, 1, Fmt::Uint, kDetail},
    {"FilterRawOutbound", "filter_raw_outbound", 351, 1, Fmt::Uint, kDetail},
    {"M_KeyViolations", "mkey_violations", 352, 16, Fmt::Uint, kDetail},
    {"P_KeyViolations", "pkey_violations", 368, 16, Fmt::Uint, kDetail},
    {"Q_KeyViolations", "qkey_violations", 384, 16, Fmt::Uint, kDetail},
    {"GUIDCap", "guid_cap", 400, 8, Fmt::Uint, kDetail},
    {"ClientReregister", "client_reregister", 408, 1, Fmt::Uint, kDetail},
    {"MulticastPKeyTrapSuppressionEnabled", "mcast_pkey_trap_suppression", 409, 2, Fmt::Uint,
     kDetail},
    {"SubnetTimeOut", "subnet_timeout", 411, 5, Fmt::Uint, kDetail},
    {"RespTimeValue", "resp_time", 419, 5, Fmt::Uint, kDetail},
    {"LocalPhyErrors", "local_phy_errors", 424, 4, Fmt::Uint, kDetail},
    {"OverrunErrors", "overrun_errors", 428, 4, Fmt::Uint, kDetail},
    {"MaxCreditHint", "max_credit_hint", 432, 16, Fmt::Uint, kDetail},
    // IBA 1.7 (XDR); reserved, so zero, in older PortInfo. Read by the
    // speed (lib/mad/speed.h), not listed, as infiniband-diags 0.10's
    // smpquery does not.
    {"LinkSpeedExtActive2", "speed_ext2", 449, 2, Fmt::Uint, kHidden},
    {"LinkRoundTripLatency", "round_trip_latency", 456, 24, Fmt::Uint, kDetail},
    {"CapabilityMask2", "caps2", 480, 16, Fmt::Hex, kDetail},
    {"LinkSpeedExtActive", "speed_ext", 496, 4, Fmt::SpeedExt, kDetail},
    {"LinkSpeedExtSupported", "speed_ext_supported", 500, 4, Fmt::SpeedExtMask, kDetail},
    {"LinkSpeedExtEnabled", "speed_ext_enabled", 507, 5, Fmt::SpeedExtMask, kDetail},
};

constexpr FieldDef kPKeyTableFields[] = {
    {"P_KeyTableBlock", "pkeys", 0, 16, Fmt::Hex, kShow, 32},
};

constexpr FieldDef kSl2VlFields[] = {
    {"SLtoVL", "sl2vl", 0, 4, Fmt::Uint, kShow, 16},
};

constexpr FieldDef kVlArbFields[] = {
    {"VL", "vl", 4, 4, Fmt::Uint, kShow, 32, 16},
    {"Weight", "weight", 8, 8, Fmt::Uint, kShow, 32, 16},
};

constexpr FieldDef kSmInfoFields[] = {
    {"GUID", "guid", 0, 64, Fmt::Guid},         {"SM_Key", "sm_key", 64, 64, Fmt::Key, kDetail},
    {"ActCount", "act_count", 128, 32},         {"Priority", "priority", 160, 4},
    {"SMState", "state", 164, 4, Fmt::SmState},
};

// The vendor's MlnxExtPortInfo (libibmad's IB_MLNX_EXT_PORT_*, what
// smpquery mlnxextportinfo prints): bit 0 of each speed is FDR10.
constexpr FieldDef kMlnxExtPortInfoFields[] = {
    {"StateChangeEnable", "state_change_enable", 24, 8, Fmt::Hex},
    {"LinkSpeedSupported", "speed_supported", 56, 8, Fmt::Hex},
    {"LinkSpeedEnabled", "speed_enabled", 88, 8, Fmt::Hex},
    {"LinkSpeedActive", "speed", 120, 8, Fmt::Hex},
};

// PortInfoExtended (IBA 1.3, 14.2.5.24): CapabilityMask bit 0 is
// IsFECModeSupported; FECModeActive 0 none, 1 Firecode, 2 RS-FEC (528,514),
// 3 low latency RS-FEC (271,257), ...; the Supported / Enabled masks are
// bit per mode, for each generation (smpquery portinfoextended's fields).
constexpr FieldDef kPortInfoExtendedFields[] = {
    {"CapabilityMask", "caps", 0, 32, Fmt::Hex},
    {"FECModeActive", "fec_mode_active", 32, 16},
    {"FDRFECModeSupported", "fdr_fec_supported", 48, 16, Fmt::Hex},
    {"FDRFECModeEnabled", "fdr_fec_enabled", 64, 16, Fmt::Hex},
    {"EDRFECModeSupported", "edr_fec_supported", 80, 16, Fmt::Hex},
    {"EDRFECModeEnabled", "edr_fec_enabled", 96, 16, Fmt::Hex},
    {"HDRFECModeSupported", "hdr_fec_supported", 112, 16, Fmt::Hex},
    {"HDRFECModeEnabled", "hdr_fec_enabled", 128, 16, Fmt::Hex},
    {"NDRFECModeSupported", "ndr_fec_supported", 144, 16, Fmt::Hex},
    {"NDRFECModeEnabled", "ndr_fec_enabled", 160, 16, Fmt::Hex},
};

// 64 output ports; AttributeModifier = block (LIDs 64*block ...).
constexpr FieldDef kLftFields[] = {{"Port", "port", 0, 8, Fmt::Uint, kShow, 64}};

// 32 MLIDs (0xc000 + 32 * block ...), 16 ports each: AttributeModifier =
// PortMask position << 28 | block; bit i of entry e: port 16 * position + i.
constexpr FieldDef kMftFields[] = {{"PortMask", "port_mask", 0, 16, Fmt::Hex, kShow, 32}};

}  // namespace

const AttrDef kNodeDescription{"NodeDescription", 0x0010, kClassSmiLid, 64, kNodeDescriptionFields};
const AttrDef kNodeInfo{"NodeInfo", 0x0011, kClassSmiLid, 40, kNodeInfoFields};
const AttrDef kSwitchInfo{"SwitchInfo", 0x0012, kClassSmiLid, 20, kSwitchInfoFields};
const AttrDef kGuidInfo{"GUIDInfo", 0x0014, kClassSmiLid, 64, kGuidInfoFields};
const AttrDef kPortInfo{"PortInfo", 0x0015, kClassSmiLid, 64, kPortInfoFields};
const AttrDef kMlnxExtPortInfo{"MlnxExtPortInfo", 0xff90, kClassSmiLid, 64, kMlnxExtPortInfoFields};
const AttrDef kPortInfoExtended{"PortInfoExtended", 0x0033, kClassSmiLid, 64,
                                kPortInfoExtendedFields};
const AttrDef kPKeyTable{"P_KeyTable", 0x0016, kClassSmiLid, 64, kPKeyTableFields};
const AttrDef kSl2VlTable{"SLtoVLMappingTable", 0x0017, kClassSmiLid, 8, kSl2VlFields};
const AttrDef kVlArbTable{"VLArbitrationTable", 0x0018, kClassSmiLid, 64, kVlArbFields};
const AttrDef kSmInfo{"SMInfo", 0x0020, kClassSmiLid, 21, kSmInfoFields};
const AttrDef kLinearForwardingTable{"LinearForwardingTable", 0x0019, kClassSmiLid, 64, kLftFields};
const AttrDef kMulticastForwardingTable{"MulticastForwardingTable", 0x001b, kClassSmiLid, 64,
                                        kMftFields};

}  // namespace rdma::mad
