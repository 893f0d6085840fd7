// The lost-bandwidth formula (lost_bandwidth.h) on numbers worked by hand.
#include "lib/ib/lost_bandwidth.h"

#include <gtest/gtest.h>

namespace rdma::ib {
namespace {

TEST(LostBandwidth, TheTickIsThePmasWhereItAnsweredElseSeven) {
  std::map<uint32_t, uint8_t> ticks{{3, 31}};
  WaitTick t = wait_tick(ticks, 3);
  EXPECT_EQ(t.value, 31);
  EXPECT_TRUE(t.from_pma);
  EXPECT_STREQ(t.source(), "pma");
  t = wait_tick(ticks, 4);
  EXPECT_EQ(t.value, 7);
  EXPECT_FALSE(t.from_pma);
  EXPECT_STREQ(t.source(), "default");
}

TEST(LostBandwidth, LostBytesAreTicksTimesTickPlusOneTimesEight) {
  // 1,000,000 waits in 2 s at tick 7: 1e6 x 8 x 8 / 2 = 32 MB/s.
  EXPECT_DOUBLE_EQ(lost_bytes_per_second(1000000, 2, {7, false}), 32e6);
  // Tick 31 counts four times as long a wait a tick.
  EXPECT_DOUBLE_EQ(lost_bytes_per_second(1000000, 2, {31, true}), 128e6);
  EXPECT_EQ(lost_bytes_per_second(5, 0, {}), 0);
}

TEST(LostBandwidth, TheShareIsOfTheLinksRateAndAtMostAll) {
  // 4X EDR: 100 Gb/s, 12.5e9 bytes/s. A quarter of it lost in 10 s at
  // tick 7: 12.5e9 x 0.25 x 10 / 64 waits.
  double rate = 12.5e9;
  EXPECT_NEAR(wait_share(488281250, 10, {}, rate), 0.25, 1e-9);
  EXPECT_EQ(wait_share(~uint64_t{0} >> 8, 1, {}, rate), 1.0);
  EXPECT_EQ(wait_share(1000, 10, {}, 0), 0);  // rate unknown
  EXPECT_EQ(wait_share(0, 10, {}, rate), 0);
}

}  // namespace
}  // namespace rdma::ib
