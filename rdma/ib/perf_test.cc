// rdma perf show/reset: PortSelect, AllPortSelect where the PMA has it and
// one query per port where it has not, and what a reset writes.
#include <nlohmann/json.hpp>

#include "lib/mad/bits.h"
#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

using mad::Mad;

// LID 2 is the captured 8-port switch; its PMA has AllPortSelect when
// all_ports_, and PortCountersExtended unless no_extended_.
class Perf : public madtest::MadCmd {
 protected:
  void SetUp() override {
    MadCmd::SetUp();
    responder_ = [this](const Mad& m,
                        const mad::Address& a) -> std::optional<std::vector<uint8_t>> {
      if (m.mgmt_class() != mad::kClassPerf) return answer(m, a);
      uint16_t id = m.get(mad::hdr::kAttrId);
      std::vector<uint8_t> d(m.data().begin(), m.data().end());
      if (id == mad::kClassPortInfo.id) {
        std::fill(d.begin(), d.end(), 0);
        mad::set_bits(d, 16, 16, all_ports_ ? mad::kPmaCapAllPortSelect : 0);
      } else if (id == mad::kPortCountersExtended.id && no_extended_) {
        return mad::reply_to(m, d, 0x0c);
      } else if (id == mad::kPortCounters.id) {
        d[5] = m.data()[1];  // SymbolErrorCounter: the port selected
      }
      return mad::reply_to(m, d);
    };
  }

  std::vector<Mad> pma(uint16_t id) const {
    std::vector<Mad> out;
    for (const Mad& m : sent_)
      if (m.mgmt_class() == mad::kClassPerf && m.get(mad::hdr::kAttrId) == id) out.push_back(m);
    return out;
  }

  bool all_ports_ = true;
  bool no_extended_ = false;
};

TEST_F(Perf, PortAllUsesAllPortSelectWhereThePmaHasIt) {
  madtest::Result r = run_rdma({"perf", "show", "lid", "2", "port", "all"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("lid 2: port all symbol_errors 255 ", 0), 0u) << r.out;
  ASSERT_EQ(pma(mad::kPortCounters.id).size(), 1u);
  EXPECT_EQ(pma(mad::kPortCounters.id)[0].get_attr(mad::kPortCounters, "PortSelect"), 0xffu);
}

TEST_F(Perf, PortAllAsksEachPortWhereThePmaLacksAllPortSelect) {
  all_ports_ = false;
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
  EXPECT_TRUE(nlohmann::json::parse(r.out)[0].contains("xmit_data"));
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
}

TEST_F(Perf, ResetAllWithoutExtendedCounters) {
  no_extended_ = true;
  madtest::Result r = run_rdma({"perf", "reset", "lid", "2", "port", "all"});
  ASSERT_EQ(r.status, 0) << r.err;  // "not supported" for the extended ones: nothing to reset
  ASSERT_EQ(pma(mad::kPortCounters.id).size(), 1u);
  EXPECT_EQ(pma(mad::kPortCounters.id)[0].get_attr(mad::kPortCounters, "PortSelect"), 0xffu);
}

TEST_F(Perf, DefaultPortIsTheLidsOwnOnACaAndPort1OnASwitch) {
  ASSERT_EQ(run_rdma({"perf", "show", "lid", "2"}).status, 0);
  EXPECT_EQ(pma(mad::kPortCounters.id).back().get_attr(mad::kPortCounters, "PortSelect"), 1u);
}

}  // namespace
}  // namespace rdma
