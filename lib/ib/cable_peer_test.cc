// The local port's cable on the fabric double (the client on hca1 port 1,
// cabled to sw1 port 1): both ends as a fabric of one link, the switch's
// port 0 with its LID, a port without a link as the local node alone, and
// a peer that does not answer as an error.
#include "lib/ib/cable_peer.h"

#include <gtest/gtest.h>

#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/testing/fabric/client.h"

namespace rdma::ib {
namespace {

TEST(CablePeer, TheLocalPortAndTheSwitchBehindIt) {
  ibtest::FabricClient f;
  Fabric c = cable_peer(f.client());
  ASSERT_EQ(c.nodes.size(), 2u);
  const Node& local = c.nodes[0];
  const Node& peer = c.nodes[1];
  EXPECT_EQ(local.description, "hca1");
  EXPECT_EQ(local.info.node_guid, f.node("hca1").node_guid);
  ASSERT_TRUE(local.ports[1].info);
  EXPECT_EQ(local.ports[1].info->lid, 1);
  EXPECT_EQ(local.ports[1].guid, f.node("hca1").node_guid + 1);
  EXPECT_FALSE(local.ports[2].info);  // only the port the client is on
  EXPECT_EQ(peer.description, "sw1");
  EXPECT_TRUE(peer.is_switch());
  EXPECT_EQ(peer.path, std::vector<uint8_t>{1});
  ASSERT_TRUE(peer.ports[0].info);  // port 0 holds the switch's LID
  EXPECT_EQ(peer.ports[0].info->lid, 2);
  ASSERT_TRUE(peer.ports[1].info);  // the port the SMP came in by
  EXPECT_FALSE(peer.ports[2].info);
  ASSERT_TRUE(local.ports[1].peer);
  EXPECT_EQ(local.ports[1].peer->node, 1u);
  EXPECT_EQ(local.ports[1].peer->port, 1);
  ASSERT_TRUE(peer.ports[1].peer);
  EXPECT_EQ(peer.ports[1].peer->node, 0u);
}

TEST(CablePeer, NoLinkNoPeer) {
  ibtest::FabricClient f;
  f.fabric().unlink(f.fabric().node("hca1"), 1);
  Fabric c = cable_peer(f.client());
  ASSERT_EQ(c.nodes.size(), 1u);
  ASSERT_TRUE(c.nodes[0].ports[1].info);
  EXPECT_FALSE(c.nodes[0].ports[1].info->link_up());
  EXPECT_FALSE(c.nodes[0].ports[1].peer);
}

TEST(CablePeer, APeerThatDoesNotAnswerIsAnError) {
  ibtest::FabricClient f;
  f.fabric().drop({{f.fabric().node("sw1"), -1, mad::kNodeDescription.id}});
  EXPECT_THROW(cable_peer(f.client()), Error);
}

}  // namespace
}  // namespace rdma::ib
