#include "lib/bw/measure.h"

#include <gtest/gtest.h>

#include "lib/error.h"
#include "lib/testing/fake_connection.h"

namespace rdma::bw {
namespace {

constexpr uint64_t kSecond = 1000000000;

Clock clock_of(verbs::FakeConnection& f) {
  return [&f] { return f.now; };
}

TEST(BwMeasure, WriteBandwidthIsTheLinksRate) {
  verbs::FakeConnection f({65536, 1000, 2});
  f.gbps = 12.5;
  Bandwidth b = write_bandwidth(f, clock_of(f), kSecond);
  EXPECT_EQ(f.writes, 1000u);
  EXPECT_EQ(b.bytes, 65536000u);
  EXPECT_NEAR(b.gbps, 12.5, 12.5 * 0.01);
  // a window in flight, not one write at a time; every 32nd signaled
  EXPECT_GT(f.max_in_flight, 64u);
  EXPECT_LE(f.max_in_flight, 128u);
  EXPECT_EQ(f.signaled, 1000u / 32 + 1);  // and the last
}

TEST(BwMeasure, SmallWritesAndOddCounts) {
  verbs::FakeConnection f({2, 7, 2});
  f.gbps = 0.001;  // 16 us a write
  Bandwidth b = write_bandwidth(f, clock_of(f), kSecond);
  EXPECT_EQ(f.writes, 7u);
  EXPECT_EQ(f.signaled, 1u);
  EXPECT_NEAR(b.gbps, 0.001, 0.0001);
}

TEST(BwMeasure, StalledWriteTimesOut) {
  verbs::FakeConnection f({4096, 500, 2});
  f.stall_write = 100;
  f.poll_ns = 100000;
  try {
    write_bandwidth(f, clock_of(f), 2 * kSecond);
    FAIL() << "no timeout";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "RDMA write 97 of 500 did not complete in 2 s (timed out)");
  }
  EXPECT_GE(f.now - 1000000, 2 * kSecond);
  EXPECT_LT(f.now - 1000000, 3 * kSecond);
}

TEST(BwMeasure, FailedWriteIsItsStatus) {
  verbs::FakeConnection f({4096, 500, 2});
  f.fail_write = 64;
  EXPECT_THROW(write_bandwidth(f, clock_of(f), kSecond), Error);
}

TEST(BwMeasure, LatencyIsHalfTheRoundTrip) {
  verbs::FakeConnection f({65536, 100, 2});
  f.poll_ns = 10;
  for (int i = 0; i < 100; ++i) f.rtts.push_back(i < 2 ? 100000 : 8000);
  Latency l = ping_latency(f, clock_of(f), kSecond);
  EXPECT_EQ(f.sends, 100u);
  // 4 us one way (+ at most a poll), the two slow ones in p99 and max only
  EXPECT_NEAR(l.min_us, 4.0, 0.02);
  EXPECT_NEAR(l.median_us, 4.0, 0.02);
  EXPECT_NEAR(l.p99_us, 50.0, 0.02);
  EXPECT_NEAR(l.max_us, 50.0, 0.02);
  EXPECT_NEAR(l.avg_us, (98 * 4.0 + 2 * 50.0) / 100, 0.02);
}

TEST(BwMeasure, LatencyTimesOutAndSeesThePeerLeave) {
  verbs::FakeConnection f({65536, 100, 2});
  f.answers = 10;
  f.poll_ns = 100000;
  try {
    ping_latency(f, clock_of(f), kSecond);
    FAIL() << "no timeout";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "the answer to ping 11 did not come in 1 s (timed out)");
  }
  verbs::FakeConnection g({65536, 100, 2});
  g.answers = 3;
  g.gone = true;
  try {
    ping_latency(g, clock_of(g), kSecond);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "the peer disconnected before the answer to ping 4");
  }
}

TEST(BwMeasure, ServerAnswersEveryPing) {
  verbs::FakeConnection f({65536, 50, 2});
  f.answers = 0;
  f.pings = 50;
  f.first_ping_ns = 3 * kSecond;  // the bandwidth phase
  f.poll_ns = 10000;
  f.recvs_posted = 1;  // accept() posted the first
  uint64_t idles = 0;
  answer_pings(
      f, clock_of(f), [&] { ++idles, f.now += 100000; }, 5 * kSecond, kSecond);
  EXPECT_EQ(f.sends, 50u);
  EXPECT_EQ(f.recvs_posted, 0u);  // none left for a ping that never comes
  // it slept while the client wrote (3 s: a nap of 100 us after each 64
  // polls of 10 us, some 4050 naps), then waited for the client to leave
  // (1 s of naps alone: 10000; this one stays)
  EXPECT_GT(idles, 13500u);
  EXPECT_LT(idles, 14600u);
  verbs::FakeConnection g({65536, 50, 2});
  g.answers = 0;
  g.pings = 20;
  g.poll_ns = 100000;
  g.recvs_posted = 1;
  try {
    answer_pings(g, clock_of(g), {}, kSecond, kSecond);
    FAIL() << "no timeout";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "ping 21 of 50 did not come in 1 s (timed out)");
  }
  verbs::FakeConnection h({65536, 50, 2});
  h.answers = 0;
  h.pings = 0;
  h.recvs_posted = 1;
  h.first_ping_ns = 10 * kSecond;
  h.poll_ns = 100000;
  EXPECT_THROW(answer_pings(h, clock_of(h), {}, 5 * kSecond, kSecond), Error);
}

}  // namespace
}  // namespace rdma::bw
