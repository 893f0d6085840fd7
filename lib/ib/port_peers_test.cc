// PortPeers: what is behind a port, learnt from either end of its link.
#include "lib/ib/port_peers.h"

#include <gtest/gtest.h>

namespace rdma::ib {
namespace {

NodeInfo port_peers_node(uint64_t guid, NodeType type, uint8_t ports, uint8_t arrived,
                         uint64_t port_guid) {
  NodeInfo ni;
  ni.node_guid = guid;
  ni.node_type = static_cast<uint8_t>(type);
  ni.num_ports = ports;
  ni.local_port = arrived;
  ni.port_guid = port_guid;
  ni.vendor_id = 0x2c9;
  return ni;
}

TEST(PortPeers, ASwitchsProbeTeachesBothEnds) {
  PortPeers peers;
  NodeInfo sw = port_peers_node(0x10, NodeType::Switch, 36, 1, 0x10);
  NodeInfo ca = port_peers_node(0x20, NodeType::Ca, 2, 2, 0x22);  // arrived at its port 2
  peers.learn(sw, 7, ca);
  std::optional<NodeInfo> there = peers.find({0x10, 7});
  ASSERT_TRUE(there);
  EXPECT_EQ(there->node_guid, 0x20u);
  EXPECT_EQ(there->local_port, 2);
  EXPECT_EQ(there->port_guid, 0x22u);
  EXPECT_EQ(there->num_ports, 2);
  std::optional<NodeInfo> back = peers.find({0x20, 2});
  ASSERT_TRUE(back);
  EXPECT_EQ(back->node_guid, 0x10u);
  EXPECT_EQ(back->local_port, 7);
  EXPECT_TRUE(back->is_switch());
  EXPECT_FALSE(peers.known({0x10, 8}));
  EXPECT_FALSE(peers.known({0x20, 1}));
}

TEST(PortPeers, ACasProbeTeachesOnlyItsOwnPort) {
  PortPeers peers;
  NodeInfo ca = port_peers_node(0x20, NodeType::Ca, 2, 1, 0x21);
  NodeInfo sw = port_peers_node(0x10, NodeType::Switch, 36, 5, 0x10);
  peers.learn(ca, 1, sw);
  EXPECT_TRUE(peers.known({0x20, 1}));
  // The way back would need the CA's NodeInfo as seen through port 1 of the
  // switch, whose PortGUID the CA's own probe does not show for sure.
  EXPECT_FALSE(peers.known({0x10, 5}));
}

TEST(PortPeers, TheFirstAnswerStandsAndALieIsKeptWhole) {
  PortPeers peers;
  NodeInfo a = port_peers_node(0x10, NodeType::Switch, 36, 1, 0x10);
  NodeInfo b = port_peers_node(0x30, NodeType::Switch, 36, 4, 0x30);
  peers.learn(a, 3, b);
  NodeInfo other = port_peers_node(0x31, NodeType::Switch, 36, 9, 0x31);
  peers.learn(a, 3, other);
  EXPECT_EQ(peers.find({0x10, 3})->node_guid, 0x30u);
  // GUID 0x30 again, now claiming 8 ports: that answer is not made over
  // into the first one's.
  NodeInfo liar = port_peers_node(0x30, NodeType::Switch, 8, 2, 0x30);
  peers.learn(a, 5, liar);
  EXPECT_EQ(peers.find({0x10, 5})->num_ports, 8);
  EXPECT_EQ(peers.find({0x10, 3})->num_ports, 36);
}

TEST(PortPeers, EachPortOfACaKeepsItsPortGuid) {
  PortPeers peers;
  NodeInfo s1 = port_peers_node(0x10, NodeType::Switch, 36, 1, 0x10);
  NodeInfo s2 = port_peers_node(0x11, NodeType::Switch, 36, 1, 0x11);
  peers.learn(s1, 3, port_peers_node(0x20, NodeType::Ca, 2, 1, 0x21));
  peers.learn(s2, 4, port_peers_node(0x20, NodeType::Ca, 2, 2, 0x22));
  EXPECT_EQ(peers.find({0x10, 3})->port_guid, 0x21u);
  EXPECT_EQ(peers.find({0x11, 4})->port_guid, 0x22u);
  EXPECT_EQ(peers.find({0x11, 4})->local_port, 2);
  EXPECT_EQ(peers.size(), 4u);  // both ports, both ways back
}

TEST(PortPeers, ANodeMetAsANearEndTakesItsFirstAnswer) {
  PortPeers peers;
  NodeInfo ca = port_peers_node(0x20, NodeType::Ca, 2, 1, 0x21);
  NodeInfo sw = port_peers_node(0x10, NodeType::Switch, 36, 5, 0x10);
  peers.learn(ca, 1, sw);
  // The CA as a probe through another switch shows it: a different device
  // ID is not the near end's NodeInfo made over.
  NodeInfo seen = ca;
  seen.device_id = 7;
  peers.learn(port_peers_node(0x11, NodeType::Switch, 36, 1, 0x11), 2, seen);
  EXPECT_EQ(peers.find({0x11, 2})->device_id, 7);
}

TEST(PortPeers, APortPastTheNodesCountIsKeptWhole) {
  PortPeers peers;
  NodeInfo a = port_peers_node(0x10, NodeType::Switch, 8, 1, 0x10);
  NodeInfo b = port_peers_node(0x30, NodeType::Switch, 36, 4, 0x30);
  peers.learn(a, 20, b);  // port 20 of an 8-port switch
  ASSERT_TRUE(peers.known({0x10, 20}));
  EXPECT_EQ(peers.find({0x10, 20})->node_guid, 0x30u);
  EXPECT_EQ(peers.find({0x30, 4})->local_port, 20);
  EXPECT_FALSE(peers.known({0x10, 21}));
  EXPECT_FALSE(peers.known({0x99, 1}));
}

// What a switch's probe teaches of the way back gives way to the port's
// own probe; the first answer through the port itself stands.
TEST(PortPeers, APortsOwnAnswerOutranksTheOtherEnds) {
  PortPeers peers;
  NodeInfo phantom = port_peers_node(0x30, NodeType::Switch, 8, 4, 0x30);
  NodeInfo sw1 = port_peers_node(0x10, NodeType::Switch, 8, 3, 0x10);  // arrived at its port 3
  peers.learn(phantom, 3, sw1, 3);
  EXPECT_EQ(peers.find({0x10, 3})->node_guid, 0x30u);
  peers.learn(sw1, 3, port_peers_node(0x20, NodeType::Switch, 8, 3, 0x20), 2);
  EXPECT_EQ(peers.find({0x10, 3})->node_guid, 0x20u);
  EXPECT_EQ(peers.find({0x10, 3})->local_port, 3);
  peers.learn(sw1, 3, port_peers_node(0x21, NodeType::Switch, 8, 3, 0x21), 2);
  peers.learn(port_peers_node(0x22, NodeType::Switch, 8, 1, 0x22), 6, sw1, 1);
  EXPECT_EQ(peers.find({0x10, 3})->node_guid, 0x20u);
  // 0x22's port 6 arrives at sw1's port 3, whose own answer is 0x20's port
  // 3: one of them lies about a port number, and 0x20's port 3, learnt
  // only from sw1's answer, is dropped (a wave probes it itself).
  EXPECT_FALSE(peers.known({0x20, 3}));
  // (0x30,3) (0x10,3) (0x21,3) (0x22,6): the port made over once.
  EXPECT_EQ(peers.size(), 4u);
}

// sw1's port 4 answers as 0x30 (at 2 hops), whose probe through its port 3
// (3 hops) meets sw1's port 3: what sw1's port 3 has behind it only that
// deeper probe said, of a node one route alone showed (a route that lies
// makes such a phantom), till a probe through another port shows it too.
TEST(PortPeers, AnAnswerOnlyADeeperProbeGaveIsDoubtful) {
  PortPeers peers;
  NodeInfo sw1 = port_peers_node(0x10, NodeType::Switch, 8, 4, 0x10);
  NodeInfo phantom = port_peers_node(0x30, NodeType::Switch, 8, 4, 0x30);
  peers.learn(sw1, 4, phantom, 2);
  NodeInfo sw1_at_3 = sw1;
  sw1_at_3.local_port = 3;
  peers.learn(phantom, 3, sw1_at_3, 3);
  EXPECT_TRUE(peers.doubtful({0x10, 3}, 2));
  EXPECT_FALSE(peers.doubtful({0x10, 3}, 3));  // no deeper than the probe asking
  EXPECT_FALSE(peers.doubtful({0x10, 4}, 1));  // learnt through the port itself
  EXPECT_FALSE(peers.doubtful({0x30, 3}, 1));
  EXPECT_FALSE(peers.doubtful({0x10, 5}, 1));  // not learnt
  NodeInfo again = phantom;
  again.local_port = 5;
  peers.learn(port_peers_node(0x11, NodeType::Switch, 8, 1, 0x11), 7, again, 2);
  EXPECT_FALSE(peers.doubtful({0x10, 3}, 2));
}

// Thousands of nodes, their GUIDs alike but in a few bits (one vendor's),
// past every growth of the index: each still found, none taken for another.
TEST(PortPeers, ThousandsOfNodesEachFoundBehindItsPort) {
  PortPeers peers;
  NodeInfo sw = port_peers_node(0x10, NodeType::Switch, 36, 1, 0x10);
  constexpr uint64_t kBase = 0x0002c90300000000ULL;
  for (uint64_t i = 0; i < 3000; ++i) {
    NodeInfo near = port_peers_node(kBase + i * 0x100, NodeType::Switch, 36, 1, kBase + i * 0x100);
    peers.learn(near, 1 + i % 36, port_peers_node(kBase + i * 0x100 + 1, NodeType::Ca, 1, 1, 0));
  }
  peers.learn(sw, 3, port_peers_node(kBase, NodeType::Switch, 36, 5, kBase));
  for (uint64_t i = 0; i < 3000; ++i) {
    std::optional<NodeInfo> ca = peers.find({kBase + i * 0x100, 1 + i % 36});
    ASSERT_TRUE(ca) << i;
    EXPECT_EQ(ca->node_guid, kBase + i * 0x100 + 1);
    EXPECT_FALSE(peers.known({kBase + i * 0x100, 1 + (i + 1) % 36})) << i;
    EXPECT_TRUE(peers.known({kBase + i * 0x100 + 1, 1})) << i;  // the way back
  }
  EXPECT_FALSE(peers.known({kBase + 0x80, 1}));  // never met
  EXPECT_EQ(peers.find({0x10, 3})->node_guid, kBase);
}

}  // namespace
}  // namespace rdma::ib
