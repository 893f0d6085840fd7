// Whole attributes read and written on the fabric double (the client on
// hca1; sw1 LID 2, hca2 LID 3): the port in each port-indexed modifier,
// a PMA attribute's PortSelect, a Set read first and answered, and what
// the answer says was not taken.
#include "lib/ib/attribute.h"

#include <gtest/gtest.h>

#include <vector>

#include "lib/mad/attrs.h"
#include "lib/testing/fabric/client.h"

namespace rdma::ib {
namespace {

TEST(AttributeModifier, ThePortWhereEachAttributeKeepsIt) {
  EXPECT_EQ(smp_port_modifier(mad::kPortInfo, 3, 0), 3u);
  EXPECT_FALSE(smp_port_modifier(mad::kPortInfo, 3, 5).has_value());  // a modifier besides
  EXPECT_EQ(smp_port_modifier(mad::kMlnxExtPortInfo, 255, 0), 255u);
  EXPECT_EQ(smp_port_modifier(mad::kPKeyTable, 3, 2), 0x00030002u);
  EXPECT_EQ(smp_port_modifier(mad::kPKeyTable, 255, 0x7ff), 0x00ff07ffu);
  EXPECT_EQ(smp_port_modifier(mad::kVlArbTable, 3, 2), 0x00020003u);
  EXPECT_FALSE(smp_port_modifier(mad::kNodeInfo, 3, 0).has_value());
  EXPECT_FALSE(smp_port_modifier(mad::kSl2VlTable, 3, 0).has_value());
}

// A switch's port 3 P_Key table: the port goes above the block.
TEST(AttributeRead, ASwitchPortsTableByItsPort) {
  ibtest::FabricClient f;
  f.node("sw1").ports[3].pkeys = {0xffff, 0x8005};
  AttrAccess at{&mad::kPKeyTable, 0, 3};
  mad::Mad m = read_attribute(f.client(), ibtest::FabricClient::lid_route(2), at);
  EXPECT_EQ(mad::get_field(mad::kPKeyTable, m.data(), "P_KeyTableBlock", 1), 0x8005u);
  at.port = 4;  // another port: the default table
  m = read_attribute(f.client(), ibtest::FabricClient::lid_route(2), at);
  EXPECT_EQ(mad::get_field(mad::kPKeyTable, m.data(), "P_KeyTableBlock", 1), 0u);
}

// A PMA attribute goes to the route's LID with PortSelect set.
TEST(AttributeRead, APmaAttributeByPortSelect) {
  ibtest::FabricClient f;
  f.fabric().set_counter(f.fabric().node("sw1"), 4, "SymbolErrorCounter", 65535);
  AttrAccess at{&mad::kPortCounters, 0, 4};
  mad::Mad m = read_attribute(f.client(), ibtest::FabricClient::lid_route(2), at);
  EXPECT_EQ(mad::get_field(mad::kPortCounters, m.data(), "PortSelect"), 4u);
  EXPECT_EQ(mad::get_field(mad::kPortCounters, m.data(), "SymbolErrorCounter"), 65535u);
  at.port = 3;
  m = read_attribute(f.client(), ibtest::FabricClient::lid_route(2), at);
  EXPECT_EQ(mad::get_field(mad::kPortCounters, m.data(), "SymbolErrorCounter"), 0u);
}

// A Set starts from the attribute as read: the field changed, the rest
// as it was (PortState written as "no change"); the answer holds it.
TEST(AttributeWrite, ReadThenSetThenTheAnswer) {
  ibtest::FabricClient f;
  std::vector<mad::Assignment> changes = {
      mad::parse_assignment(mad::kPortInfo, "NeighborMTU=1024")};
  AttrAccess at{&mad::kPortInfo, 0, 1};
  mad::Mad answer =
      write_attribute(f.client(), ibtest::FabricClient::lid_route(3), at, changes, {});
  EXPECT_EQ(mad::get_field(mad::kPortInfo, answer.data(), "NeighborMTU"), 3u);
  EXPECT_EQ(mad::get_field(mad::kPortInfo, answer.data(), "LID"), 3u);
  EXPECT_EQ(f.node("hca2").ports[1].neighbor_mtu, 3);
  EXPECT_EQ(f.node("hca2").ports[1].state, ibtest::kActive);  // no transition asked
  EXPECT_TRUE(not_taken(mad::kPortInfo, changes, answer.data()).empty());
}

// What an answer shows as not taken: the field's own format, a table's
// element, a key without its value; fields that do not read back (a state
// written as a transition) and values taken are not named.
TEST(AttributeWrite, WhatWasNotTaken) {
  std::vector<uint8_t> pi(mad::kPortInfo.bytes);
  mad::set_field(mad::kPortInfo, pi, "LID", 7);
  mad::set_field(mad::kPortInfo, pi, "MasterSMLID", 1);
  std::vector<mad::Assignment> changes = {
      mad::parse_assignment(mad::kPortInfo, "LID=5"),
      mad::parse_assignment(mad::kPortInfo, "MasterSMLID=1"),
      mad::parse_assignment(mad::kPortInfo, "M_Key=1"),
      mad::parse_assignment(mad::kPortInfo, "PortState=4"),
  };
  EXPECT_EQ(not_taken(mad::kPortInfo, changes, pi),
            (std::vector<std::string>{"LID=5 (it has 7)", "M_Key (it has another)"}));
  std::vector<uint8_t> pk(mad::kPKeyTable.bytes);
  std::vector<mad::Assignment> keys = {
      mad::parse_assignment(mad::kPKeyTable, "P_KeyTableBlock[3]=0x8001")};
  EXPECT_EQ(not_taken(mad::kPKeyTable, keys, pk),
            (std::vector<std::string>{"P_KeyTableBlock[3]=0x8001 (it has 0x0000)"}));
}

}  // namespace
}  // namespace rdma::ib
