// rdma perf show: the port of each record (a number in JSON, the sum of
// every port too), a port the node lacks refused before anything is read
// or reset, and QP1Dropped among the counters.
#include <nlohmann/json.hpp>

#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

// LID 2 is sw1, an 8-port switch whose PMA has AllPortSelect.
class PerfPortTest : public madtest::MadCmd {
 protected:
  int perf_port_sw1() const { return fabric_.node("sw1"); }
};

TEST_F(PerfPortTest, PortAllSumIsPort255InJsonAndMetricsAndAllInText) {
  fabric_.set_counter(perf_port_sw1(), 2, "SymbolErrorCounter", 5);
  fabric_.set_counter(perf_port_sw1(), 7, "SymbolErrorCounter", 6);
  madtest::Result r = run({"perf", "show", "lid", "2", "port", "all"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("lid 2: port all symbol_errors 11 ", 0), 0u) << r.out;
  nlohmann::json j = json({"perf", "show", "lid", "2", "port", "all"});
  ASSERT_EQ(j.size(), 1u);
  EXPECT_TRUE(j[0]["port"].is_number()) << j[0]["port"];
  EXPECT_EQ(j[0]["port"], 255);
  EXPECT_EQ(j[0]["symbol_errors"], 11);
  r = run({"--openmetrics", "perf", "show", "lid", "2", "port", "all"});
  EXPECT_NE(r.out.find("local_name=\"sw1\",local_port=\"255\"} 11\n"), std::string::npos) << r.out;
}

TEST_F(PerfPortTest, PortAllPortByPortGivesEachRecordItsOwnNumber) {
  node("sw1").all_port_select = false;
  for (int p = 1; p <= 8; ++p) fabric_.set_counter(perf_port_sw1(), p, "LinkDownedCounter", p);
  nlohmann::json j = json({"perf", "show", "lid", "2", "port", "all"});
  ASSERT_EQ(j.size(), 8u);
  for (unsigned p = 1; p <= 8; ++p) {
    EXPECT_TRUE(j[p - 1]["port"].is_number());
    EXPECT_EQ(j[p - 1]["port"], p);
    EXPECT_EQ(j[p - 1]["link_downed"], p);
  }
}

// A list with a port the node lacks: one line naming it, nothing printed
// and, for reset, no port of the list cleared (the check comes first).
TEST_F(PerfPortTest, APortTheNodeLacksIsRefusedBeforeAnyPortIsReadOrReset) {
  fabric_.set_counter(perf_port_sw1(), 7, "SymbolErrorCounter", 5);
  madtest::Result r = run({"perf", "reset", "lid", "2", "port", "7-9"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "lid 2 has no port 9 (a switch with ports 0-8)\n");
  EXPECT_EQ(fabric_.counter(perf_port_sw1(), 7, "SymbolErrorCounter"), 5u);
  r = run({"perf", "show", "lid", "2", "port", "1-9"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "lid 2 has no port 9 (a switch with ports 0-8)\n");
  // hca4 (LID 6) has one port, and no port 0 (only switches have one).
  r = run({"perf", "show", "lid", "6", "port", "0"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "lid 6 has no port 0 (a channel adapter with port 1)\n");
  r = run({"perf", "show", "lid", "6", "port", "1,2", "details"});
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "lid 6 has no port 2 (a channel adapter with port 1)\n");
  EXPECT_EQ(run({"perf", "show", "lid", "2", "port", "0,8"}).status, 0);
}

// Without a target, the local port's own LID (hca1 port 1, LID 1), as
// perfquery without a destination; before an SM has given it one, an error.
TEST_F(PerfPortTest, NoTargetReadsTheLocalPort) {
  madtest::Result r = run({"perf", "show"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("lid 1: port 1 symbol_errors ", 0), 0u) << r.out;
  EXPECT_EQ(run({"perf", "show", "port", "1", "details"}).out.rfind("lid 1: port 1 ", 0), 0u);
  EXPECT_EQ(run({"perf", "caps"}).out.rfind("lid 1: base_version 1 ", 0), 0u);
  fabric_.set_counter(fabric_.node("hca1"), 1, "SymbolErrorCounter", 4);
  ASSERT_EQ(run({"perf", "reset"}).status, 0);
  EXPECT_EQ(fabric_.counter(fabric_.node("hca1"), 1, "SymbolErrorCounter"), 0u);
  no_sm();
  r = run({"perf", "show"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "local port fabric0/1 has no LID (no subnet manager has assigned one): give a "
            "target\n");
}

// QP1Dropped (IBA 1.3: PortCounters bits 160-175, between
// ExcessiveBufferOverrunErrors and VL15Dropped) in text, JSON and metrics.
TEST_F(PerfPortTest, Qp1DroppedIsDecoded) {
  fabric_.set_counter(perf_port_sw1(), 3, "QP1Dropped", 0x1234);
  fabric_.set_counter(perf_port_sw1(), 3, "VL15Dropped", 9);
  fabric_.set_counter(perf_port_sw1(), 3, "ExcessiveBufferOverrunErrors", 15);
  madtest::Result r = run({"perf", "show", "lid", "2", "port", "3"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find(" excessive_buffer_overrun_errors 15 qp1_dropped 4660 vl15_dropped 9 "),
            std::string::npos)
      << r.out;
  nlohmann::json j = json({"perf", "show", "lid", "2", "port", "3"});
  EXPECT_EQ(j[0]["qp1_dropped"], 0x1234);
  r = run({"--openmetrics", "perf", "show", "lid", "2", "port", "3"});
  EXPECT_NE(r.out.find("# TYPE rdma_ib_port_qp1_dropped counter\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("port=\"3\"} 4660\n"), std::string::npos) << r.out;
  // Reset by name: CounterSelect2 bit 1 (IBA 1.3), nothing else cleared.
  sent_.clear();
  r = run({"perf", "reset", "lid", "2", "port", "3", "qp1_dropped"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(fabric_.counter(perf_port_sw1(), 3, "QP1Dropped"), 0u);
  EXPECT_EQ(fabric_.counter(perf_port_sw1(), 3, "VL15Dropped"), 9u);
  ASSERT_FALSE(sent_.empty());
  EXPECT_EQ(sent_.back().get_attr(mad::kPortCounters, "CounterSelect2"), 2u);
  EXPECT_EQ(sent_.back().get_attr(mad::kPortCounters, "CounterSelect"), 0u);
  fabric_.set_counter(perf_port_sw1(), 3, "QP1Dropped", 7);
  ASSERT_EQ(run({"perf", "show", "lid", "2", "port", "3", "reset", "qp1_dropped"}).status, 0);
  EXPECT_EQ(fabric_.counter(perf_port_sw1(), 3, "QP1Dropped"), 0u);
  // 16 bits: the agent saturates it.
  fabric_.set_counter(perf_port_sw1(), 3, "QP1Dropped", 70000);
  EXPECT_EQ(json({"perf", "show", "lid", "2", "port", "3"})[0]["qp1_dropped"], 0xffff);
}

}  // namespace
}  // namespace rdma
