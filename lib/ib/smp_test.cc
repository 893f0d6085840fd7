// The typed views read MADs captured from ibsim through lib/mad's tables.
#include "lib/ib/smp.h"

#include <gtest/gtest.h>

#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/mad/describe.h"
#include "lib/testing/captured.h"

namespace rdma::ib {
namespace {

std::vector<uint8_t> attr_of(const char* hex) {
  std::vector<uint8_t> m = mad::parse_hex(hex);
  return {m.begin() + 64, m.end()};
}

TEST(Smp, NodeInfoOfASwitch) {
  NodeInfo n = NodeInfo::from(attr_of(mad::captured::kSwitchNodeInfo));
  EXPECT_TRUE(n.is_switch());
  EXPECT_EQ(n.node_type, static_cast<uint8_t>(NodeType::Switch));
  EXPECT_EQ(n.num_ports, 8);
  EXPECT_EQ(n.node_guid, 0x200000u);
  EXPECT_EQ(n.port_guid, 0x200000u);
  EXPECT_EQ(n.sys_image_guid, 0x200000u);
  EXPECT_EQ(n.local_port, 0);
}

TEST(Smp, PortInfoOfAnHca) {
  PortInfo p = PortInfo::from(attr_of(mad::captured::kHcaPortInfo));
  EXPECT_EQ(p.lid, 1);
  EXPECT_EQ(p.sm_lid, 1);
  EXPECT_EQ(p.gid_prefix, 0xfe80000000000000ull);
  EXPECT_EQ(p.state, kPortActive);
  EXPECT_EQ(p.phys_state, kPhysLinkUp);
  EXPECT_TRUE(p.link_up());
  EXPECT_EQ(p.local_port, 1);
}

TEST(Smp, SwitchInfoKnowsItsMulticastFdbTop) {
  std::vector<uint8_t> a(mad::kSwitchInfo.bytes);
  mad::set_field(mad::kSwitchInfo, a, "MulticastFDBCap", 1024);
  mad::set_field(mad::kSwitchInfo, a, "MulticastFDBTop", 0xc01f);
  mad::set_field(mad::kSwitchInfo, a, "LinearFDBTop", 7);
  SwitchInfo s = SwitchInfo::from(a);
  EXPECT_EQ(s.mcast_fdb_cap, 1024);
  EXPECT_EQ(s.mcast_fdb_top, uint16_t{0xc01f});
  EXPECT_EQ(s.linear_fdb_top, 7);
  // 0 (not kept) is a value read, not an unknown one.
  mad::set_field(mad::kSwitchInfo, a, "MulticastFDBTop", 0);
  EXPECT_EQ(SwitchInfo::from(a).mcast_fdb_top, uint16_t{0});
  EXPECT_FALSE(SwitchInfo{}.mcast_fdb_top);
}

TEST(Smp, TruncatedAttributeIsAnError) {
  std::vector<uint8_t> a = attr_of(mad::captured::kSwitchNodeInfo);
  a.resize(39);
  EXPECT_THROW(NodeInfo::from(a), Error);
  EXPECT_THROW(PortInfo::from(a), Error);
}

}  // namespace
}  // namespace rdma::ib
