#include "lib/ib/congestion_control.h"

#include <gtest/gtest.h>

#include <string>

#include "lib/mad/attrs_cc.h"

namespace rdma::ib {
namespace {

// cc show's default is a read-only attribute with neither blocks nor ports;
// only SwitchPortCongestionSetting takes `port N`, and its blocks hold them.
TEST(CongestionControlAttrs, DefaultAndPortsAmongTheBlocks) {
  const mad::AttrDef& d = cc_default_attr();
  EXPECT_EQ(std::string(d.name), "CongestionInfo");
  EXPECT_TRUE(cc_read_only(d));
  EXPECT_FALSE(cc_has_blocks(d));
  int with_ports = 0;
  for (const mad::AttrDef* a : mad::cc_attrs()) {
    if (!cc_has_ports(*a)) continue;
    ++with_ports;
    EXPECT_EQ(std::string(a->name), "SwitchPortCongestionSetting");
    EXPECT_TRUE(cc_has_blocks(*a));
  }
  EXPECT_EQ(with_ports, 1);
}

}  // namespace
}  // namespace rdma::ib
