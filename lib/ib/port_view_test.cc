// port show's attributes read by SMPs and from the SA, on the fabric
// double (lib/testing/fabric/client.h): sw1 LID 2 (8 ports), hca2 LID 3
// on its port 1.
#include "lib/ib/port_view.h"

#include <gtest/gtest.h>

#include <string>

#include "lib/ib/smp.h"
#include "lib/mad/attrs.h"
#include "lib/testing/fabric/client.h"

namespace rdma::ib {
namespace {

PortAttrs port_by_smp(ibtest::FabricClient& f, uint16_t lid, std::optional<uint8_t> port) {
  mad::Route r = ibtest::FabricClient::lid_route(lid);
  return port_attrs(f.client(), r, port, read_port_info(f.client(), r, port.value_or(0)).data());
}

// Without a port a CA answers for the one the SMP arrives on; its
// capability masks are its own; the address is ibaddr's.
TEST(PortView, ACaPortByItsArrivingPort) {
  ibtest::FabricClient f;
  PortAttrs a = port_by_smp(f, 3, std::nullopt);
  EXPECT_EQ(a.port, 1u);
  EXPECT_EQ(PortInfo::from(a.info).lid, 3);
  EXPECT_EQ(PortInfo::from(a.speed_caps).lid, 3);
  EXPECT_FALSE(a.fdr10);
  EXPECT_EQ(a.address.lid_end, 3);
  EXPECT_TRUE(a.address.gid);
}

// Without a port a switch answers with port 0's PortInfo, whose
// LocalPortNum is the port a directed SMP came in by: the port shown is 0,
// as smpquery portinfo and ibportstate name it.
TEST(PortView, ASwitchWithoutAPortIsItsPortZero) {
  ibtest::FabricClient f;
  mad::Route r{true, 0, {1}};  // dr 0,1: hca1 to sw1, arriving at its port 1
  mad::Mad pi = read_port_info(f.client(), r, 0);
  ASSERT_EQ(PortInfo::from(pi.data()).local_port, 1);
  PortAttrs a = port_attrs(f.client(), r, std::nullopt, pi.data());
  EXPECT_EQ(a.port, 0u);
  EXPECT_EQ(PortInfo::from(a.info).lid, 2);
  EXPECT_EQ(port_by_smp(f, 2, std::nullopt).port, 0u);
}

// A switch's external port showing an extended speed its own (reserved)
// masks cannot vouch for reads port 0's masks.
TEST(PortView, ASwitchPortsExtendedSpeedByPortZerosMasks) {
  ibtest::FabricClient f;
  PortAttrs plain = port_by_smp(f, 2, 3);
  EXPECT_EQ(plain.port, 3u);
  EXPECT_EQ(PortInfo::from(plain.speed_caps).local_port, PortInfo::from(plain.info).local_port);
  EXPECT_EQ(PortInfo::from(plain.speed_caps).lid, PortInfo::from(plain.info).lid);
  f.node("sw1").ports[3].speed_ext_active = 1;
  PortAttrs ext = port_by_smp(f, 2, 3);
  EXPECT_EQ(PortInfo::from(ext.speed_caps).lid, 2);  // port 0's: the switch's LID
  EXPECT_NE(PortInfo::from(ext.info).lid, 2);
}

// From the SA: a switch's port 0 record unless a port is named; the LID.
TEST(PortView, TheSaPicksAsAnSmpWouldBeAnswered) {
  ibtest::FabricClient f;
  PortAttrs sw = read_port_attrs_sa(f.client(), ibtest::FabricClient::lid_target(2), std::nullopt);
  EXPECT_EQ(sw.lid, 2);
  EXPECT_EQ(sw.port, 0u);
  EXPECT_TRUE(sw.speed_caps.empty());
  PortAttrs p3 = read_port_attrs_sa(f.client(), ibtest::FabricClient::lid_target(2), 3);
  EXPECT_EQ(p3.port, 3u);
  EXPECT_EQ(PortInfo::from(p3.info).width_active,
            PortInfo::from(port_by_smp(f, 2, 3).info).width_active);
  PortAttrs ca = read_port_attrs_sa(f.client(), ibtest::FabricClient::lid_target(3), std::nullopt);
  EXPECT_EQ(ca.lid, 3);
  EXPECT_EQ(ca.port, 1u);
  EXPECT_EQ(ca.address.lid_end, 3);
}

TEST(PortView, DecodedThenTheAddress) {
  ibtest::FabricClient f;
  view::Record r;
  add_port_attrs(port_by_smp(f, 3, std::nullopt), 0, false, r);
  ASSERT_GT(r.size(), 2u);
  EXPECT_EQ(r[r.size() - 2].key, "lid_end");
  EXPECT_EQ(r[r.size() - 1].key, "gid");
}

}  // namespace
}  // namespace rdma::ib
