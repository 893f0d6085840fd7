// Rates between two sweeps of the fabric double: counters changed between
// the sweeps give their rate per second, a cleared counter is a reset and a
// counter at its maximum is saturated (flagged, with no rate), and the
// record says so in text and JSON.
#include "lib/ib/rates.h"

#include <gtest/gtest.h>

#include "lib/ib/discover.h"
#include "lib/mad/attrs.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/fabric/topology.h"
#include "lib/testing/test_data.h"

namespace rdma::ib {
namespace {

using testdata::kNet;

class Rates : public ::testing::Test {
 protected:
  Rates() : fake_(ibtest::load_topology(kNet)), e_(fake_, {100, 1, 16}) {
    fake_.assign_lids();
    fabric_ = discover(e_).fabric;
    o_.every_port = true;
  }
  // One sweep through the tracker: the rates of every port by (description, port).
  std::map<std::pair<std::string, int>, std::vector<CounterRate>> sweep(double seconds) {
    ErrorSweep s = sweep_errors(e_, fabric_, o_);
    EXPECT_TRUE(s.warnings.empty());
    std::map<std::pair<std::string, int>, std::vector<CounterRate>> out;
    for (const PortCounters& c : s.ports) {
      const Node& n = fabric_.nodes[c.port.node];
      out[{n.description, c.port.port}] =
          rates_.update({n.info.node_guid, c.port.port}, sweep_readings(c, o_), seconds);
    }
    rates_.end_interval();
    return out;
  }
  static const CounterRate& of(const std::vector<CounterRate>& v, const char* label) {
    for (const CounterRate& r : v)
      if (std::string_view(r.field->label) == label) return r;
    throw std::runtime_error(std::string("no counter ") + label);
  }

