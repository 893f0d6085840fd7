// The error sweep against the fabric double: counters set on switch and CA
// ports are found (and only those), AllPortSelect saves the per-port
// queries of clean switches, thresholds, sick PMAs, clearing.
#include "lib/ib/errors.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <set>

#include "lib/error.h"
#include "lib/ib/discover.h"
#include "lib/ib/engine_config.h"
#include "lib/ib/pma.h"
#include "lib/mad/attrs.h"
#include "lib/mad/attrs_pma.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/fabric/latency.h"
#include "lib/testing/fabric/topology.h"
#include "lib/testing/test_data.h"

namespace rdma::ib {
namespace {

using ibtest::FakeFabric;

using testdata::kNet;

class Errors : public ::testing::Test {
 protected:
  Errors() : fake_(ibtest::load_topology(kNet)), e_(fake_, {100, 1, 16}) {
    fake_.assign_lids();
    fabric_ = discover(e_).fabric;
  }
  // (description, port) of each port listed.
  std::set<std::pair<std::string, int>> listed(const ErrorSweep& s) {
    std::set<std::pair<std::string, int>> out;
    for (const PortCounters& c : s.ports)
      out.insert({fabric_.nodes[c.port.node].description, c.port.port});
    return out;
  }
  uint64_t pma_queries() { return fake_.stats().received[mad::kClassPerf]; }

