// When FDR10 is asked: libibnetdisc's device list and a QDR LinkUp port.
#include "lib/ib/fdr10.h"

#include <gtest/gtest.h>

#include <array>

#include "lib/mad/attrs.h"
#include "lib/mad/field.h"

namespace rdma::ib {
namespace {

TEST(Fdr10, TheDevicesLibibnetdiscAsks) {
  for (uint16_t dev :
       {0xc738, 0xc73b, 0xc839, 0xcb20, 0xcf08, 0xcf09, 0xd2f0, 0x1003, 0x1011, 0x101b, 0xa2d2})
    EXPECT_TRUE(answers_mlnx_ext_port_info(0x02c9, dev)) << std::hex << dev;
  for (uint16_t dev : {0x0000, 0xc737, 0xc73c, 0x1002, 0x101c, 0x1b02, 0x1bc4})
    EXPECT_FALSE(answers_mlnx_ext_port_info(0x02c9, dev)) << std::hex << dev;
  // Bull's own IDs only with Bull's vendor ID.
  for (uint16_t dev : {0x1b02, 0x1bd5, 0x1bf0, 0x1b33, 0x1b94, 0x1bc6})
    EXPECT_TRUE(answers_mlnx_ext_port_info(0x119f, dev)) << std::hex << dev;
}

TEST(Fdr10, AskedOfAQdrLinkUpPortOnly) {
  NodeInfo node;
  node.device_id = 0x1003;
  PortInfo p;
  p.phys_state = kPhysLinkUp;
  p.speed_active = 4;
  EXPECT_TRUE(ask_fdr10(node, p));
  PortInfo fdr = p;
  fdr.speed_ext_active = 1;
  EXPECT_FALSE(ask_fdr10(node, fdr));
  PortInfo xdr = p;
  xdr.speed_ext2_active = 1;
  EXPECT_FALSE(ask_fdr10(node, xdr));
  PortInfo ddr = p;
  ddr.speed_active = 2;
  EXPECT_FALSE(ask_fdr10(node, ddr));
  PortInfo polling = p;
  polling.phys_state = kPhysPolling;
  EXPECT_FALSE(ask_fdr10(node, polling));
  node.device_id = 0;
  EXPECT_FALSE(ask_fdr10(node, p));
  EXPECT_TRUE(may_be_fdr10(p));
}

TEST(Fdr10, LinkSpeedActiveIsByteFifteen) {
  std::array<uint8_t, 64> attr{};
  attr[15] = 1;
  EXPECT_EQ(mlnx_speed_active(attr), 1);
  attr[15] = 0;
  attr[11] = 1;  // LinkSpeedEnabled
  EXPECT_EQ(mlnx_speed_active(attr), 0);
}

}  // namespace
}  // namespace rdma::ib
