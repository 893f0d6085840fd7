// rdma perf show/reset: PortSelect, AllPortSelect where the PMA has it and
// one query per port where it has not, and what a reset writes.
#include <nlohmann/json.hpp>

#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

using mad::Mad;

// LID 2 is sw1, an 8-port switch: each port's SymbolErrorCounter is its
// number. Its PMA has AllPortSelect and PortCountersExtended unless a test
// turns them off in the double.
class Perf : public madtest::MadCmd {
 protected:
  void SetUp() override {
    MadCmd::SetUp();
    for (int p = 1; p <= 8; ++p) {
      fabric_->set_counter(sw1(), p, "SymbolErrorCounter", p);
      fabric_->set_counter(sw1(), p, "PortXmitData", 1000 + p);
    }
  }
  int sw1() const { return fabric_->node("sw1"); }

  std::vector<Mad> pma(uint16_t id) const {
    std::vector<Mad> out;
    for (const Mad& m : sent_)
      if (m.mgmt_class() == mad::kClassPerf && m.get(mad::hdr::kAttrId) == id) out.push_back(m);
    return out;
  }
};

TEST_F(Perf, PortAllUsesAllPortSelectWhereThePmaHasIt) {
  madtest::Result r = run_rdma({"perf", "show", "lid", "2", "port", "all"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("lid 2: port all symbol_errors 36 ", 0), 0u) << r.out;  // 1+...+8
  ASSERT_EQ(pma(mad::kPortCounters.id).size(), 1u);
  EXPECT_EQ(pma(mad::kPortCounters.id)[0].get_attr(mad::kPortCounters, "PortSelect"), 0xffu);
}

TEST_F(Perf, PortAllAsksEachPortWhereThePmaLacksAllPortSelect) {
  node("sw1").all_port_select = false;
  madtest::Result r = run_rdma({"-j", "perf", "show", "lid", "2", "port", "all"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.size(), 8u);  // the switch's ports 1-8
  for (unsigned p = 1; p <= 8; ++p) {
    EXPECT_EQ(j[p - 1]["port"], p);
    EXPECT_EQ(j[p - 1]["symbol_errors"], p);
  }
}

TEST_F(Perf, ExtendedReadsPortCountersExtended) {
  madtest::Result r = run_rdma({"-j", "perf", "show", "lid", "2", "port", "3", "extended"});
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(pma(mad::kPortCountersExtended.id).size(), 1u);
  EXPECT_EQ(
      pma(mad::kPortCountersExtended.id)[0].get_attr(mad::kPortCountersExtended, "PortSelect"), 3u);
  EXPECT_EQ(nlohmann::json::parse(r.out)[0]["xmit_data"], 1003);
}

TEST_F(Perf, ResetClearsEveryCounterOfBothAttributes) {
  madtest::Result r = run_rdma({"perf", "reset", "lid", "2", "port", "4"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  std::vector<Mad> pc = pma(mad::kPortCounters.id), ext = pma(mad::kPortCountersExtended.id);
  ASSERT_EQ(pc.size(), 1u);
  EXPECT_EQ(pc[0].get(mad::hdr::kMethod), mad::kSet);
  EXPECT_EQ(pc[0].get_attr(mad::kPortCounters, "PortSelect"), 4u);
  EXPECT_EQ(pc[0].get_attr(mad::kPortCounters, "CounterSelect"), 0xffffu);
  EXPECT_EQ(pc[0].get_attr(mad::kPortCounters, "CounterSelect2"), 0xffu);
  ASSERT_EQ(ext.size(), 1u);
  EXPECT_EQ(ext[0].get(mad::hdr::kMethod), mad::kSet);
  EXPECT_EQ(ext[0].get_attr(mad::kPortCountersExtended, "PortSelect"), 4u);
  EXPECT_EQ(ext[0].get_attr(mad::kPortCountersExtended, "CounterSelect"), 0xffu);
  EXPECT_EQ(fabric_->counter(sw1(), 4, "SymbolErrorCounter"), 0u);
  EXPECT_EQ(fabric_->counter(sw1(), 4, "PortXmitData"), 0u);
  EXPECT_EQ(fabric_->counter(sw1(), 3, "SymbolErrorCounter"), 3u);  // another port: kept
}

TEST_F(Perf, ResetAllWithoutExtendedCounters) {
  node("sw1").extended_counters = false;
  madtest::Result r = run_rdma({"perf", "reset", "lid", "2", "port", "all"});
  ASSERT_EQ(r.status, 0) << r.err;  // "not supported" for the extended ones: nothing to reset
  ASSERT_EQ(pma(mad::kPortCounters.id).size(), 1u);
  EXPECT_EQ(pma(mad::kPortCounters.id)[0].get_attr(mad::kPortCounters, "PortSelect"), 0xffu);
  for (int p = 1; p <= 8; ++p) EXPECT_EQ(fabric_->counter(sw1(), p, "SymbolErrorCounter"), 0u);
}

TEST_F(Perf, DefaultPortIsTheLidsOwnOnACaAndPort1OnASwitch) {
  ASSERT_EQ(run_rdma({"perf", "show", "lid", "2"}).status, 0);
  EXPECT_EQ(pma(mad::kPortCounters.id).back().get_attr(mad::kPortCounters, "PortSelect"), 1u);
}

}  // namespace
}  // namespace rdma