  ibtest::FakeFabric fake_;
  mad::Engine e_;
  Fabric fabric_;
  SweepOptions o_;
  CounterRates rates_;
};

TEST_F(Rates, TheFirstSweepHasNoRatesTheSecondTheIncreasePerSecond) {
  int sw2 = fake_.node("sw2"), hca2 = fake_.node("hca2");
  fake_.set_counter(sw2, 3, "SymbolErrorCounter", 10);
  auto first = sweep(0);
  ASSERT_TRUE(first.count({"sw2", 3}));
  for (const CounterRate& r : first[{"sw2", 3}]) EXPECT_FALSE(r.per_second) << r.field->name;
  EXPECT_FALSE(moved(first[{"sw2", 3}]));
  fake_.set_counter(sw2, 3, "SymbolErrorCounter", 30);
  fake_.set_counter(hca2, 1, "PortRcvErrors", 5);
  auto second = sweep(2);
  EXPECT_EQ(*of(second[{"sw2", 3}], "symbol_errors").per_second, 10);
  EXPECT_EQ(of(second[{"sw2", 3}], "symbol_errors").value, 30u);
  EXPECT_EQ(*of(second[{"hca2", 1}], "rcv_errors").per_second, 2.5);
  EXPECT_EQ(*of(second[{"hca2", 1}], "symbol_errors").per_second, 0);
  EXPECT_TRUE(moved(second[{"hca2", 1}]));
  EXPECT_FALSE(moved(second[{"sw1", 1}]));
}

TEST_F(Rates, ACounterThatWentDownIsAResetNotAHugeRate) {
  int sw2 = fake_.node("sw2");
  fake_.set_counter(sw2, 3, "PortRcvErrors", 50);
  sweep(0);
  fake_.set_counter(sw2, 3, "PortRcvErrors", 3);  // cleared, then 3 more
  auto second = sweep(1);
  const CounterRate& r = of(second[{"sw2", 3}], "rcv_errors");
  EXPECT_TRUE(r.reset);
  EXPECT_FALSE(r.per_second);
  EXPECT_TRUE(moved(second[{"sw2", 3}]));
  // The interval after the reset has a rate again.
  fake_.set_counter(sw2, 3, "PortRcvErrors", 7);
  auto third = sweep(1);
  EXPECT_FALSE(of(third[{"sw2", 3}], "rcv_errors").reset);
  EXPECT_EQ(*of(third[{"sw2", 3}], "rcv_errors").per_second, 4);
}

TEST_F(Rates, ACounterAtItsMaximumIsSaturated) {
  int hca3 = fake_.node("hca3");
  fake_.set_counter(hca3, 1, "LinkDownedCounter", 200);
  sweep(0);
  fake_.set_counter(hca3, 1, "LinkDownedCounter", 100000);  // the double saturates at 255
  auto second = sweep(1);
  const CounterRate& r = of(second[{"hca3", 1}], "link_downed");
  EXPECT_EQ(r.value, 255u);
  EXPECT_TRUE(r.saturated);
  EXPECT_FALSE(r.reset);
  EXPECT_FALSE(r.per_second);
  // 32-bit traffic counters saturate too; the 64-bit extended ones are read
  // where the PMA has them.
  o_.extended = true;
  fake_.set_counter(hca3, 1, "PortXmitData", 1ull << 40);
  auto third = sweep(1);
  EXPECT_EQ(of(third[{"hca3", 1}], "xmit_bytes").value, 4ull << 40);  // 4-byte words
  EXPECT_FALSE(of(third[{"hca3", 1}], "xmit_bytes").saturated);
  for (auto& n : fake_.nodes()) n.extended_counters = false;
  auto fourth = sweep(1);
  EXPECT_TRUE(of(fourth[{"hca3", 1}], "xmit_bytes").saturated);
  EXPECT_EQ(of(fourth[{"hca3", 1}], "xmit_bytes").value, 4ull * 0xffffffff);
}

// The data counters count 4-byte words: their values and rates are bytes.
TEST_F(Rates, DataCountersInBytesPerSecond) {
  int hca3 = fake_.node("hca3");
  o_.extended = true;
  fake_.set_counter(hca3, 1, "PortXmitData", 1000);
  fake_.set_counter(hca3, 1, "PortRcvData", 10);
  sweep(0);
  fake_.set_counter(hca3, 1, "PortXmitData", 1500);
  fake_.set_counter(hca3, 1, "PortRcvData", 11);
  fake_.set_counter(hca3, 1, "PortXmitPkts", 8);
  auto second = sweep(4);
  const std::vector<CounterRate>& r = second[{"hca3", 1}];
  EXPECT_EQ(of(r, "xmit_bytes").value, 6000u);
  EXPECT_EQ(*of(r, "xmit_bytes").per_second, 500);  // 2000 bytes in 4 s
  EXPECT_EQ(*of(r, "rcv_bytes").per_second, 1);     // 4 bytes in 4 s
  EXPECT_EQ(*of(r, "xmit_pkts").per_second, 2);     // packets stay packets
  view::Record rec;
  add_counter_rates(r, rec);
  std::string text;
  for (const view::Field& f : rec) text += f.text;
  EXPECT_NE(text.find("xmit_bytes 6000 (500/s) rcv_bytes 44 (1/s) "), std::string::npos) << text;
}

TEST(RatesRecord, TextAndJsonCarryValuesRatesAndFlags) {
  const mad::FieldDef* sym = mad::find_field(mad::kPortCounters, "SymbolErrorCounter");
  const mad::FieldDef* rcv = mad::find_field(mad::kPortCounters, "PortRcvErrors");
  const mad::FieldDef* down = mad::find_field(mad::kPortCounters, "LinkDownedCounter");
  const mad::FieldDef* wait = mad::find_field(mad::kPortCounters, "PortXmitWait");
  std::vector<CounterRate> rates = {{sym, 30, 2.5},
                                    {rcv, 3, std::nullopt, true},
                                    {down, 255, std::nullopt, false, true},
                                    {wait, 7, 0}};
  view::Record rec;
  add_counter_rates(rates, rec);
  std::string text;
  view::Json json = view::Json::object();
  for (const view::Field& f : rec) {
    text += f.text;
    json[f.key] = f.value;
  }
  EXPECT_EQ(text,
            "symbol_errors 30 (2.5/s) rcv_errors 3 (reset) link_downed 255 (saturated) "
            "xmit_wait 7 (0/s) ");
  EXPECT_EQ(json["symbol_errors"], 30);
  EXPECT_EQ(json["rate"]["symbol_errors"], 2.5);
  EXPECT_EQ(json["rate"]["xmit_wait"], 0);
  EXPECT_FALSE(json["rate"].contains("rcv_errors"));
  EXPECT_EQ(json["reset"], view::Json::array({"rcv_errors"}));
  EXPECT_EQ(json["saturated"], view::Json::array({"link_downed"}));
}

TEST(RatesRecord, SaturationIsTheFieldsWidth) {
  EXPECT_TRUE(saturated(*mad::find_field(mad::kPortCounters, "LocalLinkIntegrityErrors"), 15));
  EXPECT_FALSE(saturated(*mad::find_field(mad::kPortCounters, "LocalLinkIntegrityErrors"), 14));
  EXPECT_TRUE(saturated(*mad::find_field(mad::kPortCounters, "PortXmitData"), 0xffffffff));
  EXPECT_TRUE(saturated(*mad::find_field(mad::kPortCountersExtended, "PortXmitData"), ~0ull));
  EXPECT_FALSE(saturated(*mad::find_field(mad::kPortCountersExtended, "PortXmitData"), 0xffffffff));
}

}  // namespace
}  // namespace rdma::ib
