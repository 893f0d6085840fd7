// Port changes: the words' values (named bits, MTUs in bytes) and which
// changes cut the link. Their MADs against the fabric double are tested
// through rdma port set (rdma/ib/port_set_test.cc) and on ibsim
// (tests/ibsim/portset.sh).
#include "lib/ib/port_change.h"

#include <gtest/gtest.h>

#include "lib/mad/speed.h"
#include "lib/mad/types.h"

namespace rdma::ib {
namespace {

TEST(PortChangeWords, NamedBitsAreTheMasksBits) {
  EXPECT_EQ(named_port_bits(PortField::Speed, "sdr,QDR"), mad::kSpeedSdr | mad::kSpeedQdr);
  EXPECT_EQ(named_port_bits(PortField::Speed, "all"), mad::kSpeedAllSupported);
  EXPECT_EQ(named_port_bits(PortField::ExtSpeed, "edr"), mad::kSpeedExtEdr);
  EXPECT_EQ(named_port_bits(PortField::ExtSpeed, "25.78125,ndr"),
            mad::kSpeedExtEdr | mad::kSpeedExtNdr);
  EXPECT_EQ(named_port_bits(PortField::Width, "4x,1X"), mad::kWidth4x | mad::kWidth1x);
  EXPECT_EQ(named_port_bits(PortField::Width, "all"), mad::kWidthAllSupported);
  // Not names: a number or a typo, for the caller to read or report.
  EXPECT_EQ(named_port_bits(PortField::Speed, "3"), std::nullopt);
  EXPECT_EQ(named_port_bits(PortField::Speed, "sdr,"), std::nullopt);
  EXPECT_EQ(named_port_bits(PortField::Width, "3x"), std::nullopt);
  EXPECT_EQ(named_port_bits(PortField::Mtu, "all"), std::nullopt);  // no names
}

TEST(PortChangeWords, MtuInBytesIsItsCode) {
  EXPECT_EQ(mtu_code("256"), 1u);
  EXPECT_EQ(mtu_code("2048"), 4u);
  EXPECT_EQ(mtu_code("4096"), 5u);
  EXPECT_EQ(mtu_code("4"), std::nullopt);
  EXPECT_EQ(mtu_code("1000"), std::nullopt);
}

TEST(PortChangeWords, FieldsTakeIbportstatesRanges) {
  EXPECT_EQ(port_field_def(PortField::Lid).max, mad::kMaxUnicastLid);
  EXPECT_EQ(port_field_def(PortField::Lid).min, 1u);
  EXPECT_STREQ(port_field_def(PortField::Mtu).iba, "NeighborMTU");
  EXPECT_EQ(port_field_def(PortField::Fdr10).iba, nullptr);  // the vendor's attribute
  EXPECT_EQ(port_field_def(PortField::MKeyLease).max, 65535u);
  EXPECT_EQ(port_field_def(PortField::MKeyProt).max, 3u);
  EXPECT_STREQ(port_field_def(PortField::MKeyProt).iba, "M_KeyProtectBits");
  EXPECT_EQ(port_field_defs().size(), 12u);
}

TEST(PortChangeWords, DisableResetDownAndInitCutTheLink) {
  PortChange c;
  EXPECT_FALSE(c.cuts());
  for (PortAction a :
       {PortAction::Disable, PortAction::Reset, PortAction::Down, PortAction::Init}) {
    c.action = a;
    EXPECT_TRUE(c.cuts());
  }
  for (PortAction a : {PortAction::Enable, PortAction::Arm, PortAction::Active}) {
    c.action = a;
    EXPECT_FALSE(c.cuts());
  }
  c.values.push_back({PortField::MKey, 7});
  EXPECT_TRUE(c.has(PortField::MKey));
  EXPECT_FALSE(c.has(PortField::Lid));
  EXPECT_EQ(new_mkey(c), 7u);
}

}  // namespace
}  // namespace rdma::ib