  FakeFabric fake_;
  mad::Engine e_;
  Fabric fabric_;
};

TEST_F(Errors, ACleanFabricListsNothingAndAsksEachSwitchOnce) {
  uint64_t before = pma_queries();
  ErrorSweep s = sweep_errors(e_, fabric_, {});
  EXPECT_TRUE(s.ports.empty());
  EXPECT_TRUE(s.warnings.empty());
  EXPECT_EQ(s.nodes_checked, 6u);
  // ClassPortInfo of the 2 switches (AllPortSelect), one sum per switch, 4
  // CA ports with a LID: the CAs' ClassPortInfo is not needed.
  EXPECT_EQ(pma_queries() - before, 2u + 2u + 4u);
  EXPECT_EQ(s.ports_checked, 20u);
}

TEST_F(Errors, DataAsksTheCasForClassPortInfoToo) {
  fake_.set_counter(fake_.node("hca3"), 1, "SymbolErrorCounter", 1);
  uint64_t before = pma_queries();
  SweepOptions o;
  o.extended = true;
  ErrorSweep s = sweep_errors(e_, fabric_, o);
  EXPECT_EQ(listed(s), (std::set<std::pair<std::string, int>>{{"hca3", 1}}));
  // 6 ClassPortInfo, 2 sums, 4 CA ports, PortCountersExtended of the one listed.
  EXPECT_EQ(pma_queries() - before, 6u + 2u + 4u + 1u);
}

TEST_F(Errors, CountersOnSwitchAndCaPortsAreListedWithTheirValues) {
  fake_.set_counter(fake_.node("sw2"), 3, "SymbolErrorCounter", 17);
  fake_.set_counter(fake_.node("hca2"), 1, "PortRcvErrors", 4);
  fake_.set_counter(fake_.node("sw1"), 1, "PortXmitWait", 9);
  ErrorSweep s = sweep_errors(e_, fabric_, {});
  EXPECT_EQ(listed(s),
            (std::set<std::pair<std::string, int>>{{"sw2", 3}, {"hca2", 1}, {"sw1", 1}}));
  for (const PortCounters& c : s.ports) {
    const std::string& d = fabric_.nodes[c.port.node].description;
    if (d == "sw2") {
      EXPECT_EQ(c.get(*error_counter("symbol_errors")), 17u);
      EXPECT_EQ(c.lid, fake_.lid(fake_.node("sw2")));
    }
    if (d == "hca2") {
      EXPECT_EQ(c.get(*error_counter("PortRcvErrors")), 4u);
      EXPECT_EQ(c.lid, fake_.lid(fake_.node("hca2"), 1));
    }
  }
  // Fabric order: sw1 (discovered before sw2 and hca2) first.
  EXPECT_EQ(fabric_.nodes[s.ports[0].port.node].description, "sw1");
}

TEST_F(Errors, WithoutAllPortSelectEveryPortIsAsked) {
  for (auto& n : fake_.nodes()) n.all_port_select = false;
  fake_.set_counter(fake_.node("sw2"), 4, "LinkDownedCounter", 2);
  uint64_t before = pma_queries();
  ErrorSweep s = sweep_errors(e_, fabric_, {});
  EXPECT_EQ(listed(s), (std::set<std::pair<std::string, int>>{{"sw2", 4}}));
  // 2 ClassPortInfo (switches), 8 ports per switch, 4 CA ports with a LID.
  EXPECT_EQ(pma_queries() - before, 2u + 16u + 4u);
  EXPECT_EQ(s.ports_checked, 20u);
}

TEST_F(Errors, ThresholdsAndTheCountersChecked) {
  fake_.set_counter(fake_.node("sw2"), 3, "SymbolErrorCounter", 17);
  fake_.set_counter(fake_.node("hca3"), 1, "VL15Dropped", 3);
  SweepOptions o;
  o.thresholds.set("SymbolErrorCounter", 17);  // over means greater
  EXPECT_EQ(listed(sweep_errors(e_, fabric_, o)),
            (std::set<std::pair<std::string, int>>{{"hca3", 1}}));
  o.thresholds.set("symbol_errors", 16);
  o.counters = {error_counter("SymbolErrorCounter")};
  EXPECT_EQ(listed(sweep_errors(e_, fabric_, o)),
            (std::set<std::pair<std::string, int>>{{"sw2", 3}}));
  EXPECT_THROW(o.thresholds.set("PortXmitData", 1), Error);
}

// QP1Dropped (IBA 1.3, PortCounters bits 160-175) is checked as the others,
// threshold 0 unless set, though ibqueryerrors does not check it.
TEST_F(Errors, Qp1DroppedIsCheckedAgainstItsThreshold) {
  fake_.set_counter(fake_.node("hca2"), 1, "QP1Dropped", 4);
  SweepOptions o;
  ErrorSweep s = sweep_errors(e_, fabric_, o);
  ASSERT_EQ(listed(s), (std::set<std::pair<std::string, int>>{{"hca2", 1}}));
  const mad::FieldDef* qp1 = error_counter("qp1_dropped");
  ASSERT_NE(qp1, nullptr);
  EXPECT_EQ(qp1, error_counter("QP1Dropped"));
  EXPECT_EQ(s.ports[0].get(*qp1), 4u);
  EXPECT_EQ(counters_over(s.ports[0], o), (std::vector<const mad::FieldDef*>{qp1}));
  o.thresholds.set("QP1Dropped", 4);  // over means greater
  EXPECT_TRUE(sweep_errors(e_, fabric_, o).ports.empty());
  // Its sum over a switch's ports (AllPortSelect) counts too.
  fake_.set_counter(fake_.node("sw1"), 2, "QP1Dropped", 3);
  fake_.set_counter(fake_.node("sw1"), 5, "QP1Dropped", 3);
  o.thresholds.set("QP1Dropped", 4);
  EXPECT_TRUE(sweep_errors(e_, fabric_, o).ports.empty());  // 3 each: neither over
  o.thresholds.set("QP1Dropped", 2);
  EXPECT_EQ(listed(sweep_errors(e_, fabric_, o)),
            (std::set<std::pair<std::string, int>>{{"hca2", 1}, {"sw1", 2}, {"sw1", 5}}));
}

// What a listed port prints: its counters over their thresholds only; and
// ibqueryerrors' summary of the sweep.
TEST_F(Errors, CountersOverThresholdAndTheSummary) {
  fake_.set_counter(fake_.node("sw2"), 3, "SymbolErrorCounter", 17);
  fake_.set_counter(fake_.node("sw2"), 3, "PortRcvErrors", 2);
  fake_.set_counter(fake_.node("sw2"), 4, "LinkDownedCounter", 1);
  fake_.set_counter(fake_.node("hca3"), 1, "VL15Dropped", 3);
  fake_.set_counter(fake_.node("hca2"), 1, "PortRcvErrors", 2);
  SweepOptions o;
  o.thresholds.set("PortRcvErrors", 2);
  ErrorSweep s = sweep_errors(e_, fabric_, o);
  ASSERT_EQ(listed(s),
            (std::set<std::pair<std::string, int>>{{"sw2", 3}, {"sw2", 4}, {"hca3", 1}}));
  std::map<std::pair<std::string, int>, std::vector<const mad::FieldDef*>> over;
  for (const PortCounters& c : s.ports)
    over[{fabric_.nodes[c.port.node].description, c.port.port}] = counters_over(c, o);
  using Fields = std::vector<const mad::FieldDef*>;
  EXPECT_EQ((over[{"sw2", 3}]), (Fields{error_counter("SymbolErrorCounter")}));
  EXPECT_EQ((over[{"sw2", 4}]), (Fields{error_counter("LinkDownedCounter")}));
  EXPECT_EQ((over[{"hca3", 1}]), (Fields{error_counter("VL15Dropped")}));
  SweepSummary sum = summarize(s);
  EXPECT_EQ(sum.nodes_checked, 6u);
  EXPECT_EQ(sum.ports_checked, 20u);
  EXPECT_EQ(sum.ports_over, 3u);
  EXPECT_EQ(sum.nodes_over, 2u);
  EXPECT_EQ(sum.pma_failures, 0u);
}

TEST_F(Errors, ThresholdFileInIbqueryerrorsFormat) {
  std::string path = ::testing::TempDir() + "rdma-thresholds";
  {
    std::ofstream f(path);
    f << "# comment\n\nSymbolErrorCounter=10\nPortXmitWait = 0x100\n";
  }
  Thresholds t;
  EXPECT_TRUE(t.load(path).empty());
  EXPECT_EQ(t.of(*error_counter("SymbolErrorCounter")), 10u);
  EXPECT_EQ(t.of(*error_counter("PortXmitWait")), 256u);
  EXPECT_EQ(t.of(*error_counter("VL15Dropped")), 0u);
  {
    std::ofstream f(path);
    f << "SymbolErrorCounter=10\nBogus=1\nbroken\n";
  }
  try {
    t.load(path);
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), path + ":3: expected NAME=VALUE");
  }
  std::remove(path.c_str());
  EXPECT_THROW(t.load(path), Error);
}

