// The engine of the tool's sessions: what the user asked (--timeout,
// --retries, --window, --deadline) over lib/mad's per-node limits, so the
// front end sets no engine constant of its own.
#pragma once

#include <cstddef>

#include "lib/mad/engine.h"

namespace rdma::ib {

// timeout_ms, retries and window as given; kPerNode MADs in flight to one
// node, a node given up on after kGiveUp unanswered queries' worth of
// tries in a row or half of its last 2 x kGiveUp queries' worth
// unanswered (mad::give_up_window), a failing sweep judged by its last
// kFailingTries tries (not retried while it fails); the deadline
// deadline_s seconds from now (0: none).
mad::EngineConfig session_engine_config(int timeout_ms, int retries, size_t window,
                                        double deadline_s);

// A fabric-wide command's time budget (mad::Budget), set as its discovery
// starts: kBudgetBaseMs plus kBudgetPerAnswerUs for every query answered,
// so that a sick fabric, whatever it answers, ends the command within
// seconds (the 106-node tree within 30 s at the defaults), while a healthy
// one, which spends a few to 150 us an answer, is never cut (5,000 nodes
// at 1 ms a SMP: 0.19 s of 61; man rdma, TIME BOUND). None when the user
// gave --deadline (deadline_s > 0): that is the cap then.
inline constexpr int kBudgetBaseMs = 10000;
inline constexpr int kBudgetPerAnswerUs = 1000;
mad::Budget sweep_budget(double deadline_s);

}  // namespace rdma::ib
