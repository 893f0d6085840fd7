// rdma(8)'s TIME BOUND on a virtual clock: a step of Q queries, at most C
// to one node, in chains of L, ends within (Q/W + C/k + L) x T, T = (R+1) x t,
// even when every node answers each query only at its last try, just
// before it times out (the worst a node can do and still be believed).
#include <gtest/gtest.h>

#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "lib/mad/attrs.h"
#include "lib/mad/engine.h"
#include "lib/testing/fake_transport.h"

namespace rdma::mad {
namespace {

// Ignores every try of a query (a LID and an attribute modifier) but the
// last, which it answers 1 ms before that try's timeout. Every try has the
// same timeout (nothing is learned from NodeDescription), so the answers
// fall due in the order sent: a queue, not a heap.
class LastTryTransport : public Transport {
 public:
  using Ns = std::chrono::nanoseconds;
  explicit LastTryTransport(int tries) : tries_(tries) {}
  std::map<uint16_t, int> in_flight, max_in_flight;
  std::set<int> timeouts;   // as sent
  std::set<uint16_t> dead;  // never answer
  // The tries each query needs from now on (a fabric that heals: 1).
  void need_tries(int tries) { tries_ = tries; }

  void send(const Mad& m, const Address& to, int timeout_ms) override {
    timeouts.insert(timeout_ms);
    if (dead.count(to.lid)) return;
    auto key = std::make_pair(to.lid, static_cast<uint32_t>(m.get(hdr::kAttrMod)));
    if (++tries_of_[key] < tries_) return;  // lost; the engine times it out
    int& n = in_flight[to.lid];
    max_in_flight[to.lid] = std::max(max_in_flight[to.lid], ++n);
    Received r;
    r.bytes = reply_to(m, std::vector<uint8_t>(64));
    r.slid = to.lid;
    due_.push_back({now_ + std::chrono::milliseconds(timeout_ms - 1), std::move(r)});
  }
  std::optional<Received> receive(int timeout_ms) override {
    Ns limit = now_ + std::chrono::milliseconds(timeout_ms);
    if (due_.empty() || due_.front().first > limit) {
      now_ = limit;
      return std::nullopt;
    }
    auto [at, r] = std::move(due_.front());
    due_.pop_front();
    now_ = std::max(now_, at);
    --in_flight[r.slid];
    return r;
  }
  std::chrono::steady_clock::time_point now() const override {
    return std::chrono::steady_clock::time_point(now_);
  }
  double seconds() const { return std::chrono::duration<double>(now_).count(); }

