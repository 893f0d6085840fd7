// rdma perf show's counter groups (details, vl, sl, op, flowctl,
// congestion), port lists, attributes a PMA lacks, and the resets of
// chosen counters.
#include <algorithm>
#include <nlohmann/json.hpp>

#include "lib/mad/attrs_pma.h"
#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

using mad::Mad;

// LID 2 is sw1, an 8-port switch: port p has p local physical errors, 10 *
// p HOQ lifetime discards and 100 * p waits on VL 3.
class PerfGroupsTest : public madtest::MadCmd {
 protected:
  void SetUp() override {
    MadCmd::SetUp();
    for (int p = 1; p <= 8; ++p) {
      fabric_.set_counter(sw1(), p, "SymbolErrorCounter", p);
      fabric_.set_counter(sw1(), p, "PortXmitData", 1000 + p);
      fabric_.set_counter(sw1(), p, "PortLocalPhysicalErrors", p);
      fabric_.set_counter(sw1(), p, "PortSwHOQLifetimeLimitDiscards", 10 * p);
      fabric_.set_counter(sw1(), p, "PortVLXmitWait3", 100 * p);
    }
  }
  int sw1() const { return fabric_.node("sw1"); }

  std::vector<Mad> perf_mads(uint16_t id, uint8_t method) const {
    std::vector<Mad> out;
    for (const Mad& m : sent_)
      if (m.mgmt_class() == mad::kClassPerf && m.get(mad::hdr::kAttrId) == id &&
          m.get(mad::hdr::kMethod) == method)
        out.push_back(m);
    return out;
  }
};

