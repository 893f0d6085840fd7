// A watch's sweeps, each within a time budget of its own
// (rdma/ib/watch_sweep.h), on the fabric double behind the latency
// model's virtual clock, the engine at the tool's defaults (1 s timeout, 3
// retries, the TIME BOUND budget): when one PMA stops answering, every
// later sweep waits out its tries (4 s) and still reads every other port,
// sweep after sweep, for fabric top's options and fabric errors -w's.
// Under one budget armed once, as discovery starts (the watch before),
// the same fabric spends it within a few sweeps, and the sweeps after
// that end at once with nothing sent: the test the old behaviour fails.
#include "rdma/ib/watch_sweep.h"

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "lib/ib/discover.h"
#include "lib/ib/engine_config.h"
#include "lib/ib/pma.h"
#include "lib/mad/attrs.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/fabric/latency.h"
#include "lib/testing/fabric/topology.h"
#include "lib/testing/test_data.h"

namespace rdma {
namespace {

// What one sweep of a watch did: MADs sent, the ports it read (by node
// description and port), its warnings, its time on the virtual clock.
struct WatchSeen {
  uint64_t sent = 0;
  std::set<std::pair<std::string, int>> ports;
  size_t warnings = 0;
  double seconds = 0;
};

// GetParam(): true for fabric top's options, false for fabric errors -w's.
class WatchBudget : public ::testing::TestWithParam<bool> {
 protected:
  WatchBudget() : WatchBudget(ibtest::load_topology(testdata::kNet)) {}
  explicit WatchBudget(const ibtest::Topology& t)
      : fake_(t), clock_(fake_), e_(clock_, ib::session_engine_config(1000, 3, 8, 0)) {
    fake_.assign_lids();
    e_.set_budget(ib::sweep_budget(0));  // as found_fabric, once
    fabric_ = ib::discover(e_).fabric;
    if (GetParam()) {  // fabric_top's
      o_.extended = true;
      o_.wait_tick = true;
      o_.known_pmas = &pmas_;
    }
    o_.every_port = true;  // both
  }

  // One sweep, with its own budget (watch_sweep; budget, the tool's by
  // default) or under the one armed before (the watch before).
  WatchSeen sweep(bool own_budget, mad::Budget budget = ib::sweep_budget(0)) {
    WatchSeen seen;
    uint64_t sent = e_.stats().sent;
    auto start = clock_.now();
    ib::ErrorSweep s =
        own_budget ? watch_sweep(e_, fabric_, o_, budget) : ib::sweep_errors(e_, fabric_, o_);
    o_.wait_tick = false;  // the first sweep only, as fabric top
    seen.sent = e_.stats().sent - sent;
    seen.seconds = std::chrono::duration<double>(clock_.now() - start).count();
    seen.warnings = s.warnings.size();
    for (const ib::PortCounters& p : s.ports)
      seen.ports.insert({fabric_.nodes[p.port.node].description, p.port.port});
    return seen;
  }

  // hca3's PMA stops answering (its SMA still does).
  void silence_hca3() { fake_.drop({{fake_.node("hca3"), mad::kClassPerf, -1}, 1.0}); }