// Every name ibqueryerrors' file takes (set_thres: SymbolErrorCounter to
// PortXmitWait) is used, and QP1Dropped, which it ignores; an unknown name
// (a typo) is a warning naming the file, line and name, and the rest of the
// file still counts.
TEST_F(Errors, ThresholdFileUnknownNamesAreWarnings) {
  const char* names[] = {"SymbolErrorCounter",
                         "LinkErrorRecoveryCounter",
                         "LinkDownedCounter",
                         "PortRcvErrors",
                         "PortRcvRemotePhysicalErrors",
                         "PortRcvSwitchRelayErrors",
                         "PortXmitDiscards",
                         "PortXmitConstraintErrors",
                         "PortRcvConstraintErrors",
                         "LocalLinkIntegrityErrors",
                         "ExcessiveBufferOverrunErrors",
                         "VL15Dropped",
                         "PortXmitWait",
                         "QP1Dropped"};
  std::string path = ::testing::TempDir() + "rdma-thresholds-names";
  {
    std::ofstream f(path);
    for (size_t i = 0; i < std::size(names); ++i) f << names[i] << "=" << 100 + i << "\n";
    f << "# Bogus=1\nPortXmitWiat=7\n";
  }
  Thresholds t;
  std::vector<std::string> w = t.load(path);
  std::remove(path.c_str());
  EXPECT_EQ(
      w, (std::vector<std::string>{path + ":16: unknown error counter \"PortXmitWiat\", ignored"}));
  for (size_t i = 0; i < std::size(names); ++i)
    EXPECT_EQ(t.of(*error_counter(names[i])), 100 + i) << names[i];
  EXPECT_EQ(error_counters().size(), std::size(names));
}

TEST_F(Errors, ExtendedCountersOfThePortsListed) {
  fake_.set_counter(fake_.node("hca3"), 1, "SymbolErrorCounter", 1);
  fake_.set_counter(fake_.node("hca3"), 1, "PortXmitData", 1ull << 40);
  SweepOptions o;
  o.extended = true;
  ErrorSweep s = sweep_errors(e_, fabric_, o);
  ASSERT_EQ(s.ports.size(), 1u);
  ASSERT_FALSE(s.ports[0].ext.empty());
  const mad::FieldDef* xd = mad::find_field(mad::kPortCountersExtended, "PortXmitData");
  EXPECT_EQ(mad::get_bits(s.ports[0].ext, xd->bit, xd->width), 1ull << 40);
  // The 32-bit counter saturates.
  EXPECT_EQ(s.ports[0].get(*mad::find_field(mad::kPortCounters, "PortXmitData")), 0xffffffffu);
}

TEST_F(Errors, EveryPortForRates) {
  SweepOptions o;
  o.every_port = true;
  ErrorSweep s = sweep_errors(e_, fabric_, o);
  EXPECT_EQ(s.ports.size(), 20u);  // 16 switch ports, 4 CA ports with a LID
}

