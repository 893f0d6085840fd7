// The performance management attributes beyond PortCounters and
// PortCountersExtended (IBA vol 1, 16.1.4 and annex A10 for congestion):
// error details, per-VL and per-SL counters. Offsets in bits from the start
// of the attribute, as attrs_perf.cc.
#include "lib/mad/attrs_pma.h"

namespace rdma::mad {

namespace {

constexpr FieldDef kPortRcvErrorDetailsFields[] = {
    {"PortSelect", "port_select", 8, 8, Fmt::Uint, kDetail},
    {"CounterSelect", "counter_select", 16, 16, Fmt::Hex, kDetail},
    {"PortLocalPhysicalErrors", "local_physical_errors", 32, 16},
    {"PortMalformedPktErrors", "malformed_pkt_errors", 48, 16},
    {"PortBufferOverrunErrors", "buffer_overrun_errors", 64, 16},
    {"PortDLIDMappingErrors", "dlid_mapping_errors", 80, 16},
    {"PortVLMappingErrors", "vl_mapping_errors", 96, 16},
    {"PortLoopingErrors", "looping_errors", 112, 16},
};

constexpr FieldDef kPortXmitDiscardDetailsFields[] = {
    {"PortSelect", "port_select", 8, 8, Fmt::Uint, kDetail},
    {"CounterSelect", "counter_select", 16, 16, Fmt::Hex, kDetail},
    {"PortInactiveDiscards", "inactive_discards", 32, 16},
    {"PortNeighborMTUDiscards", "neighbor_mtu_discards", 48, 16},
    {"PortSwLifetimeLimitDiscards", "sw_lifetime_limit_discards", 64, 16},
    {"PortSwHOQLifetimeLimitDiscards", "sw_hoq_lifetime_limit_discards", 80, 16},
};

constexpr FieldDef kPortOpRcvCountersFields[] = {
    {"OpCode", "op_code", 0, 8, Fmt::Hex, kDetail},
    {"PortSelect", "port_select", 8, 8, Fmt::Uint, kDetail},
    {"CounterSelect", "counter_select", 16, 16, Fmt::Hex, kDetail},
    {"PortOpRcvPkts", "op_rcv_pkts", 32, 32},
    {"PortOpRcvData", "op_rcv_bytes", 64, 32, Fmt::DataWords},
};

constexpr FieldDef kPortFlowCtlCountersFields[] = {
    {"PortSelect", "port_select", 8, 8, Fmt::Uint, kDetail},
    {"CounterSelect", "counter_select", 16, 16, Fmt::Hex, kDetail},
    {"PortXmitFlowPkts", "xmit_flow_pkts", 32, 32},
    {"PortRcvFlowPkts", "rcv_flow_pkts", 64, 32},
};

constexpr FieldDef kPortVLOpPacketsFields[] = {
    {"OpCode", "op_code", 0, 8, Fmt::Hex, kDetail},
    {"PortSelect", "port_select", 8, 8, Fmt::Uint, kDetail},
    {"CounterSelect", "counter_select", 16, 16, Fmt::Hex, kDetail},
    {"PortVLOpPackets0", "op_pkts_vl0", 32, 16},
    {"PortVLOpPackets1", "op_pkts_vl1", 48, 16},
    {"PortVLOpPackets2", "op_pkts_vl2", 64, 16},
    {"PortVLOpPackets3", "op_pkts_vl3", 80, 16},
    {"PortVLOpPackets4", "op_pkts_vl4", 96, 16},
    {"PortVLOpPackets5", "op_pkts_vl5", 112, 16},
    {"PortVLOpPackets6", "op_pkts_vl6", 128, 16},
    {"PortVLOpPackets7", "op_pkts_vl7", 144, 16},
    {"PortVLOpPackets8", "op_pkts_vl8", 160, 16},
    {"PortVLOpPackets9", "op_pkts_vl9", 176, 16},
    {"PortVLOpPackets10", "op_pkts_vl10", 192, 16},
    {"PortVLOpPackets11", "op_pkts_vl11", 208, 16},
    {"PortVLOpPackets12", "op_pkts_vl12", 224, 16},
    {"PortVLOpPackets13", "op_pkts_vl13", 240, 16},
    {"PortVLOpPackets14", "op_pkts_vl14", 256, 16},
    {"PortVLOpPackets15", "op_pkts_vl15", 272, 16},
};

constexpr FieldDef kPortVLOpDataFields[] = {
    {"OpCode", "op_code", 0, 8, Fmt::Hex, kDetail},
    {"PortSelect", "port_select", 8, 8, Fmt::Uint, kDetail},
    {"CounterSelect", "counter_select", 16, 16, Fmt::Hex, kDetail},
    {"PortVLOpData0", "op_vl0_bytes", 32, 32, Fmt::DataWords},
    {"PortVLOpData1", "op_vl1_bytes", 64, 32, Fmt::DataWords},
    {"PortVLOpData2", "op_vl2_bytes", 96, 32, Fmt::DataWords},
    {"PortVLOpData3", "op_vl3_bytes", 128, 32, Fmt::DataWords},
    {"PortVLOpData4", "op_vl4_bytes", 160, 32, Fmt::DataWords},
    {"PortVLOpData5", "op_vl5_bytes", 192, 32, Fmt::DataWords},
    {"PortVLOpData6", "op_vl6_bytes", 224, 32, Fmt::DataWords},
    {"PortVLOpData7", "op_vl7_bytes", 256, 32, Fmt::DataWords},
    {"PortVLOpData8", "op_vl8_bytes", 288, 32, Fmt::DataWords},
    {"PortVLOpData9", "op_vl9_bytes", 320, 32, Fmt::DataWords},
    {"PortVLOpData10", "op_vl10_bytes", 352, 32, Fmt::DataWords},
    {"PortVLOpData11", "op_vl11_bytes", 384, 32, Fmt::DataWords},
    {"PortVLOpData12", "op_vl12_bytes", 416, 32, Fmt::DataWords},
    {"PortVLOpData13", "op_vl13_bytes", 448, 32, Fmt::DataWords},
    {"PortVLOpData14", "op_vl14_bytes", 480, 32, Fmt::DataWords},
    {"PortVLOpData15", "op_vl15_bytes", 512, 32, Fmt::DataWords},
};

constexpr FieldDef kPortVLXmitFlowCtlUpdateErrorsFields[] = {
    {"PortSelect", "port_select", 8, 8, Fmt::Uint, kDetail},
    {"CounterSelect", "counter_select", 16, 16, Fmt::Hex, kDetail},
    {"PortVLXmitFlowCtlUpdateErrors0", "xmit_flow_ctl_update_errors_vl0", 32, 2},
    {"PortVLXmitFlowCtlUpdateErrors1", "xmit_flow_ctl_update_errors_vl1", 34, 2},
    {"PortVLXmitFlowCtlUpdateErrors2", "xmit_flow_ctl_update_errors_vl2", 36, 2},
    {"PortVLXmitFlowCtlUpdateErrors3", "xmit_flow_ctl_update_errors_vl3", 38, 2},
    {"PortVLXmitFlowCtlUpdateErrors4", "xmit_flow_ctl_update_errors_vl4", 40, 2},
    {"PortVLXmitFlowCtlUpdateErrors5", "xmit_flow_ctl_update_errors_vl5", 42, 2},
    {"PortVLXmitFlowCtlUpdateErrors6", "xmit_flow_ctl_update_errors_vl6", 44, 2},
    {"PortVLXmitFlowCtlUpdateErrors7", "xmit_flow_ctl_update_errors_vl7", 46, 2},
    {"PortVLXmitFlowCtlUpdateErrors8", "xmit_flow_ctl_update_errors_vl8", 48, 2},
    {"PortVLXmitFlowCtlUpdateErrors9", "xmit_flow_ctl_update_errors_vl9", 50, 2},
    {"PortVLXmitFlowCtlUpdateErrors10", "xmit_flow_ctl_update_errors_vl10", 52, 2},
    {"PortVLXmitFlowCtlUpdateErrors11", "xmit_flow_ctl_update_errors_vl11", 54, 2},
    {"PortVLXmitFlowCtlUpdateErrors12", "xmit_flow_ctl_update_errors_vl12", 56, 2},
    {"PortVLXmitFlowCtlUpdateErrors13", "xmit_flow_ctl_update_errors_vl13", 58, 2},
    {"PortVLXmitFlowCtlUpdateErrors14", "xmit_flow_ctl_update_errors_vl14", 60, 2},
    {"PortVLXmitFlowCtlUpdateErrors15", "xmit_flow_ctl_update_errors_vl15", 62, 2},
};

constexpr FieldDef kPortVLXmitWaitCountersFields[] = {
    {"PortSelect", "port_select", 8, 8, Fmt::Uint, kDetail},
    {"CounterSelect", "counter_select", 16, 16, Fmt::Hex, kDetail},
    {"PortVLXmitWait0", "xmit_wait_vl0", 32, 16},
    {"PortVLXmitWait1", "xmit_wait_vl1", 48, 16},
    {"PortVLXmitWait2", "xmit_wait_vl2", 64, 16},
    {"PortVLXmitWait3", "xmit_wait_vl3", 80, 16},
    {"PortVLXmitWait4", "xmit_wait_vl4", 96, 16},
    {"PortVLXmitWait5", "xmit_wait_vl5", 112, 16},
    {"PortVLXmitWait6", "xmit_wait_vl6", 128, 16},
    {"PortVLXmitWait7", "xmit_wait_vl7", 144, 16},
    {"PortVLXmitWait8", "xmit_wait_vl8", 160, 16},
    {"PortVLXmitWait9", "xmit_wait_vl9", 176, 16},
    {"PortVLXmitWait10", "xmit_wait_vl10", 192, 16},
    {"PortVLXmitWait11", "xmit_wait_vl11", 208, 16},
    {"PortVLXmitWait12", "xmit_wait_vl12", 224, 16},
    {"PortVLXmitWait13", "xmit_wait_vl13", 240, 16},
    {"PortVLXmitWait14", "xmit_wait_vl14", 256, 16},
    {"PortVLXmitWait15", "xmit_wait_vl15", 272, 16},
};

constexpr FieldDef kSwPortVLCongestionFields[] = {
    {"PortSelect", "port_select", 8, 8, Fmt::Uint, kDetail},
    {"CounterSelect", "counter_select", 16, 16, Fmt::Hex, kDetail},
    {"SWPortVLCongestion0", "congestion_vl0", 32, 16},
    {"SWPortVLCongestion1", "congestion_vl1", 48, 16},
    {"SWPortVLCongestion2", "congestion_vl2", 64, 16},
    {"SWPortVLCongestion3", "congestion_vl3", 80, 16},
    {"SWPortVLCongestion4", "congestion_vl4", 96, 16},
    {"SWPortVLCongestion5", "congestion_vl5", 112, 16},
    {"SWPortVLCongestion6", "congestion_vl6", 128, 16},
    {"SWPortVLCongestion7", "congestion_vl7", 144, 16},
    {"SWPortVLCongestion8", "congestion_vl8", 160, 16},
    {"SWPortVLCongestion9", "congestion_vl9", 176, 16},
    {"SWPortVLCongestion10", "congestion_vl10", 192, 16},
    {"SWPortVLCongestion11", "congestion_vl11", 208, 16},
    {"SWPortVLCongestion12", "congestion_vl12", 224, 16},
    {"SWPortVLCongestion13", "congestion_vl13", 240, 16},
    {"SWPortVLCongestion14", "congestion_vl14", 256, 16},
    {"SWPortVLCongestion15", "congestion_vl15", 272, 16},
};

constexpr FieldDef kPortRcvConCtrlFields[] = {
    {"PortSelect", "port_select", 8, 8, Fmt::Uint, kDetail},
    {"CounterSelect", "counter_select", 16, 16, Fmt::Hex, kDetail},
    {"PortPktRcvFECN", "rcv_fecn_pkts", 32, 32},
    {"PortPktRcvBECN", "rcv_becn_pkts", 64, 32},
};

constexpr FieldDef kPortSLRcvFECNFields[] = {
    {"PortSelect", "port_select", 8, 8, Fmt::Uint, kDetail},
    {"CounterSelect", "counter_select", 16, 16, Fmt::Hex, kDetail},
    {"PortSLRcvFECN0", "rcv_fecn_sl0", 32, 32},
    {"PortSLRcvFECN1", "rcv_fecn_sl1", 64, 32},
    {"PortSLRcvFECN2", "rcv_fecn_sl2", 96, 32},
    {"PortSLRcvFECN3", "rcv_fecn_sl3", 128, 32},
    {"PortSLRcvFECN4", "rcv_fecn_sl4", 160, 32},
    {"PortSLRcvFECN5", "rcv_fecn_sl5", 192, 32},
    {"PortSLRcvFECN6", "rcv_fecn_sl6", 224, 32},
    {"PortSLRcvFECN7", "rcv_fecn_sl7", 256, 32},
    {"PortSLRcvFECN8", "rcv_fecn_sl8", 288, 32},
    {"PortSLRcvFECN9", "rcv_fecn_sl9", 320, 32},
    {"PortSLRcvFECN10", "rcv_fecn_sl10", 352, 32},
    {"PortSLRcvFECN11", "rcv_fecn_sl11", 384, 32},
    {"PortSLRcvFECN12", "rcv_fecn_sl12", 416, 32},
    {"PortSLRcvFECN13", "rcv_fecn_sl13", 448, 32},
    {"PortSLRcvFECN14", "rcv_fecn_sl14", 480, 32},
    {"PortSLRcvFECN15", "rcv_fecn_sl15", 512, 32},
};

constexpr FieldDef kPortSLRcvBECNFields[] = {
    {"PortSelect", "port_select", 8, 8, Fmt::Uint, kDetail},
    {"CounterSelect", "counter_select", 16, 16, Fmt::Hex, kDetail},
    {"PortSLRcvBECN0", "rcv_becn_sl0", 32, 32},
    {"PortSLRcvBECN1", "rcv_becn_sl1", 64, 32},
    {"PortSLRcvBECN2", "rcv_becn_sl2", 96, 32},
    {"PortSLRcvBECN3", "rcv_becn_sl3", 128, 32},
    {"PortSLRcvBECN4", "rcv_becn_sl4", 160, 32},
    {"PortSLRcvBECN5", "rcv_becn_sl5", 192, 32},
    {"PortSLRcvBECN6", "rcv_becn_sl6", 224, 32},
    {"PortSLRcvBECN7", "rcv_becn_sl7", 256, 32},
    {"PortSLRcvBECN8", "rcv_becn_sl8", 288, 32},
    {"PortSLRcvBECN9", "rcv_becn_sl9", 320, 32},
    {"PortSLRcvBECN10", "rcv_becn_sl10", 352, 32},
    {"PortSLRcvBECN11", "rcv_becn_sl11", 384, 32},
    {"PortSLRcvBECN12", "rcv_becn_sl12", 416, 32},
    {"PortSLRcvBECN13", "rcv_becn_sl13", 448, 32},
    {"PortSLRcvBECN14", "rcv_becn_sl14", 480, 32},
    {"PortSLRcvBECN15", "rcv_becn_sl15", 512, 32},
};

constexpr FieldDef kPortXmitConCtrlFields[] = {
    {"PortSelect", "port_select", 8, 8, Fmt::Uint, kDetail},
    {"CounterSelect", "counter_select", 16, 16, Fmt::Hex, kDetail},
    {"PortXmitTimeCong", "xmit_time_cong", 32, 32},
};

constexpr FieldDef kPortVLXmitTimeCongFields[] = {
    {"PortSelect", "port_select", 8, 8, Fmt::Uint, kDetail},
    {"CounterSelect", "counter_select", 16, 16, Fmt::Hex, kDetail},
    {"PortVLXmitTimeCong0", "xmit_time_cong_vl0", 32, 32},
    {"PortVLXmitTimeCong1", "xmit_time_cong_vl1", 64, 32},
    {"PortVLXmitTimeCong2", "xmit_time_cong_vl2", 96, 32},
    {"PortVLXmitTimeCong3", "xmit_time_cong_vl3", 128, 32},
    {"PortVLXmitTimeCong4", "xmit_time_cong_vl4", 160, 32},
    {"PortVLXmitTimeCong5", "xmit_time_cong_vl5", 192, 32},
    {"PortVLXmitTimeCong6", "xmit_time_cong_vl6", 224, 32},
    {"PortVLXmitTimeCong7", "xmit_time_cong_vl7", 256, 32},
    {"PortVLXmitTimeCong8", "xmit_time_cong_vl8", 288, 32},
    {"PortVLXmitTimeCong9", "xmit_time_cong_vl9", 320, 32},
    {"PortVLXmitTimeCong10", "xmit_time_cong_vl10", 352, 32},
    {"PortVLXmitTimeCong11", "xmit_time_cong_vl11", 384, 32},
    {"PortVLXmitTimeCong12", "xmit_time_cong_vl12", 416, 32},
    {"PortVLXmitTimeCong13", "xmit_time_cong_vl13", 448, 32},
    {"PortVLXmitTimeCong14", "xmit_time_cong_vl14", 480, 32},
};

constexpr FieldDef kPortXmitDataSLFields[] = {
    {"PortSelect", "port_select", 8, 8, Fmt::Uint, kDetail},
    {"CounterSelect", "counter_select", 16, 16, Fmt::Hex, kDetail},
    {"PortXmitDataSL0", "xmit_sl0_bytes", 32, 32, Fmt::DataWords},
    {"PortXmitDataSL1", "xmit_sl1_bytes", 64, 32, Fmt::DataWords},
    {"PortXmitDataSL2", "xmit_sl2_bytes", 96, 32, Fmt::DataWords},
    {"PortXmitDataSL3", "xmit_sl3_bytes", 128, 32, Fmt::DataWords},
    {"PortXmitDataSL4", "xmit_sl4_bytes", 160, 32, Fmt::DataWords},
    {"PortXmitDataSL5", "xmit_sl5_bytes", 192, 32, Fmt::DataWords},
    {"PortXmitDataSL6", "xmit_sl6_bytes", 224, 32, Fmt::DataWords},
    {"PortXmitDataSL7", "xmit_sl7_bytes", 256, 32, Fmt::DataWords},
    {"PortXmitDataSL8", "xmit_sl8_bytes", 288, 32, Fmt::DataWords},
    {"PortXmitDataSL9", "xmit_sl9_bytes", 320, 32, Fmt::DataWords},
    {"PortXmitDataSL10", "xmit_sl10_bytes", 352, 32, Fmt::DataWords},
    {"PortXmitDataSL11", "xmit_sl11_bytes", 384, 32, Fmt::DataWords},
    {"PortXmitDataSL12", "xmit_sl12_bytes", 416, 32, Fmt::DataWords},
    {"PortXmitDataSL13", "xmit_sl13_bytes", 448, 32, Fmt::DataWords},
    {"PortXmitDataSL14", "xmit_sl14_bytes", 480, 32, Fmt::DataWords},
    {"PortXmitDataSL15", "xmit_sl15_bytes", 512, 32, Fmt::DataWords},
};

constexpr FieldDef kPortRcvDataSLFields[] = {
    {"PortSelect", "port_select", 8, 8, Fmt::Uint, kDetail},
    {"CounterSelect", "counter_select", 16, 16, Fmt::Hex, kDetail},
    {"PortRcvDataSL0", "rcv_sl0_bytes", 32, 32, Fmt::DataWords},
    {"PortRcvDataSL1", "rcv_sl1_bytes", 64, 32, Fmt::DataWords},
    {"PortRcvDataSL2", "rcv_sl2_bytes", 96, 32, Fmt::DataWords},
    {"PortRcvDataSL3", "rcv_sl3_bytes", 128, 32, Fmt::DataWords},
    {"PortRcvDataSL4", "rcv_sl4_bytes", 160, 32, Fmt::DataWords},
    {"PortRcvDataSL5", "rcv_sl5_bytes", 192, 32, Fmt::DataWords},
    {"PortRcvDataSL6", "rcv_sl6_bytes", 224, 32, Fmt::DataWords},
    {"PortRcvDataSL7", "rcv_sl7_bytes", 256, 32, Fmt::DataWords},
    {"PortRcvDataSL8", "rcv_sl8_bytes", 288, 32, Fmt::DataWords},
    {"PortRcvDataSL9", "rcv_sl9_bytes", 320, 32, Fmt::DataWords},
    {"PortRcvDataSL10", "rcv_sl10_bytes", 352, 32, Fmt::DataWords},
    {"PortRcvDataSL11", "rcv_sl11_bytes", 384, 32, Fmt::DataWords},
    {"PortRcvDataSL12", "rcv_sl12_bytes", 416, 32, Fmt::DataWords},
    {"PortRcvDataSL13", "rcv_sl13_bytes", 448, 32, Fmt::DataWords},
    {"PortRcvDataSL14", "rcv_sl14_bytes", 480, 32, Fmt::DataWords},
    {"PortRcvDataSL15", "rcv_sl15_bytes", 512, 32, Fmt::DataWords},
};

// Capability bit names, bit 0 first (IBA 16.1.3.1 tables: PerfMgt
// ClassPortInfo CapabilityMask and CapabilityMask2).
constexpr const char* kPmaCapNames[16] = {
    nullptr,
    nullptr,
    nullptr,
    nullptr,
    nullptr,
    nullptr,
    nullptr,
    nullptr,
    "AllPortSelect",
    "IsExtendedWidthSupported",
    "IsExtendedWidthSupportedNoIETF",
    "IsSamplesOnlySupported",
    "IsPortXmitWaitSupported",
    "IsInhibitLimitedPKeyMulticastConstraintErrors",
    "IsRSFECCountersSupported",
    "IsQP1DroppedSupported",
};
constexpr const char* kPmaCap2Names[] = {"IsPMKeySupported",
                                         "IsAdditionalPortCountersExtendedSupported"};

std::string bit_names(uint32_t mask, unsigned bits, std::span<const char* const> names) {
  std::string out;
  for (unsigned i = 0; i < bits; ++i) {
    if (!(mask & (1u << i))) continue;
    if (!out.empty()) out += ',';
    out += i < names.size() && names[i] ? names[i] : "bit" + std::to_string(i);
  }
  return out;
}

}  // namespace

std::string pma_caps_names(uint16_t caps) {
  return bit_names(caps, 16, kPmaCapNames);
}

std::string pma_caps2_names(uint32_t caps2) {
  return bit_names(caps2, 27, kPmaCap2Names);
}

const AttrDef kPortRcvErrorDetails{"PortRcvErrorDetails", 0x0015, kClassPerf, 16,
                                   kPortRcvErrorDetailsFields};
const AttrDef kPortXmitDiscardDetails{"PortXmitDiscardDetails", 0x0016, kClassPerf, 12,
                                      kPortXmitDiscardDetailsFields};
const AttrDef kPortOpRcvCounters{"PortOpRcvCounters", 0x0017, kClassPerf, 12,
                                 kPortOpRcvCountersFields};
const AttrDef kPortFlowCtlCounters{"PortFlowCtlCounters", 0x0018, kClassPerf, 12,
                                   kPortFlowCtlCountersFields};
const AttrDef kPortVLOpPackets{"PortVLOpPackets", 0x0019, kClassPerf, 36, kPortVLOpPacketsFields};
const AttrDef kPortVLOpData{"PortVLOpData", 0x001a, kClassPerf, 68, kPortVLOpDataFields};
const AttrDef kPortVLXmitFlowCtlUpdateErrors{"PortVLXmitFlowCtlUpdateErrors", 0x001b, kClassPerf, 8,
                                             kPortVLXmitFlowCtlUpdateErrorsFields};
const AttrDef kPortVLXmitWaitCounters{"PortVLXmitWaitCounters", 0x001c, kClassPerf, 36,
                                      kPortVLXmitWaitCountersFields};
const AttrDef kSwPortVLCongestion{"SwPortVLCongestion", 0x0030, kClassPerf, 36,
                                  kSwPortVLCongestionFields};
const AttrDef kPortRcvConCtrl{"PortRcvConCtrl", 0x0031, kClassPerf, 12, kPortRcvConCtrlFields};
const AttrDef kPortSLRcvFECN{"PortSLRcvFECN", 0x0032, kClassPerf, 68, kPortSLRcvFECNFields};
const AttrDef kPortSLRcvBECN{"PortSLRcvBECN", 0x0033, kClassPerf, 68, kPortSLRcvBECNFields};
const AttrDef kPortXmitConCtrl{"PortXmitConCtrl", 0x0034, kClassPerf, 8, kPortXmitConCtrlFields};
const AttrDef kPortVLXmitTimeCong{"PortVLXmitTimeCong", 0x0035, kClassPerf, 64,
                                  kPortVLXmitTimeCongFields};
const AttrDef kPortXmitDataSL{"PortXmitDataSL", 0x0036, kClassPerf, 68, kPortXmitDataSLFields};
const AttrDef kPortRcvDataSL{"PortRcvDataSL", 0x0037, kClassPerf, 68, kPortRcvDataSLFields};

int counter_select_bit(const AttrDef& a, std::string_view name) {
  if (&a == &kPortExtendedSpeedsRsFecCounters || &a == &kPortSamplesControl) return -1;
  const FieldDef* select = find_field(a, "CounterSelect");
  int bits = select ? select->width : 0, bit = 0;
  for (const FieldDef& f : a.fields) {
    if (f.level != kShow) continue;
    if (name == f.name) return bit < bits ? bit : -1;
    ++bit;
  }
  return -1;
}

}  // namespace rdma::mad
