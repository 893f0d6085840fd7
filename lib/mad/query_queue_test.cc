#include "lib/mad/query_queue.h"

#include <gtest/gtest.h>

#include "lib/mad/attrs.h"
#include "lib/mad/engine.h"

namespace rdma::mad {
namespace {

// Queries come back oldest first with every field as queued: the MAD byte
// for byte, the address, the text, both callbacks and the options.
TEST(QueryQueue, GivesBackQueriesInOrderWithEveryField) {
  QueryQueue queue;
  EXPECT_TRUE(queue.empty());
  std::vector<uint8_t> whole;
  int done_calls = 0;
  for (uint8_t i = 1; i <= 3; ++i) {
    Route r{true, 0, {1, i}};
    Query q{make_smp(r, kGet, kPortInfo, i), smp_address(r),
            i == 2 ? "" : "query " + std::to_string(i),
            [&done_calls, i](const Mad*, const Failure*) { done_calls += i; }};
    q.mad.set(hdr::kTid, 0x1000u + i);
    q.whole = i == 3 ? &whole : nullptr;
    q.unknown_end = i == 1;
    q.behind = 0xabc0u + i;
    q.wanted = [i] { return i != 3; };
    q.retries = i - 1;
    q.timeout_ms = 10 * i;
    queue.push(std::move(q));
  }
  for (uint8_t i = 1; i <= 3; ++i) {
    ASSERT_FALSE(queue.empty());
    Route r{true, 0, {1, i}};
    Mad m = make_smp(r, kGet, kPortInfo, i);
    m.set(hdr::kTid, 0x1000u + i);
    Query q = queue.pop();
    EXPECT_EQ(q.mad.bytes, m.bytes);
    EXPECT_EQ(q.to.lid, smp_address(r).lid);
    EXPECT_EQ(q.what, i == 2 ? "" : "query " + std::to_string(i));
    EXPECT_EQ(q.whole, i == 3 ? &whole : nullptr);
    EXPECT_EQ(q.unknown_end, i == 1);
    EXPECT_EQ(q.behind, 0xabc0u + i);
    EXPECT_EQ(q.wanted(), i != 3);
    EXPECT_EQ(q.retries, i - 1);
    EXPECT_EQ(q.timeout_ms, 10 * i);
    q.done(nullptr, nullptr);
  }
  EXPECT_TRUE(queue.empty());
  EXPECT_EQ(done_calls, 6);
}

// Queries left queued are freed with the queue (the sanitizer build's
// leak check), and a queue emptied takes new ones again.
TEST(QueryQueue, RefillsAfterEmptyAndFreesWhatIsLeft) {
  QueryQueue queue;
  Route r{true, 0, {1}};
  queue.push(Query{make_smp(r, kGet, kNodeInfo, 0), smp_address(r), "a", nullptr});
  EXPECT_EQ(queue.pop().what, "a");
  EXPECT_TRUE(queue.empty());
  queue.push(Query{make_smp(r, kGet, kNodeInfo, 0), smp_address(r), "b", nullptr});
  queue.push(Query{make_smp(r, kGet, kNodeInfo, 0), smp_address(r), "c", nullptr});
  EXPECT_EQ(queue.pop().what, "b");
  EXPECT_FALSE(queue.empty());
}

}  // namespace
}  // namespace rdma::mad
