// fabric top's rows: rates between two sweeps of the fake fabric's
// counters, a reset that gives no rate, the sort and the filter.
#include "lib/ib/top.h"

#include <gtest/gtest.h>

#include "lib/ib/discover.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/fabric/topology.h"

namespace rdma::ib {
namespace {

constexpr const char* kTopTree =
    "Switch 4 \"sw\"\n[1] \"ca1\"[1]\n[2] \"ca2\"[1]\n"
    "Hca 1 \"ca1\"\n[1] \"sw\"[1]\nHca 1 \"ca2\"\n[1] \"sw\"[2]\n";

struct TopFabric : ::testing::Test {
  ibtest::FakeFabric fake{ibtest::parse_topology(kTopTree)};
  Fabric f;
  void SetUp() override {
    fake.assign_lids();
    mad::Engine e(fake, {100, 1, 8});
    f = discover(e).fabric;
  }
  ErrorSweep sweep() {
    mad::Engine e(fake, {100, 1, 8});
    SweepOptions o;
    o.every_port = true;
    o.extended = true;
    return sweep_errors(e, f, o);
  }
  const TopRow* row(const std::vector<TopRow>& rows, const std::string& name) {
    for (const TopRow& r : rows)
      if (r.name == name) return &r;
    return nullptr;
  }
};

TEST_F(TopFabric, RatesBetweenTwoSweepsAndNoneAfterAReset) {
  TopModel m;
  EXPECT_TRUE(m.update(f, sweep(), 0).empty());                    // the first reading has no rates
  fake.set_counter(fake.node("ca1"), 1, "PortXmitData", 1000000);  // words: 4 MB
  fake.set_counter(fake.node("sw"), 2, "SymbolErrorCounter", 3);
  fake.set_counter(fake.node("sw"), 2, "LinkDownedCounter", 2);
  std::vector<TopRow> rows = m.update(f, sweep(), 2.0);
  const TopRow* ca1 = row(rows, "ca1/1");
  ASSERT_NE(ca1, nullptr);
  EXPECT_DOUBLE_EQ(ca1->xmit_bps, 2e6);
  EXPECT_EQ(ca1->peer, "sw/1");
  EXPECT_GT(ca1->util, 0);
  const TopRow* sw2 = row(rows, "sw/2");
  ASSERT_NE(sw2, nullptr);
  EXPECT_EQ(sw2->errors, 3u);
  EXPECT_EQ(sw2->downed, 2u);
  sort_rows(rows, TopSort::Xmit);
  EXPECT_EQ(rows[0].name, "ca1/1");
  sort_rows(rows, TopSort::Errors);
  EXPECT_EQ(rows[0].name, "sw/2");
  std::vector<TopRow> only = filter_rows(rows, "CA2");  // any case, name or peer
  ASSERT_EQ(only.size(), 2u);
  for (const TopRow& r : only) EXPECT_TRUE(r.name == "ca2/1" || r.peer == "ca2/1") << r.name;
  // Cleared between the sweeps: no rate, said so.
  fake.set_counter(fake.node("sw"), 2, "SymbolErrorCounter", 0);
  rows = m.update(f, sweep(), 2.0);
  EXPECT_TRUE(row(rows, "sw/2")->unknown);
  EXPECT_FALSE(row(rows, "ca1/1")->unknown);
  EXPECT_EQ(row(rows, "ca1/1")->xmit_bps, 0);
}

}  // namespace
}  // namespace rdma::ib
