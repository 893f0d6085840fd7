#include "lib/ib/engine_config.h"

#include <chrono>

namespace rdma::ib {

mad::EngineConfig session_engine_config(int timeout_ms, int retries, size_t window,
                                        double deadline_s) {
  mad::EngineConfig cfg;
  cfg.timeout_ms = timeout_ms;
  cfg.retries = retries;
  cfg.window = window;
  cfg.per_node = mad::kPerNode;
  cfg.give_up = mad::kGiveUp;
  cfg.failing_tries = mad::kFailingTries;
  if (deadline_s > 0)
    cfg.deadline = std::chrono::steady_clock::now() +
                   std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                       std::chrono::duration<double>(deadline_s));
  return cfg;
}

mad::Budget sweep_budget(double deadline_s) {
  if (deadline_s > 0) return {};
  return {.base_ms = kBudgetBaseMs, .per_answer_us = kBudgetPerAnswerUs};
}

}  // namespace rdma::ib
