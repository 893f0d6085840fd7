// The optional performance management attributes (IBA 16.1.4, annex A10):
// PortRcvErrorDetails, PortXmitDiscardDetails, the op, flow control, per-VL,
// per-SL and congestion counters. Each table's shown fields are its
// counters, in the order of their CounterSelect bits.
#pragma once

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

// The CounterSelect bit that clears a's counter called name (IBA name) in a
// Set of these attributes: bit i is the i-th counter (the i-th VL or SL in
// the per-VL and per-SL ones); -1 for a field that is no counter of a.
int counter_select_bit(const AttrDef& a, std::string_view name);

}  // namespace rdma::mad
