#include "lib/ib/port_verdicts.h"

#include <gtest/gtest.h>

#include "lib/ib/pma.h"
#include "lib/mad/bits.h"

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
  ASSERT_EQ(v.size(), 2u);  // no counters: no errors verdict
  for (const PortVerdict& one : v) EXPECT_TRUE(one.ok) << one.check << ": " << one.reason;
  EXPECT_EQ(v[0].check, "state");
  EXPECT_EQ(v[1].check, "width");
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
  ASSERT_EQ(v.size(), 2u);
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
  PortChecks errors_only{false, false, true};
  std::vector<PortVerdict> v = judge_port(5, 1, active_4x(), &pc, o, errors_only);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_FALSE(v[0].ok);
  EXPECT_EQ(v[0].reason, "errors: SymbolErrorCounter 12 over 10");
  o.thresholds.set("SymbolErrorCounter", 12);  // over, not at
  EXPECT_TRUE(judge_port(5, 1, active_4x(), &pc, o, errors_only)[0].ok);
}

}  // namespace
}  // namespace rdma::ib
