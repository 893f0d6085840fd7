// The optional performance management attributes (IBA 16.1.4, annex A10):
// PortRcvErrorDetails, PortXmitDiscardDetails, the op, flow control, per-VL,
// per-SL and congestion counters, PortExtendedSpeedsCounters; the sampling
// set-up PortSamplesControl; the capability bits that say which a PMA has.
// Each counter table's shown fields are its counters, in the order of their
// CounterSelect bits.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "lib/mad/field.h"

namespace rdma::mad {

extern const AttrDef kPortRcvErrorDetails;
extern const AttrDef kPortXmitDiscardDetails;
extern const AttrDef kPortOpRcvCounters;
extern const AttrDef kPortFlowCtlCounters;
extern const AttrDef kPortVLOpPackets;
extern const AttrDef kPortVLOpData;
extern const AttrDef kPortVLXmitFlowCtlUpdateErrors;
extern const AttrDef kPortVLXmitWaitCounters;
extern const AttrDef kSwPortVLCongestion;
extern const AttrDef kPortRcvConCtrl;
extern const AttrDef kPortSLRcvFECN;
extern const AttrDef kPortSLRcvBECN;
extern const AttrDef kPortXmitConCtrl;
extern const AttrDef kPortVLXmitTimeCong;
extern const AttrDef kPortXmitDataSL;
extern const AttrDef kPortRcvDataSL;

// PortCountersExtended with the error counters IBA 1.3 added (64-bit
// SymbolErrorCounter ... QP1Dropped), the layout a PMA whose CapabilityMask2
// has IsAdditionalPortCountersExtendedSupported answers with (same ID).
extern const AttrDef kPortCountersExtendedFull;

// PortExtendedSpeedsCounters (perfquery -T): per-lane error detection and
// FEC block counters; with RS-FEC active on the port the same attribute
// holds per-lane corrected symbols and per-port block counters instead.
extern const AttrDef kPortExtendedSpeedsCounters;
extern const AttrDef kPortExtendedSpeedsRsFecCounters;
// PortSamplesControl (perfquery -c): the sampling set-up, no counters.
extern const AttrDef kPortSamplesControl;
// The SMP attribute that says which FEC mode a port runs is
// kPortInfoExtended (attrs_ext.h).

// PMA ClassPortInfo CapabilityMask bits (IBA 16.1.3.1; AllPortSelect, bit 8,
// is kPmaCapAllPortSelect in attrs.h) and CapabilityMask2 bits.
inline constexpr uint16_t kPmaCapExtendedWidth = 1 << 9;
inline constexpr uint16_t kPmaCapExtendedWidthNoIetf = 1 << 10;
inline constexpr uint16_t kPmaCapSamplesOnly = 1 << 11;
inline constexpr uint16_t kPmaCapXmitWait = 1 << 12;
inline constexpr uint16_t kPmaCapInhibitLimitedPKeyMcastConstraint = 1 << 13;
inline constexpr uint16_t kPmaCapRsFecCounters = 1 << 14;
inline constexpr uint16_t kPmaCapQp1Dropped = 1 << 15;
inline constexpr uint32_t kPmaCap2PmKey = 1 << 0;
inline constexpr uint32_t kPmaCap2AdditionalExtCounters = 1 << 1;

// The names of the bits set in a PMA's CapabilityMask and CapabilityMask2
// (IBA names; an unnamed bit as "bitN"), in bit order, comma-separated.
std::string pma_caps_names(uint16_t caps);
std::string pma_caps2_names(uint32_t caps2);

// PortInfo CapabilityMask2 IsPortInfoExtendedSupported; PortInfoExtended
// CapabilityMask IsFECModeSupported and the FECModeActive values of RS-FEC
// (perfquery takes both RS-FEC and RS-FEC2 for the RS-FEC layout).
inline constexpr uint32_t kPortCap2PortInfoExtended = 1 << 1;
inline constexpr uint32_t kPortInfoExtCapFecMode = 1 << 0;
inline constexpr uint16_t kFecModeRs = 2, kFecModeRs2 = 4;

// Whether a port's PortInfoExtended (its bytes) says RS-FEC is active.
bool rs_fec_active(std::span<const uint8_t> port_info_ext);

// The CounterSelect bit that clears a's counter called name (IBA name) in a
// Set of these attributes: bit i is the i-th counter (the i-th VL or SL in
// the per-VL and per-SL ones, the i-th in PortExtendedSpeedsCounters' 64-bit
// CounterSelect); -1 for a field that is no counter of a, and for every
// field of the RS-FEC layout and of PortSamplesControl.
int counter_select_bit(const AttrDef& a, std::string_view name);

}  // namespace rdma::mad
