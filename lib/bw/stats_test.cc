#include "lib/bw/stats.h"

#include <gtest/gtest.h>

namespace rdma::bw {
namespace {

TEST(BwStats, GbitsPerSecondIsBitsPerNanosecond) {
  EXPECT_DOUBLE_EQ(gbits_per_s(125000000, 1000000000), 1.0);
  EXPECT_DOUBLE_EQ(gbits_per_s(65536ull * 1000, 52428800), 10.0);
  EXPECT_EQ(gbits_per_s(100, 0), 0);
}

TEST(BwStats, SummaryOfHundredSamples) {
  std::vector<uint64_t> s;
  for (uint64_t i = 100; i >= 1; --i) s.push_back(i * 1000);  // 1..100 us, reversed
  Latency l = summarize(s);
  EXPECT_DOUBLE_EQ(l.min_us, 1);
  EXPECT_DOUBLE_EQ(l.max_us, 100);
  EXPECT_DOUBLE_EQ(l.median_us, 50);  // nearest rank: the 50th of 100
  EXPECT_DOUBLE_EQ(l.p99_us, 99);
  EXPECT_DOUBLE_EQ(l.avg_us, 50.5);
}

TEST(BwStats, OutlierShowsInP99OnlyWhenOverOnePercent) {
  std::vector<uint64_t> s(1000, 5000);
  s[3] = 900000;  // one in a thousand
  Latency l = summarize(s);
  EXPECT_DOUBLE_EQ(l.p99_us, 5);
  EXPECT_DOUBLE_EQ(l.max_us, 900);
  for (int i = 0; i < 20; ++i) s[i] = 700000;  // two in a hundred
  l = summarize(s);
  EXPECT_DOUBLE_EQ(l.p99_us, 700);
  EXPECT_DOUBLE_EQ(l.median_us, 5);
}

TEST(BwStats, OneAndNoSample) {
  std::vector<uint64_t> one{2500};
  Latency l = summarize(one);
  EXPECT_DOUBLE_EQ(l.min_us, 2.5);
  EXPECT_DOUBLE_EQ(l.p99_us, 2.5);
  EXPECT_DOUBLE_EQ(l.median_us, 2.5);
  std::vector<uint64_t> none;
  EXPECT_EQ(summarize(none).max_us, 0);
}

}  // namespace
}  // namespace rdma::bw
