#include "lib/ib/port_address.h"

#include <gtest/gtest.h>

#include <vector>

#include "lib/mad/attrs.h"
#include "lib/mad/field.h"
#include "lib/mad/format.h"
#include "lib/mad/types.h"

namespace rdma::ib {
namespace {

struct AddrAttrs {
  std::vector<uint8_t> pi = std::vector<uint8_t>(mad::kPortInfo.bytes);
  std::vector<uint8_t> ni = std::vector<uint8_t>(mad::kNodeInfo.bytes);
  AddrAttrs(mad::NodeType type, unsigned lid, unsigned lmc, unsigned local_port) {
    mad::set_field(mad::kPortInfo, pi, "GIDPrefix", 0xfe80000000000000);
    mad::set_field(mad::kPortInfo, pi, "LID", lid);
    mad::set_field(mad::kPortInfo, pi, "LMC", lmc);
    mad::set_field(mad::kPortInfo, pi, "LocalPortNum", local_port);
    mad::set_field(mad::kNodeInfo, ni, "NodeType", static_cast<unsigned>(type));
    mad::set_field(mad::kNodeInfo, ni, "PortGUID", 0x0002c90300a1b2c3);
  }
};

TEST(PortAddress, GidAndLidRangeAsIbaddr) {
  AddrAttrs a(mad::NodeType::Ca, 5, 2, 1);
  PortAddress p = port_address(a.pi, 1, a.ni);
  ASSERT_TRUE(p.lid_end && p.gid);
  EXPECT_EQ(*p.lid_end, 8);  // 5 to 5 + 2^2 - 1
  EXPECT_EQ(mad::gid_text(*p.gid), "fe80::2:c903:a1:b2c3");
  view::Record r;
  add_port_address(p, r);
  view::Json j = view::Json::object();
  for (const view::Field& f : r) j[f.key] = f.value;
  EXPECT_EQ(j["lid_end"], 8);
  EXPECT_EQ(j["gid"], "fe80::2:c903:a1:b2c3");
}

// NodeInfo's PortGUID is the arriving port's: another port of the CA has
// its LID range but no GID; a switch's external port has neither.
TEST(PortAddress, OnlyWhereTheGuidIsThePorts) {
  AddrAttrs ca(mad::NodeType::Ca, 7, 0, 1);
  PortAddress p = port_address(ca.pi, 2, ca.ni);
  EXPECT_EQ(p.lid_end, 7);
  EXPECT_FALSE(p.gid);
  AddrAttrs sw(mad::NodeType::Switch, 2, 0, 3);
  EXPECT_TRUE(port_address(sw.pi, 0, sw.ni).gid);
  EXPECT_TRUE(port_address(ca.pi, 0, ca.ni).gid);  // asked of port 0: the arriving one
  p = port_address(sw.pi, 4, sw.ni);
  EXPECT_FALSE(p.gid || p.lid_end);
  AddrAttrs none(mad::NodeType::Ca, 0, 0, 1);  // no SM yet: no LID
  EXPECT_FALSE(port_address(none.pi, 1, none.ni).lid_end);
}

}  // namespace
}  // namespace rdma::ib
