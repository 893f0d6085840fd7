#include "lib/mad/rate_text.h"

#include <gtest/gtest.h>

namespace rdma::mad {
namespace {

// ibstat's "Rate": whole Gb/s, ".5" only for 1X SDR's 2.5.
TEST(MadRateText, WholeGbsButOneXSdr) {
  EXPECT_EQ(rate_text(25), "2.5");
  EXPECT_EQ(rate_text(100), "10");
  EXPECT_EQ(rate_text(1000), "100");
  EXPECT_EQ(rate_text(0), "0");
}

// JSON keeps the kind: an integer where the text has no fraction.
TEST(MadRateText, JsonIsIntegerUnlessHalf) {
  EXPECT_EQ(rate_json(25).dump(), "2.5");
  EXPECT_EQ(rate_json(1000).dump(), "100");
  EXPECT_TRUE(rate_json(1000).is_number_integer());
}

}  // namespace
}  // namespace rdma::mad
