// The order of a switch's PortInfo sweep, on its own: every port once, port
// 0 first, the halves in turn from a hashed port, and the start switch's
// half away from its CA first. (That discovery passes the start switch as
// such is discover_test.cc's TheStartSwitchAsksTheHalfAwayFromItsCaFirst.)
#include "lib/ib/sweep_order.h"

#include <gtest/gtest.h>

#include <set>

namespace rdma::ib {
namespace {

NodeInfo sweep_order_switch(uint64_t guid, uint8_t ports, uint8_t arrived) {
  NodeInfo ni;
  ni.node_guid = guid;
  ni.node_type = static_cast<uint8_t>(NodeType::Switch);
  ni.num_ports = ports;
  ni.local_port = arrived;
  return ni;
}

// The port i positions after p in the ring of ports 1..n.
unsigned sweep_order_after(unsigned p, unsigned i, unsigned n) {
  return 1 + (p - 1 + i) % n;
}

TEST(SweepOrder, EveryPortOncePortZeroFirst) {
  for (unsigned ports : {1u, 2u, 5u, 8u, 36u, 48u, 255u})
    for (uint64_t guid : {0x1ull, 0x2c90300a1b2c3ull, 0xffffffffffffffffull})
      for (bool start : {false, true}) {
        std::vector<uint8_t> order =
            sweep_order(sweep_order_switch(guid, static_cast<uint8_t>(ports), 1), start);
        ASSERT_EQ(order.size(), ports + 1) << ports;
        EXPECT_EQ(order[0], 0);
        std::set<unsigned> each(order.begin() + 1, order.end());
        EXPECT_EQ(each.size(), ports) << ports;
        EXPECT_EQ(*each.begin(), 1u);
        EXPECT_EQ(*each.rbegin(), ports);
      }
}

TEST(SweepOrder, ASwitchWithNoPortsAsksPortZeroOnly) {
  EXPECT_EQ(sweep_order(sweep_order_switch(0x10, 0, 0), true), std::vector<uint8_t>{0});
}

// s, s+N/2, s+1, s+N/2+1, ...: each pair a half apart, the pairs' first
// ports one after another round the ring, an odd count's last alone.
TEST(SweepOrder, TheHalvesInTurnFromTheFirstPort) {
  for (unsigned ports : {36u, 7u}) {
    unsigned half = (ports + 1) / 2;
    std::vector<uint8_t> order = sweep_order(sweep_order_switch(0x1234, ports, 1));
    unsigned s = order[1];
    for (unsigned i = 0; i < half; ++i) {
      ASSERT_LT(1 + 2 * i, order.size());
      EXPECT_EQ(order[1 + 2 * i], sweep_order_after(s, i, ports)) << ports << " " << i;
      if (i + half < ports) {
        EXPECT_EQ(order[2 + 2 * i], sweep_order_after(s, i + half, ports)) << ports << " " << i;
      }
    }
  }
}

// The first port comes from the GUID: the same switch always starts at the
// same port, and the switches of a group (consecutive GUIDs) start at ports
// spread over the switch, not all at one.
TEST(SweepOrder, TheFirstPortIsHashedFromTheGuid) {
  std::set<unsigned> firsts;
  for (uint64_t guid = 0x2c90300001000; guid < 0x2c90300001000 + 36; ++guid) {
    NodeInfo ni = sweep_order_switch(guid, 36, 1);
    EXPECT_EQ(sweep_order(ni), sweep_order(ni));
    firsts.insert(sweep_order(ni)[1]);
  }
  EXPECT_GE(firsts.size(), 18u);
}

// The start switch: the half not holding its arrival port (the start CA's)
// first, each half in the order it had, the other switches untouched but
// for that.
TEST(SweepOrder, TheStartSwitchAsksTheHalfAwayFromItsArrivalFirst) {
  for (uint64_t guid : {0x1ull, 0x77ull, 0x2c90300a1b2c3ull})
    for (unsigned arrived : {1u, 18u, 19u, 36u}) {
      NodeInfo ni = sweep_order_switch(guid, 36, static_cast<uint8_t>(arrived));
      std::vector<uint8_t> plain = sweep_order(ni);
      std::vector<uint8_t> start = sweep_order(ni, true);
      bool arrival_low = arrived <= 18;
      std::vector<uint8_t> far, near;
      for (size_t i = 1; i < plain.size(); ++i)
        ((plain[i] <= 18) == arrival_low ? near : far).push_back(plain[i]);
      std::vector<uint8_t> want{0};
      want.insert(want.end(), far.begin(), far.end());
      want.insert(want.end(), near.begin(), near.end());
      EXPECT_EQ(start, want) << guid << " " << arrived;
      for (size_t i = 1; i <= 18; ++i) EXPECT_NE(start[i] <= 18, arrival_low) << arrived;
    }
}

// An arrival port the switch does not have (a damaged NodeInfo) leaves the
// order as any other switch's.
TEST(SweepOrder, AnArrivalPortOutOfRangeLeavesTheOrder) {
  for (unsigned arrived : {0u, 37u}) {
    NodeInfo ni = sweep_order_switch(0x99, 36, static_cast<uint8_t>(arrived));
    EXPECT_EQ(sweep_order(ni, true), sweep_order(ni)) << arrived;
  }
}

}  // namespace
}  // namespace rdma::ib
