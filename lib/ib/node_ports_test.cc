#include "lib/ib/node_ports.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

namespace rdma::ib {
namespace {

std::vector<unsigned> port_numbers(const NodePorts& ports) {
  std::vector<unsigned> out;
  for (const Port& p : ports) out.push_back(p.num);
  return out;
}

TEST(NodePorts, EmptyByDefault) {
  NodePorts p;
  EXPECT_TRUE(p.empty());
  EXPECT_EQ(p.size(), 0u);
  EXPECT_EQ(std::as_const(p).begin(), std::as_const(p).end());
}

// A switch keeps every port, 0 its management port.
TEST(NodePorts, ASwitchKeepsPortZero) {
  NodePorts p(37, false);
  EXPECT_EQ(p.size(), 37u);
  EXPECT_EQ(p.stored(), 37u);
  EXPECT_EQ(port_numbers(p).size(), 37u);
  for (unsigned n = 0; n < 37; ++n) EXPECT_EQ(std::as_const(p)[n].num, n);
  p[0].guid = 7;
  EXPECT_EQ(std::as_const(p)[0].guid, 7u);
}

// A CA's port 0 is not kept, and reads as an empty Port wherever it is read.
TEST(NodePorts, ACasPortZeroReadsEmptyAndIsNotKept) {
  NodePorts p(3, true);
  const NodePorts& c = p;
  EXPECT_EQ(c.size(), 3u);
  EXPECT_EQ(c.stored(), 2u);
  EXPECT_EQ(port_numbers(c), (std::vector<unsigned>{0, 1, 2}));
  EXPECT_EQ(c[0].guid, 0u);
  EXPECT_FALSE(c[0].info);
  EXPECT_FALSE(c[0].peer);
  EXPECT_EQ(c[0].num, 0);
  p[1].guid = 11;
  p[2].peer = PortRef{4, 5};
  EXPECT_EQ(c[1].guid, 11u);
  EXPECT_EQ(c[2].peer->node, 4u);
  EXPECT_EQ(c.stored(), 2u);  // writing ports 1 and 2 keeps port 0 out
  EXPECT_EQ(std::count_if(c.begin(), c.end(), [](const Port& q) { return q.peer.has_value(); }), 1);
}

// Written to, port 0 is kept from then on, the others unchanged: as a
// vector's element, whatever is written reads back.
TEST(NodePorts, WritingAPortZeroNotKeptKeepsIt) {
  NodePorts p(3, true);
  p[1].guid = 11;
  p[0].guid = 5;
  EXPECT_EQ(p.stored(), 3u);
  const NodePorts& c = p;
  EXPECT_EQ(c[0].guid, 5u);
  EXPECT_EQ(c[1].guid, 11u);
  EXPECT_EQ(port_numbers(c), (std::vector<unsigned>{0, 1, 2}));
}

// A writable loop visits port 0 too, so it is kept first.
TEST(NodePorts, AWritableLoopVisitsEveryPort) {
  NodePorts p(3, true);
  std::vector<unsigned> seen;
  for (Port& q : p) {
    seen.push_back(q.num);
    q.guid = 100 + q.num;
  }
  EXPECT_EQ(seen, (std::vector<unsigned>{0, 1, 2}));
  EXPECT_EQ(std::as_const(p)[0].guid, 100u);
  EXPECT_EQ(std::as_const(p)[2].guid, 102u);
}

TEST(NodePorts, CopiesOwnTheirPortsAndMovesLeaveNone) {
  NodePorts a(3, true);
  a[2].guid = 2;
  NodePorts b = a;
  b[2].guid = 3;
  EXPECT_EQ(std::as_const(a)[2].guid, 2u);
  EXPECT_EQ(b.stored(), 2u);
  NodePorts c = std::move(a);
  EXPECT_EQ(c.size(), 3u);
  EXPECT_EQ(std::as_const(c)[2].guid, 2u);
  EXPECT_TRUE(a.empty());  // as a moved-from vector
  a = c;
  EXPECT_EQ(std::as_const(a)[2].guid, 2u);
  b = std::move(c);
  EXPECT_EQ(std::as_const(b)[2].guid, 2u);
  EXPECT_TRUE(c.empty());
}

// As a vector's resize: the ports kept, the new ones default (number 0).
TEST(NodePorts, ResizeKeepsThePortsAsAVectorDoes) {
  NodePorts p(2, true);
  p[1].guid = 1;
  p.resize(3);
  const NodePorts& c = p;
  EXPECT_EQ(c.size(), 3u);
  EXPECT_EQ(c.stored(), 2u);
  EXPECT_EQ(c[1].guid, 1u);
  EXPECT_EQ(c[2].num, 0);
  p.resize(1);
  EXPECT_EQ(c.size(), 1u);
  EXPECT_EQ(c.stored(), 0u);
  EXPECT_FALSE(c[0].info);
  p.resize(0);
  EXPECT_TRUE(c.empty());
}

// A CA with no ports (as a lying NodeInfo may say) holds nothing.
TEST(NodePorts, ACaOfNoPortsHoldsNothing) {
  NodePorts p(1, true);
  EXPECT_EQ(p.size(), 1u);
  EXPECT_EQ(p.stored(), 0u);
  EXPECT_EQ(port_numbers(p), (std::vector<unsigned>{0}));
}

}  // namespace
}  // namespace rdma::ib
