#include "lib/ib/fabric_model.h"

#include <gtest/gtest.h>

namespace rdma::ib {
namespace {

NodeInfo model_node(uint64_t guid, uint8_t ports, bool sw = false) {
  NodeInfo ni;
  ni.node_guid = guid;
  ni.num_ports = ports;
  ni.node_type = static_cast<uint8_t>(sw ? NodeType::Switch : NodeType::Ca);
  return ni;
}

TEST(FabricModel, AddsEachGuidOnce) {
  Fabric f;
  EXPECT_EQ(f.add(model_node(0x10, 2), {}), 0u);
  EXPECT_EQ(f.add(model_node(0x20, 36, true), {1}), 1u);
  EXPECT_EQ(f.add(model_node(0x10, 2), {1, 2}), 0u);  // known: its first route stays
  ASSERT_EQ(f.nodes.size(), 2u);
  EXPECT_TRUE(f.nodes[0].path.empty());
  EXPECT_EQ(f.nodes[1].path, std::vector<uint8_t>{1});
  ASSERT_EQ(f.nodes[1].ports.size(), 37u);
  EXPECT_EQ(f.nodes[1].ports[36].num, 36);
  EXPECT_EQ(f.index_of(0x20), 1u);
  EXPECT_EQ(f.find(0x10), &f.nodes[0]);
  EXPECT_EQ(f.index_of(0x30), std::nullopt);
  EXPECT_EQ(f.find(0x30), nullptr);
}

// Many GUIDs that differ in their high bits only, or in their low bits
// only: every one found at its own index, none found that was not added.
TEST(FabricModel, IndexesThousandsOfGuids) {
  Fabric f;
  for (uint64_t i = 0; i < 3000; ++i) f.add(model_node((i << 44) + 1, 2), {});
  for (uint64_t i = 0; i < 3000; ++i) f.add(model_node(0x0002c90300001000ull + i, 2), {});
  ASSERT_EQ(f.nodes.size(), 6000u);
  for (uint32_t i = 0; i < f.nodes.size(); ++i) ASSERT_EQ(f.index_of(f.nodes[i].info.node_guid), i);
  EXPECT_EQ(f.index_of(0x0002c90300001000ull + 3000), std::nullopt);
  EXPECT_EQ(f.index_of(0), std::nullopt);
}

TEST(FabricModel, ReindexFollowsAChangedGuid) {
  Fabric f;
  f.add(model_node(0x10, 2), {});
  f.add(model_node(0x20, 2), {});
  f.nodes[1].info.node_guid = 0x21;
  f.reindex();
  EXPECT_EQ(f.index_of(0x21), 1u);
  EXPECT_EQ(f.index_of(0x20), std::nullopt);
  EXPECT_EQ(f.index_of(0x10), 0u);
  EXPECT_EQ(f.add(model_node(0x21, 2), {}), 1u);
}

// A copy finds its own nodes: the index holds positions, not addresses.
TEST(FabricModel, CopyKeepsTheIndex) {
  Fabric f;
  f.add(model_node(0x10, 2), {});
  Fabric g = f;
  g.add(model_node(0x20, 2), {});
  EXPECT_EQ(g.find(0x10), &g.nodes[0]);
  EXPECT_EQ(g.index_of(0x20), 1u);
  EXPECT_EQ(f.index_of(0x20), std::nullopt);
}

TEST(FabricModel, ConnectsBothEndsAndListsLinksOnce) {
  Fabric f;
  f.add(model_node(0x10, 2), {});
  f.add(model_node(0x20, 4, true), {1});
  f.connect({0, 1}, {1, 3});
  ASSERT_TRUE(f.at({1, 3}).peer);
  EXPECT_EQ(*f.at({1, 3}).peer, (PortRef{0, 1}));
  std::vector<Link> l = f.links();
  ASSERT_EQ(l.size(), 1u);
  EXPECT_EQ(l[0].a, (PortRef{0, 1}));
  EXPECT_EQ(l[0].b, (PortRef{1, 3}));
}

}  // namespace
}  // namespace rdma::ib
