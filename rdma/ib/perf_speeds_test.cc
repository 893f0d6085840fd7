// rdma perf show's speeds and samples groups (PortExtendedSpeedsCounters in
// both layouts, PortSamplesControl), what ClassPortInfo's CapabilityMask2
// changes, and `port each`.
#include <algorithm>
#include <nlohmann/json.hpp>

#include "lib/mad/attrs_ext.h"
#include "lib/mad/attrs_pma.h"
#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

using mad::Mad;

// LID 2 is sw1, an 8-port switch: port p has p sync header errors, 10 * p
// detection errors on lane 1, and p + 100 corrected symbols on lane 2 (the
// RS-FEC layout's counter).
class PerfSpeedsTest : public madtest::MadCmd {
 protected:
  void SetUp() override {
    MadCmd::SetUp();
    for (int p = 1; p <= 8; ++p) {
      fabric_.set_counter(sw1(), p, "SyncHeaderErrorCounter", p);
      fabric_.set_counter(sw1(), p, "ErrorDetectionCounterLane1", 10 * p);
      fabric_.set_counter(sw1(), p, "FECUncorrectableBlockCtrLane11", 7);
      fabric_.set_counter(sw1(), p, "FECCorrectableSymbolCtrLane2", p + 100);
      fabric_.set_counter(sw1(), p, "PortFECCorrectedSymbolCtr", 1000 + p);
      fabric_.set_counter(sw1(), p, "SymbolErrorCounter", p);
      fabric_.set_counter(sw1(), p, "Tick", 0x20);
      fabric_.set_counter(sw1(), p, "SampleInterval", 5000);
    }
  }
  int sw1() const { return fabric_.node("sw1"); }

  std::vector<Mad> speeds_mads(uint8_t method) const {
    std::vector<Mad> out;
    for (const Mad& m : sent_)
      if (m.mgmt_class() == mad::kClassPerf &&
          m.get(mad::hdr::kAttrId) == mad::kPortExtendedSpeedsCounters.id &&
          m.get(mad::hdr::kMethod) == method)
        out.push_back(m);
    return out;
  }
  size_t smps_of(uint16_t id) const {
    return static_cast<size_t>(std::count_if(sent_.begin(), sent_.end(), [&](const Mad& m) {
      return m.mgmt_class() == mad::kClassSmiLid && m.get(mad::hdr::kAttrId) == id;
    }));
  }
};

