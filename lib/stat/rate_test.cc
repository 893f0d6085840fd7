#include "lib/stat/rate.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace rdma::stat {
namespace {

TEST(CounterDelta, GrowthAndWraps) {
  EXPECT_EQ(counter_delta(10, 25), 15u);
  EXPECT_EQ(counter_delta(7, 7), 0u);
  EXPECT_EQ(counter_delta(0xfffffff0u, 0x10), 0x20u);      // a 32-bit register wrapped
  EXPECT_EQ(counter_delta(0xfffffffffffffffeull, 5), 7u);  // 64-bit wrap
}

TEST(RateText, AtMostTwoDecimals) {
  EXPECT_EQ(rate_text(12), "12");
  EXPECT_EQ(rate_text(0.5), "0.5");
  EXPECT_EQ(rate_text(1234.25), "1234.25");
  EXPECT_EQ(rate_text(1.0 / 3), "0.33");
}

std::vector<HwCounter> reading(uint64_t a, uint64_t b) {
  std::vector<HwCounter> v(2);
  v[0].name = "a";
  v[0].value = a;
  v[1].name = "b";
  v[1].value = b;
  return v;
}

TEST(RateTracker, FirstReadingHasNoRateAndGoneDevicesStartAfresh) {
  RateTracker t;
  RateTracker::Key rxe0{0, "rxe0", 1}, rxe0_again{3, "rxe0", 1};
  auto r = t.update(rxe0, reading(100, 5), 2);
  EXPECT_FALSE(r[0] || r[1]);
  t.end_interval();
  r = t.update(rxe0, reading(130, 6), 2);
  EXPECT_EQ(r[0], 15.0);
  EXPECT_EQ(r[1], 0.5);
  t.end_interval();
  t.end_interval();  // an interval without rxe0: forgotten
  EXPECT_FALSE(t.update(rxe0, reading(200, 6), 2)[0]);
  t.end_interval();
  EXPECT_FALSE(t.update(rxe0_again, reading(1, 1), 2)[0]);  // new index: new device
}

TEST(RoundHalfAwayFromZero, EqualsStdRound) {
  const double values[] = {0.0,
                           0.5,
                           1.5,
                           2.5,
                           0.49999999999999994,
                           12.345 * 100,
                           1234.245 * 100,
                           4503599627370495.5,
                           9007199254740993.0,
                           1e300,
                           -0.5,
                           -2.5,
                           -7.25,
                           std::numeric_limits<double>::denorm_min()};
  for (double v : values) EXPECT_EQ(round_half_away(v), std::round(v)) << v;
  for (int i = -100000; i <= 100000; ++i) {
    double v = i / 64.0 + i * 1e-7;
    EXPECT_EQ(round_half_away(v), std::round(v)) << v;
  }
}

}  // namespace
}  // namespace rdma::stat
