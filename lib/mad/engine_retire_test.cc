// Destinations let go once quiet (Engine's retire): their slots reused,
// and everything they said kept as if they had stayed.
#include <gtest/gtest.h>

#include <chrono>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "lib/mad/attrs.h"
#include "lib/mad/engine.h"
#include "lib/testing/fake_transport.h"

namespace rdma::mad {
namespace {

using std::chrono::milliseconds;

// Answers every MAD at once but those `lose` picks, on a virtual clock: a
// wait passes at once, so a lost try costs no real time.
class RetireTransport : public Transport {
 public:
  std::function<bool(const Mad&)> lose = [](const Mad&) { return false; };
  void send(const Mad& m, const Address&, int) override {
    if (!lose(m)) replies_.push_back(reply_to(m, std::vector<uint8_t>(64)));
  }
  std::optional<Received> receive(int timeout_ms) override {
    if (replies_.empty()) {
      now_ += milliseconds(timeout_ms);
      return std::nullopt;
    }
    Received r;
    r.bytes = std::move(replies_.front());
    replies_.pop_front();
    return r;
  }
  std::chrono::steady_clock::time_point now() const override {
    return std::chrono::steady_clock::time_point(now_);
  }

 private:
  std::chrono::nanoseconds now_{0};
  std::deque<std::vector<uint8_t>> replies_;
};

uint8_t first_hop(const Mad& m) {
  return static_cast<uint8_t>(get_bits(m.bytes, hdr::kInitialPath.bit + 8, 8));
}

// A NodeInfo Get along the directed route `path`, its end noted in `ended`;
// a try waits 10 ms.
Query ask(std::vector<uint8_t> path, std::vector<std::string>* ended, const std::string& what) {
  Route r{true, 0, std::move(path)};
  Query q{make_smp(r, kGet, kNodeInfo, 0), smp_address(r), what,
          [ended, what](const Mad* reply, const Failure* f) {
            if (ended) ended->push_back(reply ? what : f->message);
          }};
  q.timeout_ms = 10;
  return q;
}

// The query of another node that stays in flight (its 1 s try lost): the
// run never empties, which would start every destination afresh.
Query anchor() {
  Query q = ask({9}, nullptr, "anchor");
  q.timeout_ms = 0;
  return q;
}

// A node's queries each end before the next is asked (its Dest retired in
// between; the anchor's query in flight): the slot is reused, and the
// count goes on.
TEST(EngineRetire, AQuietRouteIsLetGoAndCountedOnWhenAskedAgain) {
  RetireTransport t;
  t.lose = [](const Mad& m) { return first_hop(m) == 9; };  // the anchor
  Engine e(t, {.timeout_ms = 1000, .retries = 0, .window = 8, .per_node = 2, .give_up = 2});
  e.submit(anchor());
  std::vector<std::string> ended;
  for (int i = 0; i < 5; ++i) {
    e.submit(ask({1, 2}, &ended, "q" + std::to_string(i)));
    e.run([&] { return ended.size() == static_cast<size_t>(i + 1); });
    EXPECT_EQ(e.destinations(), 1u) << i;  // the anchor's; dr 0,1,2 let go
  }
  e.submit(ask({1, 3}, &ended, "other"));
  e.run([&] { return ended.size() == 6; });
  EXPECT_EQ(e.destinations(), 1u);
  EXPECT_EQ(e.stats().busiest, "dr 0,1,2");
  EXPECT_EQ(e.stats().busiest_sent, 5u);
}

// The give-up window's tries are kept through a retirement: with 2 x 2
// tries a window, four answers fill it; then lost, answered, lost is half
// of it unanswered and gives the node up, as it would a node kept. Counted
// afresh from each retirement, the window would hold three tries and
// judge nothing yet.
TEST(EngineRetire, TheGiveUpWindowGoesOnThroughARetirement) {
  RetireTransport t;
  std::vector<bool> lost_tries;  // of dr 0,1,2, in turn
  size_t try_no = 0;
  t.lose = [&](const Mad& m) {
    if (first_hop(m) == 9) return true;
    return try_no < lost_tries.size() && lost_tries[try_no++];
  };
  Engine e(t, {.timeout_ms = 1000, .retries = 0, .window = 8, .per_node = 2, .give_up = 2});
  ASSERT_EQ(give_up_window(e.config(), false), 4);
  e.submit(anchor());
  std::vector<std::string> ended;
  lost_tries = {false, false, false, false, true, false, true};
  for (size_t i = 0; i < lost_tries.size(); ++i) {
    e.submit(ask({1, 2}, &ended, "q" + std::to_string(i)));
    e.run([&] { return ended.size() == i + 1; });
    EXPECT_EQ(e.stats().gave_up_on.empty(), i + 1 < lost_tries.size()) << i;
  }
  EXPECT_EQ(e.stats().gave_up_on, std::vector<std::string>{"dr 0,1,2"});
}

// Queries still waiting at the deadline end in the order their
// destinations were made, not by the slots they reuse.
TEST(EngineRetire, AtTheDeadlineTheWaitingEndInTheOrderTheirNodesWereMet) {
  RetireTransport t;
  t.lose = [](const Mad& m) { return first_hop(m) != 1; };
  EngineConfig c{.timeout_ms = 1000, .retries = 0, .window = 1, .per_node = 2, .give_up = 2};
  c.deadline = std::chrono::steady_clock::time_point(milliseconds(5));
  Engine e(t, c);
  std::vector<std::string> ended;
  e.submit(ask({1}, &ended, "a1"));
  e.submit(ask({2}, &ended, "b1"));
  e.submit(ask({2}, &ended, "b2"));
  e.run([&] { return ended.size() == 1; });  // a1 answered: dr 0,1 let go
  e.submit(ask({4}, &ended, "d1"));          // in its slot
  e.submit(ask({4}, &ended, "d2"));
  e.run();
  EXPECT_EQ(ended, (std::vector<std::string>{
                       "a1", "deadline reached: no reply to b1", "deadline reached: not sent: b2",
                       "deadline reached: not sent: d1", "deadline reached: not sent: d2"}));
}

}  // namespace
}  // namespace rdma::mad