TEST_F(Errors, ASilentPmaIsOneWarningAndTheSweepGoesOn) {
  fake_.set_counter(fake_.node("sw2"), 3, "SymbolErrorCounter", 17);
  fake_.drop({{fake_.node("hca2"), mad::kClassPerf, -1}, 1.0});
  ErrorSweep s = sweep_errors(e_, fabric_, {});
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_NE(s.warnings[0].find("PortCounters port 1 from lid"), std::string::npos) << s.warnings[0];
  EXPECT_NE(s.warnings[0].find("hca2"), std::string::npos) << s.warnings[0];
  EXPECT_EQ(listed(s), (std::set<std::pair<std::string, int>>{{"sw2", 3}}));
  EXPECT_EQ(s.nodes_checked, 5u);
}

TEST_F(Errors, ASilentCaWithTwoPortsIsStillOneWarning) {
  // A saved fabric that gives hca2 a second port with a LID: its ports are
  // asked one after the other, so the second is not asked once the first
  // found the PMA silent.
  Fabric f = fabric_;
  Node& h2 = f.nodes[f.index_of(fake_.nodes()[fake_.node("hca2")].node_guid).value()];
  h2.ports[2].info = h2.ports[1].info;
  fake_.drop({{fake_.node("hca2"), mad::kClassPerf, -1}, 1.0});
  uint64_t before = pma_queries();
  ErrorSweep s = sweep_errors(e_, f, {});
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_NE(s.warnings[0].find("PortCounters port 1"), std::string::npos) << s.warnings[0];
  EXPECT_EQ(s.nodes_checked, 5u);
  // 2 ClassPortInfo, 2 sums, 3 CA ports and hca2's port 1 twice (1 retry).
  EXPECT_EQ(pma_queries() - before, 2u + 2u + 3u + 2u);
}

// The PortXmitWait tick is asked once a node, without retries: a PMA that
// leaves PortSamplesControl unanswered (ibsim's always does) costs one
// timeout, not retries + 1, is no warning, and its ports take the default
// tick (no entry). The local CA's (hca1) is not asked.
TEST_F(Errors, TheWaitTickIsAskedOnceAndSilenceLeavesTheDefault) {
  fake_.set_counter(fake_.node("hca3"), 1, "Tick", 31);
  fake_.drop({{fake_.node("hca2"), mad::kClassPerf, mad::kPortSamplesControl.id}});
  mad::Engine e(fake_, {100, 3, 16});
  auto named = [&](const std::map<uint32_t, uint8_t>& t) {
    std::map<std::string, int> out;
    for (auto [n, tick] : t) out[fabric_.nodes[n].description] = tick;
    return out;
  };
  const std::map<std::string, int> expected = {{"hca3", 31}, {"hca4", 0}, {"sw1", 0}, {"sw2", 0}};
  uint64_t dropped = fake_.stats().dropped;
  SweepOptions o;
  o.wait_tick = true;
  ErrorSweep s = sweep_errors(e, fabric_, o);
  EXPECT_TRUE(s.warnings.empty()) << s.warnings[0];
  EXPECT_EQ(fake_.stats().dropped - dropped, 1u);
  EXPECT_EQ(named(s.ticks), expected);
  // On its own (a window asks it during its wait): the same, once.
  EXPECT_EQ(named(read_wait_ticks(e, fabric_)), expected);
  EXPECT_EQ(fake_.stats().dropped - dropped, 2u);
  EXPECT_EQ(e.stats().retried, 0u);
}

// The ticks of a counter window's wait, on the latency model's virtual
// clock at the tool's defaults, every PMA silent on PortSamplesControl (as
// ibsim's): each costs one try, all at once (99 PMAs in a window of 256),
// so the wait is one timeout, not retries + 1 nor one per PMA. And their
// silence, which only leaves the default tick, does not make the next
// sweep look failing: a PortCounters reply lost right after is retried
// (it was not: 99 unanswered ticks filled the last 32 tries, so the
// sweep's first loss ended its query unretried, with a warning).
TEST(ErrorsTicks, SilentTicksCostOneTryEachAndNoOtherQueryItsRetries) {
  FakeFabric fake(ibtest::load_topology(testdata::dir() + "/fattree-100.net"));
  fake.assign_lids();
  ibtest::LatencyFabric clock(fake);
  mad::Engine e(clock, session_engine_config(1000, 3, 256, 0));
  Fabric f = discover(e).fabric;
  fake.drop({{-1, mad::kClassPerf, mad::kPortSamplesControl.id}, 1.0});
  uint64_t sent = e.stats().sent;
  auto start = clock.now();
  EXPECT_TRUE(read_wait_ticks(e, f).empty());
  EXPECT_EQ(e.stats().sent - sent, f.nodes.size() - 1);  // not the local CA's
  EXPECT_EQ(e.stats().retried, 0u);
  EXPECT_LE(clock.now() - start, std::chrono::milliseconds(1001));
  // hca-00007's PortCounters reply lost once: retried, read.
  fake.drop({{fake.node("hca-00007"), mad::kClassPerf, mad::kPortCounters.id}, 1.0, 1});
  SweepOptions o;
  o.every_port = true;
  for (uint32_t i = 0; i < f.nodes.size(); ++i)
    if (f.nodes[i].description == "hca-00007") o.nodes.node = i;
  ASSERT_TRUE(o.nodes.node);
  ErrorSweep s = sweep_errors(e, f, o);
  EXPECT_TRUE(s.warnings.empty()) << s.warnings[0];
  EXPECT_EQ(s.ports.size(), 1u);
  EXPECT_EQ(e.stats().retried, 1u);
  EXPECT_EQ(e.stats().not_retried, 0u);
}

