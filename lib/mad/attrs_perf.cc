// Performance management attributes (IBA vol 1, 16.1.3 and 16.1.4) and
// ClassPortInfo (13.4.8.1). Offsets in bits from the start of the attribute.
#include "lib/mad/attrs.h"
#include "lib/mad/attrs_pma.h"

namespace rdma::mad {

namespace {

constexpr FieldDef kClassPortInfoFields[] = {
    {"BaseVersion", "base_version", 0, 8},
    {"ClassVersion", "class_version", 8, 8},
    {"CapabilityMask", "caps", 16, 16, Fmt::Hex},
    {"CapabilityMask2", "caps2", 32, 27, Fmt::Hex},
    {"RespTimeValue", "resp_time", 59, 5},
    {"RedirectGID", "redirect_gid", 64, 128, Fmt::Gid, kDetail},
    {"RedirectTC", "redirect_tc", 192, 8, Fmt::Hex, kDetail},
    {"RedirectSL", "redirect_sl", 200, 4, Fmt::Uint, kDetail},
    {"RedirectFL", "redirect_fl", 204, 20, Fmt::Hex, kDetail},
    {"RedirectLID", "redirect_lid", 224, 16, Fmt::Uint, kDetail},
    {"RedirectP_Key", "redirect_pkey", 240, 16, Fmt::Hex, kDetail},
    {"RedirectQP", "redirect_qp", 264, 24, Fmt::Hex, kDetail},
    {"RedirectQ_Key", "redirect_qkey", 288, 32, Fmt::Hex, kDetail},
    {"TrapGID", "trap_gid", 320, 128, Fmt::Gid, kDetail},
    {"TrapTC", "trap_tc", 448, 8, Fmt::Hex, kDetail},
    {"TrapSL", "trap_sl", 456, 4, Fmt::Uint, kDetail},
    {"TrapFL", "trap_fl", 460, 20, Fmt::Hex, kDetail},
    {"TrapLID", "trap_lid", 480, 16, Fmt::Uint, kDetail},
    {"TrapP_Key", "trap_pkey", 496, 16, Fmt::Hex, kDetail},
    {"TrapHL", "trap_hl", 512, 8, Fmt::Uint, kDetail},
    {"TrapQP", "trap_qp", 520, 24, Fmt::Hex, kDetail},
    {"TrapQ_Key", "trap_qkey", 544, 32, Fmt::Hex, kDetail},
};

constexpr FieldDef kPortCountersFields[] = {
    {"PortSelect", "port_select", 8, 8, Fmt::Uint, kDetail},
    {"CounterSelect", "counter_select", 16, 16, Fmt::Hex, kDetail},
    {"SymbolErrorCounter", "symbol_errors", 32, 16},
    {"LinkErrorRecoveryCounter", "link_error_recovery", 48, 8},
    {"LinkDownedCounter", "link_downed", 56, 8},
    {"PortRcvErrors", "rcv_errors", 64, 16},
    {"PortRcvRemotePhysicalErrors", "rcv_remote_physical_errors", 80, 16},
    {"PortRcvSwitchRelayErrors", "rcv_switch_relay_errors", 96, 16},
    {"PortXmitDiscards", "xmit_discards", 112, 16},
    {"PortXmitConstraintErrors", "xmit_constraint_errors", 128, 8},
    {"PortRcvConstraintErrors", "rcv_constraint_errors", 136, 8},
    {"CounterSelect2", "counter_select2", 144, 8, Fmt::Hex, kDetail},
    {"LocalLinkIntegrityErrors", "local_link_integrity_errors", 152, 4},
    {"ExcessiveBufferOverrunErrors", "excessive_buffer_overrun_errors", 156, 4},
    // IBA 1.3: the reserved 16 bits before VL15Dropped.
    {"QP1Dropped", "qp1_dropped", 160, 16},
    {"VL15Dropped", "vl15_dropped", 176, 16},
    {"PortXmitData", "xmit_bytes", 192, 32, Fmt::DataWords},
    {"PortRcvData", "rcv_bytes", 224, 32, Fmt::DataWords},
    {"PortXmitPkts", "xmit_pkts", 256, 32},
    {"PortRcvPkts", "rcv_pkts", 288, 32},
    {"PortXmitWait", "xmit_wait", 320, 32},
};

// PortCountersExtended's fields, then those of IBA 1.3's layout with the
// 64-bit error counters (CounterSelect2 clears them): a PMA whose
// CapabilityMask2 has IsAdditionalPortCountersExtendedSupported answers
// with all of them, the others with the first kPortCountersExtendedBase.
constexpr FieldDef kPortCountersExtendedFields[] = {
    {"PortSelect", "port_select", 8, 8, Fmt::Uint, kDetail},
    {"CounterSelect", "counter_select", 16, 16, Fmt::Hex, kDetail},
    {"PortXmitData", "xmit_bytes", 64, 64, Fmt::DataWords},
    {"PortRcvData", "rcv_bytes", 128, 64, Fmt::DataWords},
    {"PortXmitPkts", "xmit_pkts", 192, 64},
    {"PortRcvPkts", "rcv_pkts", 256, 64},
    {"PortUnicastXmitPkts", "unicast_xmit_pkts", 320, 64},
    {"PortUnicastRcvPkts", "unicast_rcv_pkts", 384, 64},
    {"PortMulticastXmitPkts", "multicast_xmit_pkts", 448, 64},
    {"PortMulticastRcvPkts", "multicast_rcv_pkts", 512, 64},
    {"CounterSelect2", "counter_select2", 32, 32, Fmt::Hex, kDetail},
    {"SymbolErrorCounter", "symbol_errors", 576, 64},
    {"LinkErrorRecoveryCounter", "link_error_recovery", 640, 64},
    {"LinkDownedCounter", "link_downed", 704, 64},
    {"PortRcvErrors", "rcv_errors", 768, 64},
    {"PortRcvRemotePhysicalErrors", "rcv_remote_physical_errors", 832, 64},
    {"PortRcvSwitchRelayErrors", "rcv_switch_relay_errors", 896, 64},
    {"PortXmitDiscards", "xmit_discards", 960, 64},
    {"PortXmitConstraintErrors", "xmit_constraint_errors", 1024, 64},
    {"PortRcvConstraintErrors", "rcv_constraint_errors", 1088, 64},
    {"LocalLinkIntegrityErrors", "local_link_integrity_errors", 1152, 64},
    {"ExcessiveBufferOverrunErrors", "excessive_buffer_overrun_errors", 1216, 64},
    {"VL15Dropped", "vl15_dropped", 1280, 64},
    {"PortXmitWait", "xmit_wait", 1344, 64},
    {"QP1Dropped", "qp1_dropped", 1408, 64},
};
constexpr size_t kPortCountersExtendedBase = 10;

}  // namespace

namespace {

// CounterSelect bit i of a PortCounters Set clears the counter at index i:
// the twelve error counters (ibqueryerrors checks them, in this order), then
// the four traffic counters. CounterSelect2 bit 0 is PortXmitWait.
constexpr const char* kCounterSelectNames[] = {
    "SymbolErrorCounter",
    "LinkErrorRecoveryCounter",
    "LinkDownedCounter",
    "PortRcvErrors",
    "PortRcvRemotePhysicalErrors",
    "PortRcvSwitchRelayErrors",
    "PortXmitDiscards",
    "PortXmitConstraintErrors",
    "PortRcvConstraintErrors",
    "LocalLinkIntegrityErrors",
    "ExcessiveBufferOverrunErrors",
    "VL15Dropped",
    "PortXmitData",
    "PortRcvData",
    "PortXmitPkts",
    "PortRcvPkts",
};
constexpr const char* kCounterSelectExtNames[] = {
    "PortXmitData",        "PortRcvData",        "PortXmitPkts",          "PortRcvPkts",
    "PortUnicastXmitPkts", "PortUnicastRcvPkts", "PortMulticastXmitPkts", "PortMulticastRcvPkts",
};

}  // namespace

std::span<const char* const> port_counters_select() {
  return kCounterSelectNames;
}
std::span<const char* const> port_counters_ext_select() {
  return kCounterSelectExtNames;
}

const AttrDef kClassPortInfo{"ClassPortInfo", 0x0001, kClassPerf, 72, kClassPortInfoFields};
const AttrDef kPortCounters{"PortCounters", 0x0012, kClassPerf, 44, kPortCountersFields};
const AttrDef kPortCountersExtended{
    "PortCountersExtended", 0x001d, kClassPerf, 72,
    std::span(kPortCountersExtendedFields).first(kPortCountersExtendedBase)};
const AttrDef kPortCountersExtendedFull{"PortCountersExtended", 0x001d, kClassPerf, 184,
                                        kPortCountersExtendedFields};

}  // namespace rdma::mad
