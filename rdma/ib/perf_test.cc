// rdma perf show/reset: PortSelect, AllPortSelect where the PMA has it and
// one query per port where it has not, and what a reset writes.
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "lib/mad/attrs_pma.h"
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
      fabric_.set_counter(sw1(), p, "SymbolErrorCounter", p);
      fabric_.set_counter(sw1(), p, "PortXmitData", 1000 + p);
    }
  }
  int sw1() const { return fabric_.node("sw1"); }

  std::vector<Mad> pma(uint16_t id) const {
    std::vector<Mad> out;
    for (const Mad& m : sent_)
      if (m.mgmt_class() == mad::kClassPerf && m.get(mad::hdr::kAttrId) == id) out.push_back(m);
    return out;
  }
};

TEST_F(Perf, PortAllUsesAllPortSelectWhereThePmaHasIt) {
  madtest::Result r = run({"perf", "show", "lid", "2", "port", "all"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("lid 2: port all symbol_errors 36 ", 0), 0u) << r.out;  // 1+...+8
  ASSERT_EQ(pma(mad::kPortCounters.id).size(), 1u);
  EXPECT_EQ(pma(mad::kPortCounters.id)[0].get_attr(mad::kPortCounters, "PortSelect"), 0xffu);
}

TEST_F(Perf, PortAllAsksEachPortWhereThePmaLacksAllPortSelect) {
  node("sw1").all_port_select = false;
  madtest::Result r = run({"-j", "perf", "show", "lid", "2", "port", "all"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.size(), 8u);  // the switch's ports 1-8
  for (unsigned p = 1; p <= 8; ++p) {
    EXPECT_EQ(j[p - 1]["port"], p);
    EXPECT_EQ(j[p - 1]["symbol_errors"], p);
  }
}

TEST_F(Perf, ExtendedReadsPortCountersExtended) {
  madtest::Result r = run({"-j", "perf", "show", "lid", "2", "port", "3", "extended"});
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(pma(mad::kPortCountersExtended.id).size(), 1u);
  EXPECT_EQ(
      pma(mad::kPortCountersExtended.id)[0].get_attr(mad::kPortCountersExtended, "PortSelect"), 3u);
  // PortXmitData counts 4-byte words: shown in bytes, under a key that says so.
  auto j = nlohmann::json::parse(r.out)[0];
  EXPECT_EQ(j["xmit_bytes"], 4 * 1003);
  EXPECT_FALSE(j.contains("xmit_data"));
  r = run({"perf", "show", "lid", "2", "port", "3"});
  EXPECT_NE(r.out.find(" xmit_bytes 4012 rcv_bytes 0 xmit_pkts 0 "), std::string::npos) << r.out;
}

TEST_F(Perf, ResetClearsEveryCounterOfBothAttributes) {
  madtest::Result r = run({"perf", "reset", "lid", "2", "port", "4"});
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
  EXPECT_EQ(fabric_.counter(sw1(), 4, "SymbolErrorCounter"), 0u);
  EXPECT_EQ(fabric_.counter(sw1(), 4, "PortXmitData"), 0u);
  EXPECT_EQ(fabric_.counter(sw1(), 3, "SymbolErrorCounter"), 3u);  // another port: kept
}

// A PMA with IBA 1.3's 64-bit error counters in PortCountersExtended:
// resetting the group clears them too (CounterSelect2 all ones, as
// perfquery -x -R), not only the traffic counters.
TEST_F(Perf, ResetExtendedClearsItsErrorCounters) {
  node("sw1").additional_ext_counters = true;
  fabric_.set_counter(sw1(), 4, "SymbolErrorCounter", 7);
  fabric_.set_counter(sw1(), 4, "PortXmitWait", 9);
  madtest::Result r = run({"perf", "reset", "lid", "2", "port", "4", "extended"});
  ASSERT_EQ(r.status, 0) << r.err;
  std::vector<Mad> ext = pma(mad::kPortCountersExtended.id);
  ASSERT_EQ(ext.size(), 1u);
  EXPECT_EQ(ext[0].get_attr(mad::kPortCountersExtendedFull, "CounterSelect2"), 0xffffu);
  EXPECT_TRUE(pma(mad::kPortCounters.id).empty());  // only the group asked
  EXPECT_EQ(fabric_.counter(sw1(), 4, "SymbolErrorCounter"), 0u);
  EXPECT_EQ(fabric_.counter(sw1(), 4, "PortXmitWait"), 0u);
}

TEST_F(Perf, ResetAllWithoutExtendedCounters) {
  node("sw1").extended_counters = false;
  madtest::Result r = run({"perf", "reset", "lid", "2", "port", "all"});
  ASSERT_EQ(r.status, 0) << r.err;  // "not supported" for the extended ones: nothing to reset
  ASSERT_EQ(pma(mad::kPortCounters.id).size(), 1u);
  EXPECT_EQ(pma(mad::kPortCounters.id)[0].get_attr(mad::kPortCounters, "PortSelect"), 0xffu);
  for (int p = 1; p <= 8; ++p) EXPECT_EQ(fabric_.counter(sw1(), p, "SymbolErrorCounter"), 0u);
}

TEST_F(Perf, DefaultPortIsTheLidsOwnOnACaAndPort1OnASwitch) {
  ASSERT_EQ(run({"perf", "show", "lid", "2"}).status, 0);
  EXPECT_EQ(pma(mad::kPortCounters.id).back().get_attr(mad::kPortCounters, "PortSelect"), 1u);
}

}  // namespace
}  // namespace rdma