// A watch (fabric top) keeps what each PMA's ClassPortInfo said: the
// sweeps after the first ask only the counters, and read the same.
TEST_F(Errors, KnownPmasAreNotAskedForClassPortInfoAgain) {
  std::map<uint32_t, PmaCaps> known;
  SweepOptions o;
  o.every_port = true;
  o.extended = true;
  o.known_pmas = &known;
  uint64_t before = pma_queries();
  ErrorSweep first = sweep_errors(e_, fabric_, o);
  uint64_t asked_first = pma_queries() - before;
  EXPECT_EQ(known.size(), 6u);
  before = pma_queries();
  ErrorSweep second = sweep_errors(e_, fabric_, o);
  EXPECT_EQ(asked_first - (pma_queries() - before), 6u);
  EXPECT_EQ(second.nodes_checked, first.nodes_checked);
  ASSERT_EQ(second.ports.size(), first.ports.size());
  for (const PortCounters& c : second.ports) EXPECT_FALSE(c.ext.empty());
}

TEST_F(Errors, APmaAnsweringAnErrorStatusIsAWarning) {
  // A saved fabric that gives hca4 (one port) a second port: its PMA
  // answers PortCounters port 2 with a bad-field status.
  fake_.set_counter(fake_.node("hca1"), 1, "SymbolErrorCounter", 1);
  Fabric f = fabric_;
  Node& h4 = f.nodes[f.index_of(fake_.nodes()[fake_.node("hca4")].node_guid).value()];
  h4.ports.resize(3);
  h4.ports[2].num = 2;
  h4.ports[2].info = h4.ports[1].info;
  ErrorSweep s = sweep_errors(e_, f, {});
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_NE(s.warnings[0].find("PortCounters port 2"), std::string::npos) << s.warnings[0];
  EXPECT_EQ(listed(s), (std::set<std::pair<std::string, int>>{{"hca1", 1}}));
}

TEST_F(Errors, ClearErrorsKeepsTrafficClearAllDoesNot) {
  int sw2 = fake_.node("sw2"), hca3 = fake_.node("hca3");
  fake_.set_counter(sw2, 3, "SymbolErrorCounter", 17);
  fake_.set_counter(sw2, 3, "PortXmitWait", 5);
  fake_.set_counter(sw2, 3, "PortXmitData", 100);
  fake_.set_counter(hca3, 1, "PortRcvErrors", 4);
  fake_.set_counter(hca3, 1, "QP1Dropped", 2);
  EXPECT_TRUE(clear_counters(e_, fabric_, false).empty());
  EXPECT_EQ(fake_.counter(sw2, 3, "SymbolErrorCounter"), 0u);
  EXPECT_EQ(fake_.counter(sw2, 3, "PortXmitWait"), 0u);
  EXPECT_EQ(fake_.counter(hca3, 1, "QP1Dropped"), 0u);  // its PMA has IsQP1DropSupported
  EXPECT_EQ(fake_.counter(hca3, 1, "PortRcvErrors"), 0u);
  EXPECT_EQ(fake_.counter(sw2, 3, "PortXmitData"), 100u);
  EXPECT_TRUE(clear_counters(e_, fabric_, true).empty());
  EXPECT_EQ(fake_.counter(sw2, 3, "PortXmitData"), 0u);
  EXPECT_TRUE(sweep_errors(e_, fabric_, {}).ports.empty());
}

}  // namespace
}  // namespace rdma::ib
