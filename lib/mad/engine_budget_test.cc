// The sweep's time budget (Budget, man rdma TIME BOUND) on a virtual
// clock: whatever a fabric answers (late, lost, damaged, twice, nothing
// after a while), a budgeted sweep ends within base + per answer x the
// queries answered, every query ending once; a healthy fabric is never
// cut, nor a 1%-lossy one (here, and tests/ibsim/fault.sh on the
// simulator).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include "lib/mad/attrs.h"
#include "lib/mad/engine.h"
#include "lib/testing/fake_transport.h"

namespace rdma::mad {
namespace {

// How the fabric treats the n-th request it receives (from 1): answer after
// `delay` (or just under the try's timeout), damaged (another attribute:
// dropped as not answering), twice, or not at all.
struct BudgetSickness {
  uint64_t lose_every = 0;    // every m-th request unanswered
  uint64_t lose_percent = 0;  // each request unanswered by this chance
  uint64_t lose_after = 0;    // every request after the first N unanswered
  uint64_t damage_every = 0;  // every m-th reply another attribute's
  bool late = false;          // each reply 1 ms before its try times out
  bool twice = false;         // each reply comes twice
  std::chrono::microseconds delay{50};
};

class BudgetTransport : public Transport {
 public:
  using Ns = std::chrono::nanoseconds;
  explicit BudgetTransport(BudgetSickness s) : s_(s) {}

  void send(const Mad& m, const Address& to, int timeout_ms) override {
    ++n_;
    if (s_.lose_every && n_ % s_.lose_every == 0) return;
    // A fixed sequence (splitmix64 of the count), so losses fall on any
    // node, not on the one the round robin brings every m-th.
    uint64_t z = (n_ + 1) * 0x9e3779b97f4a7c15u;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    if (s_.lose_percent && (z ^ (z >> 31)) % 100 < s_.lose_percent) return;
    if (s_.lose_after && n_ > s_.lose_after) return;
    Mad answered = m;
    if (s_.damage_every && n_ % s_.damage_every == 0) answered.set(hdr::kAttrId, kSwitchInfo.id);
    Received r;
    r.bytes = reply_to(answered, std::vector<uint8_t>(64));
    r.slid = to.lid;
    Ns at = now_ + (s_.late ? Ns(std::chrono::milliseconds(timeout_ms - 1)) : Ns(s_.delay));
    due_.push({at, seq_++, r});
    if (s_.twice) due_.push({at + Ns(std::chrono::microseconds(10)), seq_++, r});
  }
  std::optional<Received> receive(int timeout_ms) override {
    Ns limit = now_ + std::chrono::milliseconds(timeout_ms);
    if (due_.empty() || due_.top().at > limit) {
      now_ = limit;
      return std::nullopt;
    }
    Due d = due_.top();
    due_.pop();
    now_ = std::max(now_, d.at);
    return d.r;
  }
  std::chrono::steady_clock::time_point now() const override {
    return std::chrono::steady_clock::time_point(now_);
  }
  double seconds() const { return std::chrono::duration<double>(now_).count(); }

