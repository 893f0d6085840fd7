// Which ports a table or PMA query covers, for switches and CAs.
#include "lib/ib/port_select.h"

#include <gtest/gtest.h>

#include "lib/error.h"

namespace rdma::ib {
namespace {

NodeInfo node(NodeType t, uint8_t ports, uint8_t local) {
  NodeInfo n;
  n.node_type = static_cast<uint8_t>(t);
  n.num_ports = ports;
  n.local_port = local;
  return n;
}

TEST(PortSelect, TablePort) {
  NodeInfo sw = node(NodeType::Switch, 8, 0), ca = node(NodeType::Ca, 2, 1);
  EXPECT_EQ(table_port(sw, std::nullopt, "lid 2"), 0);
  EXPECT_EQ(table_port(sw, 8, "lid 2"), 8);
  EXPECT_EQ(table_port(ca, std::nullopt, "lid 4"), 1);
  EXPECT_EQ(table_port(ca, 1, "lid 4"), 1);
  try {
    table_port(sw, 9, "lid 2");
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "lid 2 has no port 9 (a switch with ports 0-8)");
  }
  EXPECT_THROW(table_port(ca, 2, "lid 4"), Error);
}

TEST(PortSelect, CheckPortNamesWhatTheNodeHas) {
  NodeInfo sw = node(NodeType::Switch, 8, 0), ca = node(NodeType::Ca, 2, 1),
           ca1 = node(NodeType::Ca, 1, 1);
  EXPECT_NO_THROW(check_port(sw, 0, "lid 2"));
  EXPECT_NO_THROW(check_port(sw, 8, "lid 2"));
  EXPECT_NO_THROW(check_port(ca, 2, "lid 4"));
  auto message = [](const NodeInfo& n, uint8_t port) {
    try {
      check_port(n, port, "lid 4");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message(sw, 9), "lid 4 has no port 9 (a switch with ports 0-8)");
  EXPECT_EQ(message(ca, 0), "lid 4 has no port 0 (a channel adapter with ports 1-2)");
  EXPECT_EQ(message(ca, 3), "lid 4 has no port 3 (a channel adapter with ports 1-2)");
  EXPECT_EQ(message(ca1, 2), "lid 4 has no port 2 (a channel adapter with port 1)");
}

TEST(PortSelect, PerfPorts) {
  NodeInfo sw = node(NodeType::Switch, 3, 0), ca = node(NodeType::Ca, 2, 2);
  EXPECT_EQ(perf_ports(sw, std::nullopt, false, false), std::vector<uint8_t>{1});
  EXPECT_EQ(perf_ports(ca, std::nullopt, false, false), std::vector<uint8_t>{2});
  EXPECT_EQ(perf_ports(ca, 1, false, false), std::vector<uint8_t>{1});
  EXPECT_EQ(perf_ports(sw, std::nullopt, true, true), std::vector<uint8_t>{kAllPorts});
  EXPECT_EQ(perf_ports(sw, std::nullopt, true, false), (std::vector<uint8_t>{1, 2, 3}));
}

}  // namespace
}  // namespace rdma::ib
