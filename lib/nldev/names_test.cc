// Names of nldev enum values as iproute2 prints them: every value a table
// holds, the gaps in it, and values past its end.
#include "lib/nldev/names.h"

#include <gtest/gtest.h>

#include <string>

namespace rdma::nldev {
namespace {

TEST(NldevNames, NodeTypesByRdmaNodeType) {
  EXPECT_STREQ(node_type_name(0), "unknown");
  EXPECT_STREQ(node_type_name(1), "ca");
  EXPECT_STREQ(node_type_name(2), "switch");
  EXPECT_STREQ(node_type_name(4), "rnic");
  EXPECT_STREQ(node_type_name(7), "unspecified");
  EXPECT_STREQ(node_type_name(8), "unknown");  // past the table
  EXPECT_STREQ(node_type_name(255), "unknown");
}

TEST(NldevNames, PortStatesAndPastTheEnd) {
  EXPECT_STREQ(port_state_name(0), "NOP");
  EXPECT_STREQ(port_state_name(1), "DOWN");
  EXPECT_STREQ(port_state_name(4), "ACTIVE");
  EXPECT_STREQ(port_state_name(5), "ACTIVE_DEFER");
  EXPECT_STREQ(port_state_name(6), "UNKNOWN");
  EXPECT_STREQ(port_state_name(255), "UNKNOWN");
}

// The OPA values past LINK_ERROR_RECOVER, with the holes between them.
TEST(NldevNames, PhysStatesWithTheOpaValues) {
  EXPECT_STREQ(phys_state_name(2), "POLLING");
  EXPECT_STREQ(phys_state_name(3), "DISABLED");
  EXPECT_STREQ(phys_state_name(5), "LINK_UP");
  EXPECT_STREQ(phys_state_name(6), "LINK_ERROR_RECOVER");
  EXPECT_STREQ(phys_state_name(7), "PHY_TEST");
  EXPECT_STREQ(phys_state_name(8), "UNKNOWN");
  EXPECT_STREQ(phys_state_name(9), "OPA_OFFLINE");
  EXPECT_STREQ(phys_state_name(10), "UNKNOWN");
  EXPECT_STREQ(phys_state_name(11), "OPA_TEST");
  EXPECT_STREQ(phys_state_name(12), "UNKNOWN");
  EXPECT_STREQ(phys_state_name(255), "UNKNOWN");
}

// iproute2's spellings, its typo in bit 6 included; bits the kernel left
// unnamed (16, 28) and the 64-bit word's top are UNKNOWN, never empty.
TEST(NldevNames, DeviceCapabilitiesLowAndHighWords) {
  EXPECT_STREQ(dev_cap_name(0), "RESIZE_MAX_WR");
  EXPECT_STREQ(dev_cap_name(6), "UD_AV_PORT_ENFORCE_PORT_ENFORCE");
  EXPECT_STREQ(dev_cap_name(15), "LOCAL_DMA_LKEY");
  EXPECT_STREQ(dev_cap_name(16), "UNKNOWN");
  EXPECT_STREQ(dev_cap_name(17), "MEM_WINDOW");
  EXPECT_STREQ(dev_cap_name(28), "UNKNOWN");
  EXPECT_STREQ(dev_cap_name(31), "ON_DEMAND_PAGING");
  EXPECT_STREQ(dev_cap_name(32), "SG_GAPS_REG");
  EXPECT_STREQ(dev_cap_name(36), "PCI_WRITE_END_PADDING");
  for (unsigned bit : {37u, 63u, 64u, 1000u}) EXPECT_STREQ(dev_cap_name(bit), "UNKNOWN") << bit;
}

TEST(NldevNames, PortCapabilitiesByIbPortBit) {
  EXPECT_STREQ(port_cap_name(0), "UNKNOWN");  // reserved
  EXPECT_STREQ(port_cap_name(1), "SM");
  EXPECT_STREQ(port_cap_name(13), "UNKNOWN");
  EXPECT_STREQ(port_cap_name(14), "EXTENDED_SPEEDS");
  EXPECT_STREQ(port_cap_name(15), "UNKNOWN");
  EXPECT_STREQ(port_cap_name(16), "CM");
  EXPECT_STREQ(port_cap_name(26), "IP_BASED_GIDS");
  for (unsigned bit : {27u, 31u, 63u, 64u}) EXPECT_STREQ(port_cap_name(bit), "UNKNOWN") << bit;
}

// No bit of either word names nothing: a caps list never shows ", ,".
TEST(NldevNames, NoCapabilityNameIsEmpty) {
  for (unsigned bit = 0; bit < 64; ++bit) {
    EXPECT_NE(std::string(dev_cap_name(bit)), "") << bit;
    EXPECT_NE(std::string(port_cap_name(bit)), "") << bit;
  }
}

}  // namespace
}  // namespace rdma::nldev