 private:
  struct Due {
    Ns at;
    uint64_t seq;
    Received r;
    bool operator>(const Due& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };
  BudgetSickness s_;
  uint64_t n_ = 0;
  uint64_t seq_ = 0;
  Ns now_{0};
  std::priority_queue<Due, std::vector<Due>, std::greater<>> due_;
};

// The tool's session at the defaults (lib/ib/engine_config.cc).
EngineConfig budget_defaults() {
  EngineConfig c;
  c.timeout_ms = 1000;
  c.retries = 3;
  c.window = 256;
  c.per_node = kPerNode;
  c.give_up = kGiveUp;
  c.failing_tries = kFailingTries;
  return c;
}

const Budget kSweepBudget{.base_ms = 10000, .per_answer_us = 1000};

// A discovery-like sweep: `lids` nodes, each asked a chain of `chain`
// queries one after another (each answer, or failure, asks the next), so a
// query lost holds its chain, and only its chain: each node its own
// destination (smp_address; a bare Address{} would send all to LID 0, one
// destination whose per-node limit serialises the sweep behind each loss).
// Counts how each query ended.
struct BudgetSweep {
  size_t submitted = 0, answered = 0, failed = 0, budget_failures = 0;
  std::map<uint32_t, int> ends;  // each query's done calls, by modifier
};

void budget_chain(Engine& e, BudgetSweep& s, uint16_t lid, uint32_t mod, int left) {
  ++s.submitted;
  e.submit({make_smp({false, lid, {}}, kGet, kNodeDescription, mod), smp_address({false, lid, {}}),
            "NodeDescription from lid " + std::to_string(lid),
            [&e, &s, lid, mod, left](const Mad* r, const Failure* f) {
              ++s.ends[mod];
              if (r) ++s.answered;
              if (f) {
                ++s.failed;
                if (f->message.starts_with("time budget spent")) ++s.budget_failures;
              }
              if (left > 1) budget_chain(e, s, lid, mod + 1, left - 1);
            }});
}

BudgetSweep budget_sweep(Engine& e, int lids, int chain) {
  BudgetSweep s;
  for (int l = 1; l <= lids; ++l) budget_chain(e, s, static_cast<uint16_t>(l), l * 1000u, chain);
  e.run();
  return s;
}

// Base plus what the answers earned, and the loop's ceil to a millisecond.
double budget_allowed(const Budget& b, uint64_t answers) {
  return b.base_ms / 1e3 + answers * b.per_answer_us / 1e6 + 0.002;
}

// Answering at once or after 1 ms, or losing 1 in 100: a loss costs its
// own chain one timeout and the chains' losses overlap, so the lossy sweep
// ends in about the longest chain's losses in seconds, well within the
// budget (10 s + 4 s earned), not in one timeout per loss.
TEST(EngineBudget, AHealthyFabricIsNeverCut) {
  const std::vector<BudgetSickness> fabrics = {{.delay = std::chrono::microseconds(50)},
                                               {.delay = std::chrono::microseconds(1000)},
                                               {.lose_percent = 1}};
  for (const BudgetSickness& how : fabrics) {
    BudgetTransport t(how);
    Engine e(t, budget_defaults());
    e.set_budget(kSweepBudget);
    BudgetSweep s = budget_sweep(e, 100, 40);
    EXPECT_FALSE(e.stats().budget_spent);
    EXPECT_EQ(s.answered, 4000u);
    EXPECT_EQ(s.failed, 0u);
    EXPECT_TRUE(e.stats().gave_up_on.empty());
    EXPECT_LT(t.seconds(), 6.0);
    // The losses happened.
    if (how.lose_percent) {
      EXPECT_GT(e.stats().retried, 20u);
    }
  }
}

TEST(EngineBudget, WhateverTheFabricAnswersTheSweepEndsWithinIt) {
  const std::vector<std::pair<std::string, BudgetSickness>> sick = {
      {"every reply late", {.late = true}},
      {"late and twice", {.late = true, .twice = true}},
      {"every 2nd lost", {.lose_every = 2}},
      {"every 3rd lost, late", {.lose_every = 3, .late = true}},
      {"every 4th damaged, late", {.damage_every = 4, .late = true}},
      {"all lost after 300", {.lose_after = 300}},
      {"all lost after 300, late", {.lose_after = 300, .late = true}},
      {"every 5th lost, twice", {.lose_every = 5, .twice = true}},
      {"1 in 100 lost, late", {.lose_percent = 1, .late = true}},
  };
  for (const auto& [name, how] : sick) {
    BudgetTransport t(how);
    Engine e(t, budget_defaults());
    e.set_budget(kSweepBudget);
    BudgetSweep s = budget_sweep(e, 106, 60);
    const EngineStats& st = e.stats();
    // Within its budget: base and what the answers earned, at most one
    // per query asked.
    EXPECT_LE(t.seconds(), budget_allowed(kSweepBudget, st.answered + st.status_errors)) << name;
    EXPECT_LE(t.seconds(), budget_allowed(kSweepBudget, s.submitted)) << name;
    // Every query ended once, found what answered.
    EXPECT_EQ(s.answered + s.failed, s.submitted) << name;
    for (const auto& [mod, n] : s.ends) EXPECT_EQ(n, 1) << name << " query " << mod;
    EXPECT_GT(s.answered, 0u) << name;
    if (st.budget_spent) {
      EXPECT_GT(s.budget_failures, 0u) << name;
      EXPECT_NEAR(st.budget_seconds, 10 + st.budget_answers / 1e3, 1e-9) << name;
    }
  }
}

TEST(EngineBudget, WithoutOneALateFabricTakesLonger) {
  BudgetTransport t({.late = true});
  Engine e(t, budget_defaults());
  BudgetSweep s = budget_sweep(e, 20, 30);
  EXPECT_FALSE(e.stats().budget_spent);
  EXPECT_EQ(s.answered, 600u);
  EXPECT_GT(t.seconds(), 25.0);  // 30 answers a chain, 1 s each
}

TEST(EngineBudget, CountsFromWhenItIsSet) {
  BudgetTransport t({.late = true});
  Engine e(t, budget_defaults());
  budget_sweep(e, 1, 8);  // 8 s before the budget
  e.set_budget({.base_ms = 3000, .per_answer_us = 0});
  BudgetSweep s = budget_sweep(e, 1, 8);
  EXPECT_TRUE(e.stats().budget_spent);
  EXPECT_EQ(s.answered, 3u);  // at 999 ms each: the fourth would come past 3 s
  EXPECT_LE(t.seconds(), 8 + 3 + 0.002);
  // Spent: what a later step asks ends at once, unsent.
  uint64_t sent = e.stats().sent;
  BudgetSweep later = budget_sweep(e, 2, 1);
  EXPECT_EQ(later.budget_failures, 2u);
  EXPECT_EQ(e.stats().sent, sent);
}

}  // namespace
}  // namespace rdma::mad
