// The optional PMA attributes: fields at the offsets IBA 16.1.4 gives, the
// text labels and JSON keys they print under, and CounterSelect bits.
#include "lib/mad/attrs_pma.h"

#include <gtest/gtest.h>

#include <vector>

#include "lib/mad/attrs.h"
#include "lib/mad/attrs_ext.h"
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

TEST(PmaAttrs, ExtendedSpeedsCountersInBothLayouts) {
  EXPECT_EQ(kPortExtendedSpeedsCounters.id, 0x1f);
  EXPECT_EQ(kPortExtendedSpeedsRsFecCounters.id, 0x1f);
  std::vector<uint8_t> a(kPortExtendedSpeedsRsFecCounters.bytes);
  a[8] = 0x80, a[15] = 1;        // CounterSelect, 64 bits at byte 8
  a[16] = 0x00, a[17] = 5;       // SyncHeaderErrorCounter
  a[44 + 4 * 11 + 3] = 9;        // lane 11's last counter: byte 44 + 4 * 11
  a[148] = 0x01, a[151] = 0x02;  // PortFECCorrectedSymbolCtr, the last one
  EXPECT_EQ(get_field(kPortExtendedSpeedsCounters, a, "CounterSelect"), 0x8000000000000001u);
  EXPECT_EQ(get_field(kPortExtendedSpeedsCounters, a, "SyncHeaderErrorCounter"), 5u);
  EXPECT_EQ(get_field(kPortExtendedSpeedsCounters, a, "FECCorrectableBlockCtrLane11"), 9u);
  EXPECT_EQ(get_field(kPortExtendedSpeedsRsFecCounters, a, "FECCorrectableSymbolCtrLane11"), 9u);
  EXPECT_EQ(get_field(kPortExtendedSpeedsRsFecCounters, a, "PortFECCorrectedSymbolCtr"),
            0x01000002u);
  EXPECT_EQ(find_field(kPortExtendedSpeedsCounters, "FECUncorrectableBlockCtrLane11")->bit + 32,
            kPortExtendedSpeedsCounters.bytes * 8);
  // CounterSelect bits: the counters in order, past 16 here; none for RS-FEC.
  EXPECT_EQ(counter_select_bit(kPortExtendedSpeedsCounters, "FECUncorrectableBlockCtrLane11"), 37);
  EXPECT_EQ(counter_select_bit(kPortExtendedSpeedsRsFecCounters, "SyncHeaderErrorCounter"), -1);
  EXPECT_EQ(counter_select_bit(kPortSamplesControl, "Tick"), -1);
}

TEST(PmaAttrs, SamplesControlAndPortInfoExtended) {
  std::vector<uint8_t> a(kPortSamplesControl.bytes);
  a[2] = 0x20;                // Tick
  a[3] = 0x05;                // CounterWidth: the low 3 bits
  a[11] = 0x02;               // SampleStatus: the low 2 bits of byte 11
  a[36] = 0xab, a[37] = 1;    // Tag
  a[66] = 0xff, a[67] = 0xf;  // CounterSelect14
  EXPECT_EQ(get_field(kPortSamplesControl, a, "Tick"), 0x20u);
  EXPECT_EQ(get_field(kPortSamplesControl, a, "CounterWidth"), 5u);
  EXPECT_EQ(get_field(kPortSamplesControl, a, "SampleStatus"), 2u);
  EXPECT_EQ(get_field(kPortSamplesControl, a, "Tag"), 0xab01u);
  EXPECT_EQ(get_field(kPortSamplesControl, a, "CounterSelect14"), 0xff0fu);
  view::Record rec;
  decode(kPortSamplesControl, a, 0, rec);
  std::string text;
  for (const view::Field& f : rec) text += f.text;
  EXPECT_EQ(text.rfind("tick 0x20 counter_width 5 ", 0), 0u) << text;

  std::vector<uint8_t> pie(kPortInfoExtended.bytes);
  EXPECT_FALSE(rs_fec_active(pie));
  pie[3] = 1;  // IsFECModeSupported
  pie[5] = kFecModeRs;
  EXPECT_TRUE(rs_fec_active(pie));
  pie[5] = kFecModeRs2;
  EXPECT_TRUE(rs_fec_active(pie));
  pie[5] = 3;  // low-latency RS-FEC: not for perfquery
  EXPECT_FALSE(rs_fec_active(pie));
  pie[3] = 0, pie[5] = kFecModeRs;  // FECModeActive not to be trusted
  EXPECT_FALSE(rs_fec_active(pie));
}

TEST(PmaAttrs, CapabilityBitNames) {
  EXPECT_EQ(pma_caps_names(0), "");
  EXPECT_EQ(pma_caps_names(kPmaCapAllPortSelect | kPmaCapQp1Dropped | 1),
            "bit0,AllPortSelect,IsQP1DroppedSupported");
  EXPECT_EQ(pma_caps2_names(kPmaCap2PmKey | kPmaCap2AdditionalExtCounters | (1 << 26)),
            "IsPMKeySupported,IsAdditionalPortCountersExtendedSupported,bit26");
  // PortCountersExtended's fuller layout: the error counters after the data.
  EXPECT_EQ(find_field(kPortCountersExtendedFull, "QP1Dropped")->bit + 64,
            kPortCountersExtendedFull.bytes * 8);
  EXPECT_STREQ(find_field(kPortCountersExtendedFull, "SymbolErrorCounter")->label, "symbol_errors");
}

}  // namespace
}  // namespace rdma::mad