TEST_F(PerfGroupsTest, DetailsAndVlAreOneRecordPerPortInTextAndJson) {
  madtest::Result r = run({"-j", "perf", "show", "lid", "2", "port", "3", "details", "vl"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["port"], 3);
  EXPECT_EQ(j[0]["local_physical_errors"], 3);
  EXPECT_EQ(j[0]["looping_errors"], 0);
  EXPECT_EQ(j[0]["sw_hoq_lifetime_limit_discards"], 30);
  EXPECT_EQ(j[0]["xmit_wait_vl3"], 300);
  EXPECT_EQ(j[0]["xmit_wait_vl15"], 0);
  EXPECT_FALSE(j[0].contains("symbol_errors"));  // PortCounters only when asked
  EXPECT_EQ(perf_mads(mad::kPortRcvErrorDetails.id, mad::kGet)
                .at(0)
                .get_attr(mad::kPortRcvErrorDetails, "PortSelect"),
            3u);
  // Text: the same keys and values, in the same order.
  r = run({"perf", "show", "lid", "2", "port", "3", "details", "vl"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("lid 2: port 3 local_physical_errors 3 malformed_pkt_errors 0 ", 0), 0u)
      << r.out;
  EXPECT_NE(r.out.find(" sw_hoq_lifetime_limit_discards 30 xmit_wait_vl0 0 "), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(" xmit_wait_vl3 300 "), std::string::npos) << r.out;
  // Every key in the text is one in JSON (the last of a line ends it, with
  // no blank after it).
  std::string words = r.out;
  std::replace(words.begin(), words.end(), '\n', ' ');
  size_t keys = 0;
  for (const auto& [k, v] : j[0].items()) {
    if (k != "target" && k != "port") {
      EXPECT_NE(words.find(" " + k + " " + v.dump() + " "), std::string::npos) << k;
    }
    ++keys;
  }
  EXPECT_EQ(keys, 2u + 6 + 4 + 16);
}

TEST_F(PerfGroupsTest, CountersAndExtendedShowTheWiderDataCountersOnce) {
  madtest::Result r = run({"-j", "perf", "show", "lid", "2", "port", "3", "extended", "counters"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out)[0];
  EXPECT_EQ(j["symbol_errors"], 3);
  EXPECT_EQ(j["xmit_bytes"], 4 * 1003);
  EXPECT_TRUE(j.contains("unicast_xmit_pkts"));
  r = run({"perf", "show", "lid", "2", "port", "3", "counters", "extended"});
  size_t first = r.out.find(" xmit_bytes ");
  ASSERT_NE(first, std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(" xmit_bytes ", first + 1), std::string::npos) << r.out;
  // The 64-bit one: after PortCountersExtended's fields began.
  EXPECT_LT(r.out.find(" xmit_wait "), first) << r.out;
}

TEST_F(PerfGroupsTest, AnAttributeThePmaLacksIsOneLinePerPortTheOthersPrint) {
  node("sw1").pma_refused.insert(mad::kPortVLXmitWaitCounters.id);
  madtest::Result r = run({"-j", "perf", "show", "lid", "2", "port", "2,3", "details", "vl"});
  EXPECT_EQ(r.status, 1);
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[1]["local_physical_errors"], 3);
  EXPECT_FALSE(j[1].contains("xmit_wait_vl3"));
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 2) << r.err;
  EXPECT_EQ(r.err.rfind("warning: lid 2 port 2: no PortVLXmitWaitCounters: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("warning: lid 2 port 3: no PortVLXmitWaitCounters: "), std::string::npos);
  // perf reset of the groups: the same warning, the others cleared.
  r = run({"perf", "reset", "lid", "2", "port", "3", "vl", "details"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err.rfind("warning: lid 2 port 3: no PortVLXmitWaitCounters: ", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(fabric_.counter(sw1(), 3, "PortLocalPhysicalErrors"), 0u);
}

TEST_F(PerfGroupsTest, ExtendedIsAskedOnlyWhereTheCapabilityMaskHasIt) {
  node("sw1").extended_counters = false;
  madtest::Result r = run({"perf", "show", "lid", "2", "port", "3", "counters", "extended"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out.rfind("lid 2: port 3 symbol_errors 3 ", 0), 0u) << r.out;
  EXPECT_EQ(r.err.rfind("warning: lid 2 port 3: no PortCountersExtended: not in the PMA's "
                        "CapabilityMask 0x",
                        0),
            0u)
      << r.err;
  EXPECT_TRUE(perf_mads(mad::kPortCountersExtended.id, mad::kGet).empty());
  EXPECT_EQ(perf_mads(mad::kClassPortInfo.id, mad::kGet).size(), 1u);
}

TEST_F(PerfGroupsTest, PortListsAndRanges) {
  madtest::Result r = run({"-j", "perf", "show", "lid", "2", "port", "1-3,7", "vl"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::vector<uint64_t> asked;
  for (const Mad& m : perf_mads(mad::kPortVLXmitWaitCounters.id, mad::kGet))
    asked.push_back(m.get_attr(mad::kPortVLXmitWaitCounters, "PortSelect"));
  EXPECT_EQ(asked, (std::vector<uint64_t>{1, 2, 3, 7}));
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.size(), 4u);
  EXPECT_EQ(j[3]["port"], 7);
  EXPECT_EQ(j[3]["xmit_wait_vl3"], 700);
  r = run({"perf", "show", "lid", "2", "port", "3-1"});
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("invalid port \"3-1\""), std::string::npos) << r.err;
  // A single port's message is as before.
  r = run({"perf", "show", "lid", "2", "port", "300"});
  EXPECT_NE(r.err.find("invalid port \"300\" (expected 0-254)"), std::string::npos) << r.err;
}

TEST_F(PerfGroupsTest, ResetAfterReadingClearsWhatWasRead) {
  madtest::Result r = run({"perf", "show", "lid", "2", "port", "4", "details", "reset"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find(" local_physical_errors 4 "), std::string::npos) << r.out;  // before
  std::vector<Mad> rcv = perf_mads(mad::kPortRcvErrorDetails.id, mad::kSet);
  ASSERT_EQ(rcv.size(), 1u);
  EXPECT_EQ(rcv[0].get_attr(mad::kPortRcvErrorDetails, "PortSelect"), 4u);
  EXPECT_EQ(rcv[0].get_attr(mad::kPortRcvErrorDetails, "CounterSelect"), 0xffffu);
  EXPECT_EQ(perf_mads(mad::kPortXmitDiscardDetails.id, mad::kSet).size(), 1u);
  EXPECT_TRUE(perf_mads(mad::kPortCounters.id, mad::kSet).empty());  // not read: kept
  EXPECT_EQ(fabric_.counter(sw1(), 4, "PortLocalPhysicalErrors"), 0u);
  EXPECT_EQ(fabric_.counter(sw1(), 4, "PortSwHOQLifetimeLimitDiscards"), 0u);
  EXPECT_EQ(fabric_.counter(sw1(), 4, "SymbolErrorCounter"), 4u);
  EXPECT_EQ(fabric_.counter(sw1(), 3, "PortLocalPhysicalErrors"), 3u);
}

TEST_F(PerfGroupsTest, ResetOfNamedCountersSetsTheirCounterSelectBits) {
  madtest::Result r = run({"perf", "show", "lid", "2", "port", "5", "details", "vl", "reset",
                           "sw_hoq_lifetime_limit_discards", "xmit_wait_vl3"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(perf_mads(mad::kPortRcvErrorDetails.id, mad::kSet).empty());
  std::vector<Mad> xd = perf_mads(mad::kPortXmitDiscardDetails.id, mad::kSet);
  ASSERT_EQ(xd.size(), 1u);
  EXPECT_EQ(xd[0].get_attr(mad::kPortXmitDiscardDetails, "CounterSelect"), 1u << 3);
  std::vector<Mad> vl = perf_mads(mad::kPortVLXmitWaitCounters.id, mad::kSet);
  ASSERT_EQ(vl.size(), 1u);
  EXPECT_EQ(vl[0].get_attr(mad::kPortVLXmitWaitCounters, "CounterSelect"), 1u << 3);
  EXPECT_EQ(fabric_.counter(sw1(), 5, "PortSwHOQLifetimeLimitDiscards"), 0u);
  EXPECT_EQ(fabric_.counter(sw1(), 5, "PortVLXmitWait3"), 0u);
  EXPECT_EQ(fabric_.counter(sw1(), 5, "PortLocalPhysicalErrors"), 5u);
}

TEST_F(PerfGroupsTest, AFailedResetIsOneLineAndExitStatusOne) {
  node("sw1").pma_set_refused = true;
  madtest::Result r = run({"perf", "show", "lid", "2", "port", "3", "details", "reset"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find(" local_physical_errors 3 "), std::string::npos) << r.out;  // read first
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("lid 2 port 3: cannot reset PortRcvErrorDetails: "), std::string::npos)
      << r.err;
  EXPECT_EQ(fabric_.counter(sw1(), 3, "PortLocalPhysicalErrors"), 3u);
  r = run({"perf", "reset", "lid", "2", "port", "3", "vl"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("lid 2 port 3: cannot reset PortVLXmitWaitCounters: "), std::string::npos)
      << r.err;
}

TEST_F(PerfGroupsTest, PerfResetOfNamedPortCounters) {
  madtest::Result r = run({"perf", "reset", "lid", "2", "port", "6", "symbol_errors", "xmit_wait"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::vector<Mad> pc = perf_mads(mad::kPortCounters.id, mad::kSet);
  ASSERT_EQ(pc.size(), 1u);
  EXPECT_EQ(pc[0].get_attr(mad::kPortCounters, "CounterSelect"), 1u);
  EXPECT_EQ(pc[0].get_attr(mad::kPortCounters, "CounterSelect2"), 1u);
  EXPECT_TRUE(perf_mads(mad::kPortCountersExtended.id, mad::kSet).empty());
  EXPECT_EQ(fabric_.counter(sw1(), 6, "SymbolErrorCounter"), 0u);
  EXPECT_EQ(fabric_.counter(sw1(), 6, "PortXmitData"), 1006u);
}

TEST_F(PerfGroupsTest, CounterNamesOutsideTheGroupsAreUsageErrors) {
  for (std::vector<std::string> bad : {
           std::vector<std::string>{"perf", "show", "lid", "2", "details", "reset",
                                    "xmit_wait_vl3"},
           {"perf", "show", "lid", "2", "looping_errors"},
           {"perf", "reset", "lid", "2", "vl", "looping_errors"},
           {"-w", "1", "perf", "show", "lid", "2", "reset"},
       }) {
    madtest::Result r = run(bad);
    EXPECT_NE(r.status, 0) << bad[4];
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  EXPECT_TRUE(sent_.empty() || perf_mads(mad::kPortCounters.id, mad::kSet).empty());
}

TEST_F(PerfGroupsTest, DetailsShowOnePortSelectAndMetricsNameEveryCounter) {
  madtest::Result r = run({"-d", "perf", "show", "lid", "2", "port", "3", "details", "vl", "op"});
  ASSERT_EQ(r.status, 0) << r.err;
  size_t first = r.out.find(" port_select 3 ");
  ASSERT_NE(first, std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(" port_select ", first + 1), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(" counter_select ", r.out.find(" counter_select ") + 1), std::string::npos)
      << r.out;
  r = run({"--openmetrics", "perf", "show", "lid", "2", "port", "3", "vl", "op"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("# TYPE rdma_ib_port_xmit_wait_vl3 counter\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rdma_ib_port_xmit_wait_vl3_total{component=\"switch\",local_guid="
                       "\"0x0000000000200000\",local_name=\"sw1\",local_port=\"3\","),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("remote_name=\"sw2\",remote_port=\"3\"} 300\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rdma_ib_port_op_vl0_bytes_total{"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("op_code"), std::string::npos) << r.out;
}

TEST_F(PerfGroupsTest, WatchGivesRatesOfEveryGroup) {
  madtest::Result r =
      run({"-j", "-w", "1", "-c", "2", "perf", "show", "lid", "2", "port", "3", "details", "vl"});
  ASSERT_EQ(r.status, 0) << r.err;
  size_t nl = r.out.find('\n');
  ASSERT_NE(nl, std::string::npos);
  auto first = nlohmann::json::parse(r.out.substr(0, nl));
  auto second = nlohmann::json::parse(r.out.substr(nl + 1));
  EXPECT_EQ(first[0]["xmit_wait_vl3"], 300);
  EXPECT_EQ(first[0]["local_physical_errors"], 3);
  EXPECT_FALSE(first[0].contains("rate"));
  EXPECT_EQ(second[0]["rate"]["xmit_wait_vl3"], 0);
  EXPECT_EQ(second[0]["rate"]["sw_hoq_lifetime_limit_discards"], 0);
}

}  // namespace
}  // namespace rdma