 private:
  int tries_;
  Ns now_{0};
  std::map<std::pair<uint16_t, uint32_t>, int> tries_of_;
  std::deque<std::pair<Ns, Received>> due_;
};

// NodeDescription Gets (no timeout is learned from them), `per_lid[lid]`
// to each LID, each query a modifier of its own; answered ones counted.
size_t ask_bound_lids(Engine& e, const std::map<uint16_t, int>& per_lid) {
  size_t answered = 0;
  uint32_t mod = 0;
  for (const auto& [lid, n] : per_lid)
    for (int i = 0; i < n; ++i)
      e.submit({make_smp({false, lid, {}}, kGet, kNodeDescription, ++mod),
                smp_address({false, lid, {}}), "query",
                [&answered](const Mad* r, const Failure*) { answered += r != nullptr; }});
  e.run();
  return answered;
}

TEST(EngineBound, ABusyNodeThatAnswersLastCostsCOverKQueriesInARow) {
  // One switch asked 40 queries (a PortInfo sweep), 60 nodes one each.
  const int t_ms = 100, retries = 3;
  const double T = (retries + 1) * t_ms / 1000.0;
  LastTryTransport tr(retries + 1);
  Engine e(tr, {.timeout_ms = t_ms, .retries = retries, .window = 8, .per_node = kPerNode});
  std::map<uint16_t, int> per_lid{{1, 40}};
  for (uint16_t lid = 2; lid <= 61; ++lid) per_lid[lid] = 1;
  ASSERT_EQ(ask_bound_lids(e, per_lid), 100u);
  const double Q = 100, W = 8, C = 40, k = kPerNode, L = 1;
  EXPECT_LE(tr.seconds(), (Q / W + C / k + L) * T);
  // The C/k term is real: the window alone ((Q/W + 1) x T, the bound
  // before per-node limits) is not enough for this node.
  EXPECT_GT(tr.seconds(), (Q / W + 1) * T);
  EXPECT_GE(tr.seconds(), (C / k) * T * 0.9);
  EXPECT_EQ(tr.max_in_flight[1], static_cast<int>(kPerNode));
  EXPECT_EQ(e.stats().retried, 100u * retries);
  EXPECT_EQ(tr.timeouts, std::set<int>{t_ms});
}

TEST(EngineBound, ManyNodesThatAnswerLastAreBoundByTheWindow) {
  const int t_ms = 50, retries = 2;
  const double T = (retries + 1) * t_ms / 1000.0;
  LastTryTransport tr(retries + 1);
  Engine e(tr, {.timeout_ms = t_ms, .retries = retries, .window = 4, .per_node = kPerNode});
  std::map<uint16_t, int> per_lid;
  for (uint16_t lid = 1; lid <= 10; ++lid) per_lid[lid] = 6;
  ASSERT_EQ(ask_bound_lids(e, per_lid), 60u);
  const double Q = 60, W = 4, C = 6, k = kPerNode, L = 1;
  EXPECT_LE(tr.seconds(), (Q / W + C / k + L) * T);
  EXPECT_GE(tr.seconds(), (Q / W) * T * 0.9);  // the window is the limit here
}

// With give_up (the tool's sessions), a node that answers each query only
// at its last try is given up on once its unanswered tries make two
// queries' worth: the C/k term of the bound is gone, what is left of that
// node costs T twice at most (two queries in flight, each at its last try).
TEST(EngineBound, ANodeThatAnswersOnlyAtItsLastTryIsGivenUpOn) {
  const int t_ms = 1000, retries = 3;
  const double T = (retries + 1) * t_ms / 1000.0;
  LastTryTransport tr(retries + 1);
  Engine e(tr, {.timeout_ms = t_ms,
                .retries = retries,
                .window = 8,
                .per_node = kPerNode,
                .give_up = kGiveUp});
  std::map<uint16_t, int> per_lid{{1, 40}};
  for (uint16_t lid = 2; lid <= 61; ++lid) per_lid[lid] = 1;
  size_t answered = ask_bound_lids(e, per_lid);
  // The 60 others at their last try, 8 at a time: 8 rounds of T. Node 1's
  // first 3 queries (9 tries unanswered); the 4th, in flight, ended with
  // them, and its other 36 unsent, in the first 2 T.
  EXPECT_EQ(answered, 60u + 3u);
  EXPECT_EQ(e.stats().given_up, 37u);
  EXPECT_EQ(e.stats().gave_up_on, std::vector<std::string>{"lid 1"});
  EXPECT_LE(tr.seconds(), (60 / 8.0 + 1 + 2) * T);
  EXPECT_EQ(tr.max_in_flight[1], static_cast<int>(kPerNode));
}

// The tool's sessions' engine (rdma/ib/session.cc) with timeout t_ms,
// 3 retries and failing_tries as given.
EngineConfig sick_config(int t_ms, int failing_tries) {
  return {.timeout_ms = t_ms,
          .retries = 3,
          .window = 256,
          .per_node = kPerNode,
          .give_up = kGiveUp,
          .failing_tries = failing_tries};
}
// One query to each LID from `first` to `last`.
std::map<uint16_t, int> one_query_each(uint16_t first, uint16_t last) {
  std::map<uint16_t, int> per_lid;
  for (uint16_t lid = first; lid <= last; ++lid) per_lid[lid] = 1;
  return per_lid;
}

// A sick fabric: every node answers each query only at its last try, and a
// command's steps come one after another (discovery's waves, a sweep after
// discovery), each waiting for its slowest query. Without failing_tries
// each step costs T = (R+1) x t; with it, once half of the last tries
// went unanswered the sweep is failing and no try is retried: the first
// step 2t (the tries that judged it were retried once), each other t.
struct ChainedSteps {
  double seconds = 0;
  size_t answered = 0;
  EngineStats stats;
};
ChainedSteps chained_steps(int failing_tries, int steps, int per_step) {
  LastTryTransport tr(4);
  Engine e(tr, sick_config(1000, failing_tries));
  ChainedSteps out;
  uint16_t lid = 0;
  for (int s = 0; s < steps; ++s, lid += per_step)
    out.answered += ask_bound_lids(e, one_query_each(lid + 1, lid + per_step));
  out.seconds = tr.seconds();
  out.stats = e.stats();
  return out;
}

TEST(EngineBound, AFailingSweepCostsEachStepOneTimeout) {
  const double t = 1, T = 4 * t;
  ChainedSteps sick = chained_steps(kFailingTries, 6, 40);
  EXPECT_LE(sick.seconds, (6 + 1) * t + 0.01);
  EXPECT_EQ(sick.answered, 0u);  // what it found is what answered at once: nothing
  EXPECT_EQ(sick.stats.timeouts, 240u);
  // The 31 tries before the judgement were retried once; every other query
  // ended at its first try.
  EXPECT_EQ(sick.stats.retried, 31u);
  EXPECT_EQ(sick.stats.not_retried, 240u);
  EXPECT_EQ(sick.stats.not_retried_text(),
            "240 queries not retried: most tries of the sweep went unanswered");
  // The engine before (and bench/'s model of other tools): T a step.
  ChainedSteps before = chained_steps(0, 6, 40);
  EXPECT_GE(before.seconds, 6 * T * 0.99);
  EXPECT_EQ(before.answered, 240u);
  EXPECT_EQ(before.stats.not_retried, 0u);
}

// While the sweep is failing a node is given up on after two queries
// unanswered in a row (one try each): a switch's sweep costs t twice, k at
// a time, not C/k timeouts.
TEST(EngineBound, InAFailingSweepTwoQueriesUnansweredGiveANodeUp) {
  LastTryTransport tr(4);
  Engine e(tr, sick_config(1000, kFailingTries));
  EXPECT_EQ(ask_bound_lids(e, one_query_each(1, 40)), 0u);  // failing from here
  EXPECT_TRUE(e.stats().gave_up_on.empty());                // one query each
  double before = tr.seconds();
  EXPECT_EQ(ask_bound_lids(e, {{500, 39}}), 0u);
  EXPECT_EQ(e.stats().gave_up_on, std::vector<std::string>{"lid 500"});
  EXPECT_EQ(e.stats().given_up, 37u);
  EXPECT_LE(tr.seconds() - before, 1.01);
}

// A few dead nodes among many that answer are not a failing sweep: their
// queries get every try. And a fabric that heals is retried again: the
// judgement is of the last tries, not for good.
TEST(EngineBound, DeadNodesAmongLiveOnesAreRetried) {
  LastTryTransport tr(1);
  tr.dead = {10, 20, 30};
  Engine e(tr, sick_config(100, kFailingTries));
  EXPECT_EQ(ask_bound_lids(e, one_query_each(1, 100)), 97u);
  EXPECT_EQ(e.stats().retried, 9u);
  EXPECT_EQ(e.stats().not_retried, 0u);

  tr.need_tries(4);  // sick: only the last try answered
  EXPECT_EQ(ask_bound_lids(e, one_query_each(101, 140)), 0u);
  EXPECT_GT(e.stats().not_retried, 0u);

  tr.need_tries(1);  // healed: 40 answered at once clear the judgement
  EXPECT_EQ(ask_bound_lids(e, one_query_each(141, 180)), 40u);
  uint64_t cut = e.stats().not_retried;
  EXPECT_EQ(ask_bound_lids(e, {{10, 1}}), 0u);
  EXPECT_EQ(e.stats().not_retried, cut);
  EXPECT_EQ(e.stats().timeouts, 3u + 40u + 1u);
}

// A node that answers some queries and leaves the others unanswered for
// every try: the i-th query it is asked (counted from 0, by attribute
// modifier, whatever the try) is left unanswered when silent(i); the
// others are answered answer_ms after they are sent (at once, or just
// before the timeout: the slowest answer still believed).
class PatternTransport : public Transport {
 public:
  using Ns = std::chrono::nanoseconds;
  PatternTransport(std::function<bool(int)> silent, int answer_ms)
      : silent_(std::move(silent)), answer_(answer_ms) {}
  int max_in_flight = 0;

