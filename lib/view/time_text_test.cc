#include "lib/view/time_text.h"

#include <gtest/gtest.h>

namespace rdma::view {
namespace {

TEST(TimeText, FormatsAGivenMomentInUtc) {
  // 2026-11-29T00:45:19Z
  EXPECT_EQ(time_text("%Y-%m-%dT%H:%M:%SZ", true, 1795913119), "2026-11-29T00:45:19Z");
  EXPECT_EQ(time_text("%H:%M:%S", true, 0), "00:00:00");
}

TEST(TimeText, WallTimeSecondsCarryTheMicroseconds) {
  WallTime t{1795913119, 250000};
  EXPECT_DOUBLE_EQ(t.seconds(), 1795913119.25);
  WallTime now = wall_now();
  EXPECT_GE(now.usec, 0);
  EXPECT_LT(now.usec, 1000000);
  EXPECT_LE(now.sec, std::time(nullptr));
}

}  // namespace
}  // namespace rdma::view
