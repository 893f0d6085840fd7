#include "lib/ib/fabric_edit.h"

#include <gtest/gtest.h>

#include "lib/error.h"

namespace rdma::ib {
namespace {

// A switch (GUID 0x10, its port 0 too) linked to two ports of one CA
// (node 0x20, ports 0x21 and 0x22), both in system image 0x99.
Fabric small_fabric() {
  Fabric f;
  NodeInfo sw;
  sw.node_type = static_cast<uint8_t>(NodeType::Switch);
  sw.num_ports = 2;
  sw.node_guid = sw.port_guid = 0x10;
  sw.sys_image_guid = 0x99;
  NodeInfo ca;
  ca.node_type = static_cast<uint8_t>(NodeType::Ca);
  ca.num_ports = 2;
  ca.node_guid = 0x20;
  ca.port_guid = 0x21;
  ca.sys_image_guid = 0x99;
  uint32_t s = f.add(sw, {});
  uint32_t c = f.add(ca, {1});
  f.nodes[s].ports[0].guid = 0x10;
  f.nodes[c].ports[1].guid = 0x21;
  f.nodes[c].ports[2].guid = 0x22;
  f.connect({s, 1}, {c, 1});
  f.connect({s, 2}, {c, 2});
  return f;
}

std::string edit_error(GuidEdit e) {
  Fabric f = small_fabric();
  try {
    edit_guid(f, e);
  } catch (const Error& err) {
    return err.what();
  }
  return "no error";
}

TEST(FabricEdit, ASwitchGuidMovesWithItsPortZeroAndLinks) {
  Fabric f = small_fabric();
  edit_guid(f, {GuidEdit::Kind::Switch, 0, 0x10, 0x11});
  ASSERT_TRUE(f.find(0x11));
  EXPECT_FALSE(f.find(0x10));
  EXPECT_EQ(f.find(0x11)->info.port_guid, 0x11u);
  EXPECT_EQ(f.find(0x11)->ports[0].guid, 0x11u);
  EXPECT_EQ(f.links().size(), 2u);  // links are by node, not by GUID
}

TEST(FabricEdit, CaSysImageAndPortGuids) {
  Fabric f = small_fabric();
  edit_guid(f, {GuidEdit::Kind::Ca, 0, 0x20, 0x30});
  edit_guid(f, {GuidEdit::Kind::Port, 0x30, 0x21, 0x31});
  edit_guid(f, {GuidEdit::Kind::SysImage, 0, 0x99, 0x98});
  const Node* ca = f.find(0x30);
  ASSERT_TRUE(ca);
  EXPECT_EQ(ca->ports[1].guid, 0x31u);
  EXPECT_EQ(ca->info.port_guid, 0x31u);  // the port it was reached by
  EXPECT_EQ(ca->ports[2].guid, 0x22u);
  for (const Node& n : f.nodes) EXPECT_EQ(n.info.sys_image_guid, 0x98u);
}

TEST(FabricEdit, WhatIsNotThereOrTakenIsRefused) {
  EXPECT_EQ(edit_error({GuidEdit::Kind::Switch, 0, 0x20, 0x30}),
            "node GUID 0x0000000000000020 is a channel adapter's, not a switch's");
  EXPECT_EQ(edit_error({GuidEdit::Kind::Ca, 0, 0x10, 0x30}),
            "node GUID 0x0000000000000010 is a switch's, not a channel adapter's");
  EXPECT_EQ(edit_error({GuidEdit::Kind::Ca, 0, 0x77, 0x30}),
            "no node has GUID 0x0000000000000077 in the saved fabric");
  EXPECT_EQ(edit_error({GuidEdit::Kind::Ca, 0, 0x20, 0x10}),
            "node GUID 0x0000000000000010 is another node's already");
  EXPECT_EQ(edit_error({GuidEdit::Kind::Switch, 0, 0x10, 0x22}),
            "port GUID 0x0000000000000022 is another port's already");
  EXPECT_EQ(edit_error({GuidEdit::Kind::Port, 0x20, 0x23, 0x30}),
            "node 0x0000000000000020 has no port with GUID 0x0000000000000023");
  EXPECT_EQ(edit_error({GuidEdit::Kind::Port, 0x20, 0x21, 0x22}),
            "port GUID 0x0000000000000022 is another port's already");
  EXPECT_EQ(edit_error({GuidEdit::Kind::SysImage, 0, 0x98, 0x97}),
            "no node has system image GUID 0x0000000000000098 in the saved fabric");
}

}  // namespace
}  // namespace rdma::ib