  void send(const Mad& m, const Address&, int timeout_ms) override {
    uint32_t mod = static_cast<uint32_t>(m.get(hdr::kAttrMod));
    auto it = index_.try_emplace(mod, static_cast<int>(index_.size())).first;
    max_in_flight = std::max(max_in_flight, ++in_flight_);
    if (silent_(it->second)) {  // freed once the engine timed it out
      lost_.push_back(now_ + std::chrono::milliseconds(timeout_ms));
      return;
    }
    Received r;
    r.bytes = reply_to(m, std::vector<uint8_t>(64));
    due_.push_back({now_ + std::chrono::milliseconds(answer_), std::move(r)});
  }
  std::optional<Received> receive(int timeout_ms) override {
    Ns limit = now_ + std::chrono::milliseconds(timeout_ms);
    std::optional<Received> r;
    if (!due_.empty() && due_.front().first <= limit) {
      now_ = std::max(now_, due_.front().first);
      r = std::move(due_.front().second);
      due_.pop_front();
      --in_flight_;
    } else {
      now_ = limit;
    }
    while (!lost_.empty() && lost_.front() <= now_) lost_.pop_front(), --in_flight_;
    return r;
  }
  std::chrono::steady_clock::time_point now() const override {
    return std::chrono::steady_clock::time_point(now_);
  }
  double seconds() const { return std::chrono::duration<double>(now_).count(); }

