#include "lib/view/fields.h"

#include <gtest/gtest.h>

namespace rdma::view {
namespace {

TEST(GuidText, FourGroupsOfFourLowercaseHexDigits) {
  EXPECT_EQ(guid_colons(0x0002c90300000001ull), "0002:c903:0000:0001");
  EXPECT_EQ(guid_colons(0), "0000:0000:0000:0000");
  EXPECT_EQ(guid_colons(~0ull), "ffff:ffff:ffff:ffff");
  char buf[19];
  EXPECT_EQ(std::string(buf, guid_chars(0xfedcba9876543210ull, buf)), "fedc:ba98:7654:3210");
}

}  // namespace
}  // namespace rdma::view
