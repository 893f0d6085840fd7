#include "lib/ib/engine_config.h"

#include <gtest/gtest.h>

#include <chrono>

namespace rdma::ib {
namespace {

TEST(SessionEngineConfig, AskedValuesOverThePerNodeLimits) {
  mad::EngineConfig cfg = session_engine_config(250, 1, 16, 0);
  EXPECT_EQ(cfg.timeout_ms, 250);
  EXPECT_EQ(cfg.retries, 1);
  EXPECT_EQ(cfg.window, 16u);
  EXPECT_EQ(cfg.per_node, mad::kPerNode);
  EXPECT_EQ(cfg.give_up, mad::kGiveUp);
  EXPECT_EQ(cfg.failing_tries, mad::kFailingTries);  // a failing sweep is not retried
  EXPECT_FALSE(cfg.deadline);                        // 0: no deadline
}

TEST(SessionEngineConfig, DeadlineFromNow) {
  auto before = std::chrono::steady_clock::now();
  mad::EngineConfig cfg = session_engine_config(1000, 3, 8, 2.5);
  auto after = std::chrono::steady_clock::now();
  ASSERT_TRUE(cfg.deadline);
  EXPECT_GE(*cfg.deadline, before + std::chrono::milliseconds(2500));
  EXPECT_LE(*cfg.deadline, after + std::chrono::milliseconds(2500));
}

// A fabric-wide command's budget at the defaults, and the bound it gives
// (man rdma, TIME BOUND: base + 1 ms for each query answered, each
// answered once at most) on the 106-node fat tree of tests/ibsim/fault.sh:
// 24 switches of 36 ports, 82 CAs, P = 24 x 37 + 82 ports reached.
TEST(SweepBudget, TheSickFabricBoundAtTheDefaults) {
  mad::Budget b = sweep_budget(0);
  EXPECT_EQ(b.base_ms, kBudgetBaseMs);
  EXPECT_EQ(b.per_answer_us, kBudgetPerAnswerUs);
  const double n = 106, p = 24 * 37 + 82;
  const double discovery = 4 * p + n + 2, errors = 2 * n + 4 * p;
  auto bound = [&b](double queries) { return b.base_ms / 1e3 + queries * b.per_answer_us / 1e6; };
  EXPECT_NEAR(bound(discovery), 13.988, 1e-9);
  EXPECT_LT(bound(discovery + errors), 30.0);
  // And a healthy 5,000-node fabric at 1 ms a SMP (bench/latency_results.md:
  // 51,186 MADs in 0.19 s) is far from it.
  EXPECT_GT(bound(51186), 60.0);
}

TEST(SweepBudget, NoneUnderADeadline) {
  mad::Budget b = sweep_budget(2.5);
  EXPECT_EQ(b.base_ms, 0);  // --deadline is the cap
}

}  // namespace
}  // namespace rdma::ib