 private:
  std::function<bool(int)> silent_;
  int answer_;
  Ns now_{0};
  int in_flight_ = 0;
  std::map<uint32_t, int> index_;
  std::deque<std::pair<Ns, Received>> due_;
  std::deque<Ns> lost_;
};

// rdma(8)'s TIME BOUND for one destination with give_up: before it is
// given up on by its answer ratio, its unanswered tries are fewer than its
// answered ones plus the window n (give_up_window), so its queries hold
// their k slots for fewer than 2C + n tries of at most t each, and the
// last one in flight beside them: ((2C + n)/k + 1) x t, whatever it
// answers. Before, a node answering every other query at once was never
// given up on and cost C/(2k) x T.
TEST(EngineBound, ANodeAnsweringSomeQueriesCostsAtMostItsRatioWindow) {
  const int t_ms = 1000, retries = 3;
  const double t = t_ms / 1000.0, T = (retries + 1) * t;
  EngineConfig c{.timeout_ms = t_ms,
                 .retries = retries,
                 .window = 256,
                 .per_node = kPerNode,
                 .give_up = kGiveUp};
  const int n = give_up_window(c, false);
  EXPECT_EQ(n, 16);
  EXPECT_EQ(give_up_window(c, true), 32);  // a probe group
  const double C = 148, k = kPerNode;      // a 36-port switch's worst C (above)
  const double bound = ((2 * C + n) / k + 1) * t;
  double worst_at_once = 0, worst = 0;
  // Every m-th query left unanswered, m = 2 (every other) to 12, from the
  // first or the last of each m; the others answered at once or late.
  for (int answer_ms : {0, t_ms - 1})
    for (int m = 2; m <= 12; ++m)
      for (int phase : {0, m - 1}) {
        PatternTransport tr([m, phase](int i) { return i % m == phase; }, answer_ms);
        Engine e(tr, c);
        size_t answered = ask_bound_lids(e, {{1, static_cast<int>(C)}});
        SCOPED_TRACE("every " + std::to_string(m) + "th from " + std::to_string(phase) +
                     ", answers after " + std::to_string(answer_ms) + " ms");
        EXPECT_LE(tr.seconds(), bound);
        EXPECT_LE(tr.max_in_flight, static_cast<int>(kPerNode));
        EXPECT_GT(answered, 0u);
        (answer_ms ? worst : worst_at_once) =
            std::max(answer_ms ? worst : worst_at_once, tr.seconds());
        if (m == 2) {  // every other query: given up on by its ratio, within a few T
          EXPECT_EQ(e.stats().gave_up_on, std::vector<std::string>{"lid 1"});
          EXPECT_LE(tr.seconds(), 3 * T);
        }
      }
  // What the alternating node cost before (C/(2k) x T = 148 s here).
  EXPECT_LT(worst_at_once, C / (2 * k) * T / 2);
  EXPECT_LT(worst, C / (2 * k) * T);
}

// The message says which rule gave the node up: one query at a time, so
// each answer ends the run of unanswered tries and only the ratio can.
TEST(EngineBound, AGiveUpByRatioSaysSo) {
  PatternTransport tr([](int i) { return i % 2 == 1; }, 0);
  Engine e(tr, {.timeout_ms = 100, .retries = 3, .window = 8, .per_node = 1, .give_up = kGiveUp});
  std::vector<std::string> messages;
  uint32_t mod = 0;
  for (int i = 0; i < 40; ++i)
    e.submit({make_smp({false, 1, {}}, kGet, kNodeDescription, ++mod), smp_address({false, 1, {}}),
              "query", [&messages](const Mad*, const Failure* f) {
                if (f && f->tries == 0) messages.push_back(f->message);
              }});
  e.run();
  ASSERT_FALSE(messages.empty());
  EXPECT_NE(messages.front().find("gave up on lid 1 ("), std::string::npos) << messages.front();
  EXPECT_NE(messages.front().find(" of its last 16 tries unanswered)"), std::string::npos)
      << messages.front();
}

}  // namespace
}  // namespace rdma::mad