namespace rdma {
namespace {

class PerfMore : public Perf {};

TEST_F(PerfMore, OpenMetricsLabelsTheNodeAndPortLikeFabricErrors) {
  madtest::Result r = run({"--openmetrics", "perf", "show", "lid", "2", "port", "3"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("# TYPE rdma_ib_port_symbol_errors counter\n"
                       "rdma_ib_port_symbol_errors_total{component=\"switch\",local_guid=\""),
            std::string::npos)
      << r.out;
  // Both ends of the cable: sw1 port 3 goes to sw2 port 3 (the SA's LinkRecord).
  EXPECT_NE(r.out.find("local_name=\"sw1\",local_port=\"3\",remote_component=\"switch\","
                       "remote_guid=\""),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("remote_name=\"sw2\",remote_port=\"3\"} 3\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nrdma_ib_perf_up 1\n"), std::string::npos) << r.out;
  // --node-name-map: the name the file gives sw1 (0x200000) is the label.
  std::string map = ::testing::TempDir() + "rdma-perf-names.map";
  std::ofstream(map) << "0x0000000000200000 \"leaf 1 ü\"\n";
  r = run({"--node-name-map", map, "--openmetrics", "perf", "show", "lid", "2", "port", "3"});
  std::remove(map.c_str());
  EXPECT_NE(r.out.find("{component=\"switch\",local_guid=\"0x0000000000200000\",local_name=\"leaf "
                       "1 ü\",local_port=\"3\","),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("port_select"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("# TYPE rdma_ib_port_xmit_bytes counter\n"
                       "rdma_ib_port_xmit_bytes_total{"),
            std::string::npos)
      << r.out;
  // The named node's bytes (1003 words).
  EXPECT_NE(r.out.find("remote_name=\"sw2\",remote_port=\"3\"} 4012\n"), std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.substr(r.out.size() - 6), "# EOF\n");
  // Prometheus' text format names the sample NAME_bytes_total.
  r = run({"--prometheus", "perf", "show", "lid", "2", "port", "3"});
  EXPECT_NE(r.out.find("\nrdma_ib_port_rcv_bytes_total{"), std::string::npos) << r.out;
  // -d adds PortSelect and CounterSelect: configuration, not counters.
  EXPECT_EQ(
      run({"-d", "--openmetrics", "perf", "show", "lid", "2", "port", "3"}).out.find("select"),
      std::string::npos);
}

TEST_F(PerfMore, WatchPrintsOneJsonDocumentPerIntervalWithRates) {
  madtest::Result r = run({"-j", "-w", "1", "-c", "2", "perf", "show", "lid", "2", "port", "3"});
  ASSERT_EQ(r.status, 0) << r.err;
  size_t nl = r.out.find('\n');
  ASSERT_NE(nl, std::string::npos);
  auto first = nlohmann::json::parse(r.out.substr(0, nl));
  auto second = nlohmann::json::parse(r.out.substr(nl + 1));
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0]["symbol_errors"], 3);
  EXPECT_EQ(first[0]["xmit_bytes"], 4012);
  EXPECT_FALSE(first[0].contains("rate"));
  EXPECT_EQ(second[0]["rate"]["symbol_errors"], 0);
  EXPECT_EQ(second[0]["rate"]["xmit_bytes"], 0);
}

TEST_F(PerfMore, WatchAndOpenMetricsMisuseIsOneLine) {
  for (std::vector<std::string> bad : {
           std::vector<std::string>{"-c", "2", "perf", "show", "lid", "2"},
           {"--openmetrics", "-w", "1", "perf", "show", "lid", "2"},
           {"-w", "1", "perf", "reset", "lid", "2"},
           {"--openmetrics", "perf", "reset", "lid", "2"},
           {"-j", "--openmetrics", "perf", "show", "lid", "2"},
       }) {
    madtest::Result r = run(bad);
    EXPECT_EQ(r.status, 1) << bad[0];
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

}  // namespace
}  // namespace rdma