  ibtest::FakeFabric fake_;
  ibtest::LatencyFabric clock_;
  mad::Engine e_;
  ib::Fabric fabric_;
  ib::SweepOptions o_;
  std::map<uint32_t, ib::PmaCaps> pmas_;
};

constexpr int kWatchSweeps = 40;  // 160 s of waiting on hca3: 16 budgets' base

TEST_P(WatchBudget, EachSweepStillReadsThePortsThatAnswer) {
  WatchSeen first = sweep(true);
  ASSERT_TRUE(first.ports.count({"hca3", 1})) << "hca3 answered before it fell silent";
  std::set<std::pair<std::string, int>> healthy = first.ports;
  healthy.erase({"hca3", 1});
  ASSERT_GE(healthy.size(), 15u);
  silence_hca3();
  for (int n = 1; n <= kWatchSweeps; ++n) {
    WatchSeen s = sweep(true);
    EXPECT_GT(s.sent, healthy.size()) << "sweep " << n;
    EXPECT_EQ(s.ports, healthy) << "sweep " << n;
    EXPECT_EQ(s.warnings, 1u) << "sweep " << n;  // hca3's PortCounters
    // hca3's four tries of 1 s, the rest answered meanwhile.
    EXPECT_GE(s.seconds, 4.0) << "sweep " << n;
    EXPECT_LT(s.seconds, 4.5) << "sweep " << n;
  }
  EXPECT_FALSE(e_.stats().budget_spent);
}

TEST_P(WatchBudget, OneBudgetForTheWholeWatchRunsOut) {
  sweep(false);
  silence_hca3();
  int empty = 0, first_empty = 0;
  for (int n = 1; n <= kWatchSweeps; ++n) {
    WatchSeen s = sweep(false);
    if (s.sent == 0 && s.ports.empty()) {
      if (!empty++) first_empty = n;
    }
  }
  // 4 s a sweep of 10 s and the answers' 1 ms each: spent in the third
  // sweep after the silence, nothing sent from the fourth on.
  EXPECT_TRUE(e_.stats().budget_spent);
  EXPECT_EQ(first_empty, 4);
  EXPECT_EQ(empty, kWatchSweeps - 3);
}

// A sweep cut by its budget leaves the next ones giving up on a silent
// node: sw2's PMA silent on PortCounters, a sweep under a budget of 1 s is
// cut before sw2 is given up on (two queries' 4 tries, 2 at a time: 4 s);
// the sweeps after it, under 6 s each, give sw2 up after those 4 s and
// end uncut. Before, the cut's EngineStats::budget_spent turned giving up
// off for the rest of the engine's life: each later sweep asked sw2's
// ports 4 tries each, two at a time, till its budget ran out.
TEST_P(WatchBudget, ACutSweepLeavesTheNextOnesGivingUp) {
  sweep(true);
  fake_.drop({{fake_.node("sw2"), mad::kClassPerf, mad::kPortCounters.id}, 1.0});
  WatchSeen cut = sweep(true, {.base_ms = 1000, .per_answer_us = 0});
  ASSERT_TRUE(e_.stats().budget_spent);
  EXPECT_LT(cut.seconds, 1.1);
  for (int n = 1; n <= 5; ++n) {
    size_t gave_up = e_.stats().gave_up_on.size();
    WatchSeen s = sweep(true, {.base_ms = 6000, .per_answer_us = 0});
    EXPECT_GE(s.seconds, 4.0) << "sweep " << n;
    EXPECT_LT(s.seconds, 4.5) << "sweep " << n;
    EXPECT_EQ(e_.stats().gave_up_on.size(), gave_up + 1) << "sweep " << n;
    EXPECT_TRUE(s.ports.count({"hca4", 1})) << "sweep " << n;
  }
}

INSTANTIATE_TEST_SUITE_P(TopAndErrorsW, WatchBudget, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& p) {
                           return p.param ? "FabricTop" : "FabricErrorsW";
                         });

constexpr int kStarCas = 24;  // the CAs that fall silent: 3 windows of 8

// One switch and 25 single-port CAs, ca0 first (the tool's own).
std::string star_net() {
  std::string t = "Hca 1 \"ca0\"\n[1] \"sw\"[1]\nSwitch 25 \"sw\"\n";
  for (int i = 0; i <= kStarCas; ++i)
    t += "[" + std::to_string(i + 1) + "] \"ca" + std::to_string(i) + "\"[1]\n";
  for (int i = 1; i <= kStarCas; ++i)
    t += "Hca 1 \"ca" + std::to_string(i) + "\"\n[1] \"sw\"[" + std::to_string(i + 1) + "]\n";
  return t;
}

// Silent PMAs in a watch (SweepOptions::silent_pmas, as fabric top and
// fabric errors -w keep it): 24 CAs' PMAs fall silent, three times the
// window (8) of the engine at the tool's defaults (1 s timeout, 3
// retries). The sweep that finds them silent waits out full timeouts,
// the window full of them; the sweeps after it ask each once with the
// engine's shortest timeout (50 ms), three windows' worth: 150 ms, not
// seconds, and still read every port that answers. Without the memory
// (the watch before) each sweep waits the full timeouts again. A PMA that
// answers again is read at the next sweep and is no longer asked briefly.
// Virtual time (the latency model's clock).
class WatchSilent : public WatchBudget {
 protected:
  WatchSilent() : WatchBudget(ibtest::parse_topology(star_net(), "star")) {}