TEST_F(PerfSpeedsTest, SpeedsDecodesThePlainLayoutWithoutRsFec) {
  madtest::Result r = run({"-j", "perf", "show", "lid", "2", "port", "3", "speeds"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["sync_header_errors"], 3);
  EXPECT_EQ(j[0]["unknown_blocks"], 0);
  EXPECT_EQ(j[0]["error_detection_lane1"], 30);
  EXPECT_EQ(j[0]["fec_uncorrectable_blocks_lane11"], 7);
  EXPECT_FALSE(j[0].contains("fec_correctable_symbols_lane2"));
  EXPECT_EQ(j[0].size(), 2u + 2 + 12 * 3);
  // No IsRSFECCountersSupported: no SMP asked for the FEC mode.
  EXPECT_EQ(smps_of(mad::kPortInfoExtended.id), 0u);
  r = run({"perf", "show", "lid", "2", "port", "3", "speeds"});
  EXPECT_EQ(r.out.rfind("lid 2: port 3 sync_header_errors 3 unknown_blocks 0 "
                        "error_detection_lane0 0 error_detection_lane1 30 ",
                        0),
            0u)
      << r.out;
}

TEST_F(PerfSpeedsTest, RsFecActiveGivesTheRsFecLayout) {
  node("sw1").rs_fec = true;
  madtest::Result r = run({"-j", "perf", "show", "lid", "2", "port", "4", "speeds"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out)[0];
  EXPECT_EQ(j["sync_header_errors"], 4);
  EXPECT_EQ(j["fec_correctable_symbols_lane2"], 104);
  EXPECT_EQ(j["fec_corrected_symbols"], 1004);
  EXPECT_FALSE(j.contains("error_detection_lane1"));
  EXPECT_EQ(j.size(), 2u + 2 + 12 + 3);
  EXPECT_EQ(smps_of(mad::kPortInfoExtended.id), 1u);
}

TEST_F(PerfSpeedsTest, ResetOfSpeedsSetsTheWholeSixtyFourBitCounterSelect) {
  madtest::Result r = run({"perf", "reset", "lid", "2", "port", "2", "speeds"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::vector<Mad> set = speeds_mads(mad::kSet);
  ASSERT_EQ(set.size(), 1u);
  EXPECT_EQ(set[0].get_attr(mad::kPortExtendedSpeedsCounters, "CounterSelect"), ~0ull);
  EXPECT_EQ(fabric_.counter(sw1(), 2, "ErrorDetectionCounterLane1"), 0u);
  EXPECT_EQ(fabric_.counter(sw1(), 2, "SymbolErrorCounter"), 2u);
  // A named one: its bit, lanes counted after the two port counters.
  r = run({"perf", "show", "lid", "2", "port", "5", "speeds", "reset", "error_detection_lane1",
           "fec_uncorrectable_blocks_lane11"});
  ASSERT_EQ(r.status, 0) << r.err;
  set = speeds_mads(mad::kSet);
  ASSERT_EQ(set.size(), 2u);
  EXPECT_EQ(set[1].get_attr(mad::kPortExtendedSpeedsCounters, "CounterSelect"),
            (1ull << 3) | (1ull << 37));
  EXPECT_EQ(fabric_.counter(sw1(), 5, "ErrorDetectionCounterLane1"), 0u);
  EXPECT_EQ(fabric_.counter(sw1(), 5, "FECUncorrectableBlockCtrLane11"), 0u);
  EXPECT_EQ(fabric_.counter(sw1(), 5, "SyncHeaderErrorCounter"), 5u);
}

TEST_F(PerfSpeedsTest, APmaWithoutSpeedsIsOneWarningPerPortTheOthersPrint) {
  node("sw1").pma_refused.insert(mad::kPortExtendedSpeedsCounters.id);
  madtest::Result r = run({"-j", "perf", "show", "lid", "2", "port", "1,2", "counters", "speeds"});
  EXPECT_EQ(r.status, 1);
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[1]["symbol_errors"], 2);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 2) << r.err;
  EXPECT_EQ(r.err.rfind("warning: lid 2 port 1: no PortExtendedSpeedsCounters: ", 0), 0u) << r.err;
}

TEST_F(PerfSpeedsTest, SamplesShowsTheSetUpAndTakesNoResetRatesOrMetrics) {
  madtest::Result r = run({"-j", "perf", "show", "lid", "2", "port", "3", "samples"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out)[0];
  EXPECT_EQ(j["tick"], "0x20");  // hex fields: strings in JSON too
  EXPECT_EQ(j["sample_interval"], 5000);
  EXPECT_EQ(j["counter_select14"], "0x0000");
  EXPECT_FALSE(j.contains("op_code"));  // with -d
  r = run({"perf", "show", "lid", "2", "port", "3", "samples"});
  EXPECT_NE(r.out.find(" tick 0x20 "), std::string::npos) << r.out;
  for (std::vector<std::string> bad : {
           std::vector<std::string>{"perf", "show", "lid", "2", "samples", "reset"},
           {"-w", "1", "perf", "show", "lid", "2", "samples"},
           {"--openmetrics", "perf", "show", "lid", "2", "samples"},
           {"perf", "reset", "lid", "2", "samples"},
           {"perf", "show", "lid", "2", "samples", "reset", "tick"},
       }) {
    sent_.clear();
    r = run(bad);
    EXPECT_NE(r.status, 0) << bad[1];
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(sent_.empty()) << bad[1];
  }
}

TEST_F(PerfSpeedsTest, CapabilityMask2GivesExtendedItsErrorCounters) {
  fabric_.set_counter(sw1(), 3, "SymbolErrorCounter", 0x12345);  // past PortCounters' 16 bits
  madtest::Result r = run({"-j", "perf", "show", "lid", "2", "port", "3", "extended"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(nlohmann::json::parse(r.out)[0].contains("symbol_errors"));
  node("sw1").additional_ext_counters = true;
  r = run({"-j", "perf", "show", "lid", "2", "port", "3", "counters", "extended"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out)[0];
  EXPECT_EQ(j["symbol_errors"], 0x12345);  // the 64-bit one, once
  EXPECT_EQ(j["qp1_dropped"], 0);
  r = run({"perf", "show", "lid", "2", "port", "3", "counters", "extended"});
  size_t first = r.out.find(" symbol_errors ");
  ASSERT_NE(first, std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(" symbol_errors ", first + 1), std::string::npos) << r.out;
}

TEST_F(PerfSpeedsTest, PortEachReadsEveryPortInTurnDespiteAllPortSelect) {
  madtest::Result r = run({"-j", "perf", "show", "lid", "2", "port", "each", "speeds"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.size(), 8u);
  EXPECT_EQ(j[7]["port"], 8);
  EXPECT_EQ(j[7]["sync_header_errors"], 8);
  std::vector<uint64_t> asked;
  for (const Mad& m : speeds_mads(mad::kGet))
    asked.push_back(m.get_attr(mad::kPortExtendedSpeedsCounters, "PortSelect"));
  EXPECT_EQ(asked, (std::vector<uint64_t>{1, 2, 3, 4, 5, 6, 7, 8}));
  // An enhanced port 0 comes first, as perfquery -l.
  node("sw1").enhanced_port0 = true;
  sent_.clear();
  r = run({"-j", "perf", "show", "lid", "2", "port", "each"});
  ASSERT_EQ(r.status, 0) << r.err;
  j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.size(), 9u);
  EXPECT_EQ(j[0]["port"], 0);
  // `port all` is still one AllPortSelect query.
  r = run({"-j", "perf", "show", "lid", "2", "port", "all"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out).size(), 1u);
}

TEST_F(PerfSpeedsTest, CapsNamesTheBitsOfBothMasks) {
  node("sw1").rs_fec = true;
  node("sw1").additional_ext_counters = true;
  madtest::Result r = run({"-j", "perf", "caps", "lid", "2"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["caps"], "0xc300");
  EXPECT_EQ(
      j[0]["caps_names"],
      "AllPortSelect,IsExtendedWidthSupported,IsRSFECCountersSupported,IsQP1DroppedSupported");
  EXPECT_EQ(j[0]["caps2"], "0x0000002");
  EXPECT_EQ(j[0]["caps2_names"], "IsAdditionalPortCountersExtendedSupported");
  EXPECT_EQ(j[0]["resp_time"], 18);
  EXPECT_FALSE(j[0].contains("redirect_lid"));  // with -d
  r = run({"perf", "caps", "lid", "2"});
  EXPECT_NE(r.out.find(" caps 0xc300 caps_names AllPortSelect,IsExtendedWidthSupported,"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(" caps2_names IsAdditionalPortCountersExtendedSupported resp_time 18"),
            std::string::npos)
      << r.out;
  // No CapabilityMask2 bit: no list.
  node("sw1").additional_ext_counters = false;
  r = run({"-j", "perf", "caps", "lid", "2"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(nlohmann::json::parse(r.out)[0].contains("caps2_names"));
  r = run({"perf", "caps", "lid", "2", "port", "1"});
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("unexpected argument \"port\""), std::string::npos) << r.err;
}

}  // namespace
}  // namespace rdma
