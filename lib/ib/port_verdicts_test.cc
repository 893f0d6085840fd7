#include "lib/ib/port_verdicts.h"

#include <gtest/gtest.h>

#include "lib/ib/pma.h"
#include "lib/mad/bits.h"
#include "lib/mad/speed.h"

namespace rdma::ib {
namespace {

PortInfo active_4x() {
  PortInfo p;
  p.state = kPortActive;
  p.phys_state = kPhysLinkUp;
  p.width_enabled = 2;    // 4X
  p.width_supported = 3;  // 1X, 4X
  p.width_active = 2;
  return p;
}

TEST(PortVerdicts, AHealthyPortIsOkForEveryCheck) {
  std::vector<PortVerdict> v = judge_port(5, 1, active_4x(), nullptr, {}, {});
  ASSERT_EQ(v.size(), 3u);  // no counters: no errors verdict
  for (const PortVerdict& one : v) EXPECT_TRUE(one.ok) << one.check << ": " << one.reason;
  EXPECT_EQ(v[0].check, "state");
  EXPECT_EQ(v[1].check, "width");
  EXPECT_EQ(v[2].check, "speed");
}

TEST(PortVerdicts, DownAndNarrowSayWhatWasExpected) {
  PortInfo p = active_4x();
  p.state = kPortDown;
  p.phys_state = 2;    // Polling
  p.width_active = 1;  // 1X
  // A port whose link is down runs at no width: no width verdict.
  std::vector<PortVerdict> v = judge_port(5, 1, p, nullptr, {}, {});
  ASSERT_EQ(v.size(), 1u);
  EXPECT_FALSE(v[0].ok);
  EXPECT_EQ(v[0].reason, "state DOWN, physical state POLLING (expected ACTIVE, LINK_UP)");
  p.state = kPortActive;
  p.phys_state = kPhysLinkUp;
  v = judge_port(5, 1, p, nullptr, {}, {});
  ASSERT_EQ(v.size(), 3u);
  EXPECT_TRUE(v[0].ok);
  EXPECT_FALSE(v[1].ok);
  EXPECT_EQ(v[1].reason, "width 1X (enabled 4X)");
  // Active with its physical link disabled (ibsim's disabled port): not ok.
  p.phys_state = 3;
  EXPECT_EQ(judge_port(5, 1, p, nullptr, {}, {.width = false})[0].reason,
            "state ACTIVE, physical state DISABLED (expected ACTIVE, LINK_UP)");
  // Enabled for 1X or 4X, running 1X: still below the widest enabled.
  p.width_enabled = 3;
  EXPECT_FALSE(judge_port(5, 1, p, nullptr, {}, {.state = false})[0].ok);
  // A port enabled only for 1X runs as asked.
  p.width_enabled = 1;
  EXPECT_TRUE(judge_port(5, 1, p, nullptr, {}, {.state = false})[0].ok);
}

TEST(PortVerdicts, ErrorsAreOverTheThresholdsOfFabricErrors) {
  PortCounters pc;
  pc.pc.resize(port_counters().bytes);
  const mad::FieldDef* symbol = error_counter("SymbolErrorCounter");
  ASSERT_NE(symbol, nullptr);
  mad::set_bits(pc.pc, symbol->bit, symbol->width, 12);
  SweepOptions o;
  o.thresholds.set("SymbolErrorCounter", 10);
  PortChecks errors_only{.state = false, .width = false, .speed = false};
  std::vector<PortVerdict> v = judge_port(5, 1, active_4x(), &pc, o, errors_only);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_FALSE(v[0].ok);
  EXPECT_EQ(v[0].reason, "errors: SymbolErrorCounter 12 over 10");
  o.thresholds.set("SymbolErrorCounter", 12);  // over, not at
  EXPECT_TRUE(judge_port(5, 1, active_4x(), &pc, o, errors_only)[0].ok);
}

PortInfo active_speeds(uint8_t enabled, uint8_t supported, uint8_t active) {
  PortInfo p = active_4x();
  p.speed_enabled = enabled;
  p.speed_supported = supported;
  p.speed_active = active;
  return p;
}

constexpr PortChecks kSpeedOnly{.state = false, .width = false, .errors = false};

TEST(PortVerdicts, SpeedBelowTheFastestEnabledFails) {
  // Enabled SDR to QDR, running SDR (the peer enables SDR only).
  PortInfo p = active_speeds(7, 7, 1);
  std::vector<PortVerdict> v = judge_port(5, 1, p, nullptr, {}, kSpeedOnly);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].check, "speed");
  EXPECT_FALSE(v[0].ok);
  EXPECT_EQ(v[0].reason, "speed SDR (enabled QDR)");
  // Enabled for QDR that it does not support: DDR is its best.
  p = active_speeds(7, 3, 2);
  EXPECT_TRUE(judge_port(5, 1, p, nullptr, {}, kSpeedOnly)[0].ok);
  // Enabled for SDR only, running SDR: as asked.
  p = active_speeds(1, 7, 1);
  EXPECT_TRUE(judge_port(5, 1, p, nullptr, {}, kSpeedOnly)[0].ok);
  // A link that is not up has no speed verdict.
  p.state = kPortDown;
  EXPECT_TRUE(judge_port(5, 1, p, nullptr, {}, kSpeedOnly).empty());
}

TEST(PortVerdicts, ExtendedSpeedsCountWhereTheMasksVouch) {
  // EDR enabled and supported, running FDR: below, when the capability
  // mask vouches for the extended fields.
  PortInfo p = active_speeds(7, 7, 4);
  p.caps = mad::kCapExtendedSpeeds;
  p.speed_ext_enabled = 3;
  p.speed_ext_supported = 3;
  p.speed_ext_active = 1;
  std::vector<PortVerdict> v = judge_port(5, 1, p, nullptr, {}, kSpeedOnly);
  EXPECT_EQ(v.at(0).reason, "speed FDR (enabled EDR)");
  p.speed_ext_active = 2;
  EXPECT_TRUE(judge_port(5, 1, p, nullptr, {}, kSpeedOnly).at(0).ok);
  // A switch's external port: its own mask is reserved, port 0's vouches.
  p.speed_ext_active = 1;
  PortInfo port0;
  port0.caps = mad::kCapExtendedSpeeds;
  p.caps = 0;
  EXPECT_FALSE(judge_port(5, 1, p, nullptr, {}, kSpeedOnly, &port0).at(0).ok);
  // Without a mask that vouches, the base speeds judge: QDR of QDR.
  EXPECT_TRUE(judge_port(5, 1, p, nullptr, {}, kSpeedOnly).at(0).ok);
  // Extended speeds disabled (LinkSpeedExtEnabled's Disable value): the
  // base speeds judge too.
  p.caps = mad::kCapExtendedSpeeds;
  p.speed_ext_enabled = mad::kSpeedExtDisable;
  p.speed_ext_active = 0;
  EXPECT_TRUE(judge_port(5, 1, p, nullptr, {}, kSpeedOnly).at(0).ok);
}

}  // namespace
}  // namespace rdma::ib
