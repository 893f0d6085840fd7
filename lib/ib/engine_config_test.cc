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

}  // namespace
}  // namespace rdma::ib