  WatchSeen sweep() { return WatchBudget::sweep(true); }

  void silence_cas() {
    for (int i = 1; i <= kStarCas; ++i)
      fake_.drop({{fake_.node("ca" + std::to_string(i)), mad::kClassPerf, -1}, 1.0});
  }

  std::set<uint16_t> silent_;
};

TEST_P(WatchSilent, SilentPmasCostAShortTimeoutUntilTheyAnswer) {
  o_.silent_pmas = &silent_;
  WatchSeen all = sweep();
  ASSERT_EQ(all.ports.size(), 2u * (kStarCas + 1));  // sw's 25 ports, the CAs'
  EXPECT_TRUE(silent_.empty());
  silence_cas();
  WatchSeen first = sweep();
  EXPECT_GE(first.seconds, 1.0);  // full timeouts: the silence is news
  EXPECT_EQ(first.warnings, size_t{kStarCas});
  EXPECT_EQ(silent_.size(), size_t{kStarCas});
  std::set<std::pair<std::string, int>> healthy = all.ports;
  for (int i = 1; i <= kStarCas; ++i) healthy.erase({"ca" + std::to_string(i), 1});
  for (int n = 1; n <= 5; ++n) {
    WatchSeen s = sweep();
    EXPECT_LT(s.seconds, 0.2) << "sweep " << n;  // 3 windows of 50 ms
    EXPECT_GE(s.seconds, 0.05) << "sweep " << n;
    EXPECT_EQ(s.ports, healthy) << "sweep " << n;
    EXPECT_EQ(s.warnings, size_t{kStarCas}) << "sweep " << n;
  }
  fake_.clear_faults();
  WatchSeen back = sweep();
  EXPECT_EQ(back.ports, all.ports);
  EXPECT_EQ(back.warnings, 0u);
  EXPECT_TRUE(silent_.empty());
}

// A sweep cut by its budget leaves PMAs it never asked: they are not
// silent, so the next sweep asks them as any other. Half the CAs fall
// silent, their full timeouts hold the window, and the budget (1 ms) cuts
// the sweep with most PMAs not asked: only those cut in flight, the
// window's 8 at most, are taken for silent (and asked briefly next).
TEST_P(WatchSilent, PmasACutSweepNeverAskedAreNotSilent) {
  o_.silent_pmas = &silent_;
  WatchSeen all = sweep();
  for (int i = 1; i <= kStarCas / 2; ++i)
    fake_.drop({{fake_.node("ca" + std::to_string(i)), mad::kClassPerf, -1}, 1.0});
  WatchSeen cut = WatchBudget::sweep(true, mad::Budget{1, 0});
  ASSERT_LT(cut.ports.size(), all.ports.size() / 2) << "the budget did not cut the sweep early";
  EXPECT_LE(silent_.size(), 8u);
  fake_.clear_faults();
  WatchSeen next = sweep();
  EXPECT_EQ(next.ports, all.ports);
  EXPECT_TRUE(silent_.empty());
}

TEST_P(WatchSilent, WithoutTheMemoryEachSweepWaitsFullTimeouts) {
  sweep();
  silence_cas();
  for (int n = 1; n <= 3; ++n) EXPECT_GE(sweep().seconds, 1.0) << "sweep " << n;
}

INSTANTIATE_TEST_SUITE_P(TopAndErrorsW, WatchSilent, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& p) {
                           return p.param ? "FabricTop" : "FabricErrorsW";
                         });

}  // namespace
}  // namespace rdma
