// The optional PMA attributes: fields at the offsets IBA 16.1.4 gives, the
// text labels and JSON keys they print under, and CounterSelect bits.
#include "lib/mad/attrs_pma.h"

#include <gtest/gtest.h>

#include <vector>

#include "lib/mad/attrs.h"
#include "lib/mad/format.h"

namespace rdma::mad {
namespace {

TEST(PmaAttrs, RcvErrorDetailsFieldsAtTheirOffsets) {
  std::vector<uint8_t> a(kPortRcvErrorDetails.bytes);
  a[1] = 3;                  // PortSelect
  a[4] = 0x01, a[5] = 0x02;  // PortLocalPhysicalErrors
  a[14] = 0x00, a[15] = 9;   // PortLoopingErrors, the last one
  EXPECT_EQ(get_field(kPortRcvErrorDetails, a, "PortSelect"), 3u);
  EXPECT_EQ(get_field(kPortRcvErrorDetails, a, "PortLocalPhysicalErrors"), 0x102u);
  EXPECT_EQ(get_field(kPortRcvErrorDetails, a, "PortLoopingErrors"), 9u);
  view::Record rec;
  decode(kPortRcvErrorDetails, a, 0, rec);
  std::string text;
  for (const view::Field& f : rec) text += f.text;
  EXPECT_EQ(text,
            "local_physical_errors 258 malformed_pkt_errors 0 buffer_overrun_errors 0 "
            "dlid_mapping_errors 0 vl_mapping_errors 0 looping_errors 9 ");
}

TEST(PmaAttrs, XmitDiscardDetailsAndVlXmitWait) {
  std::vector<uint8_t> a(kPortXmitDiscardDetails.bytes);
  a[10] = 0x12, a[11] = 0x34;
  EXPECT_EQ(get_field(kPortXmitDiscardDetails, a, "PortSwHOQLifetimeLimitDiscards"), 0x1234u);
  std::vector<uint8_t> w(kPortVLXmitWaitCounters.bytes);
  w[4 + 2 * 15] = 0xff, w[4 + 2 * 15 + 1] = 0xfe;  // VL15
  EXPECT_EQ(get_field(kPortVLXmitWaitCounters, w, "PortVLXmitWait15"), 0xfffeu);
  EXPECT_EQ(get_field(kPortVLXmitWaitCounters, w, "PortVLXmitWait14"), 0u);
  EXPECT_EQ(kPortVLXmitWaitCounters.id, 0x1c);
}

TEST(PmaAttrs, TwoBitFlowControlErrorsAndDataWords) {
  std::vector<uint8_t> a(kPortVLXmitFlowCtlUpdateErrors.bytes);
  a[4] = 0b00'11'10'01;  // MSB first: VL0 0, VL1 3, VL2 2, VL3 1
  EXPECT_EQ(get_field(kPortVLXmitFlowCtlUpdateErrors, a, "PortVLXmitFlowCtlUpdateErrors1"), 3u);
  EXPECT_EQ(get_field(kPortVLXmitFlowCtlUpdateErrors, a, "PortVLXmitFlowCtlUpdateErrors3"), 1u);
  // PortXmitDataSL counts 4-byte words, shown in bytes.
  EXPECT_EQ(find_field(kPortXmitDataSL, "PortXmitDataSL2")->fmt, Fmt::DataWords);
  EXPECT_EQ(find_field(kPortXmitDataSL, "PortXmitDataSL2")->bit, 32 + 64);
  EXPECT_STREQ(find_field(kPortXmitDataSL, "PortXmitDataSL2")->label, "xmit_sl2_bytes");
}

TEST(PmaAttrs, CounterSelectBitIsTheCountersPosition) {
  EXPECT_EQ(counter_select_bit(kPortRcvErrorDetails, "PortLocalPhysicalErrors"), 0);
  EXPECT_EQ(counter_select_bit(kPortRcvErrorDetails, "PortLoopingErrors"), 5);
  EXPECT_EQ(counter_select_bit(kPortVLXmitWaitCounters, "PortVLXmitWait15"), 15);
  EXPECT_EQ(counter_select_bit(kPortOpRcvCounters, "PortOpRcvData"), 1);  // OpCode is no counter
  EXPECT_EQ(counter_select_bit(kPortRcvErrorDetails, "PortSelect"), -1);
  EXPECT_EQ(counter_select_bit(kPortRcvErrorDetails, "NoSuchCounter"), -1);
}

TEST(PmaAttrs, EveryTableFitsItsAttribute) {
  for (const AttrDef* a :
       {&kPortRcvErrorDetails, &kPortXmitDiscardDetails, &kPortOpRcvCounters, &kPortFlowCtlCounters,
        &kPortVLOpPackets, &kPortVLOpData, &kPortVLXmitFlowCtlUpdateErrors,
        &kPortVLXmitWaitCounters, &kSwPortVLCongestion, &kPortRcvConCtrl, &kPortSLRcvFECN,
        &kPortSLRcvBECN, &kPortXmitConCtrl, &kPortVLXmitTimeCong, &kPortXmitDataSL,
        &kPortRcvDataSL}) {
    EXPECT_EQ(a->mgmt_class, kClassPerf);
    for (const FieldDef& f : a->fields) EXPECT_LE(f.bit + f.width, a->bytes * 8) << a->name;
  }
}

}  // namespace
}  // namespace rdma::mad
