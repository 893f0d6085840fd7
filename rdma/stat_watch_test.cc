#include "rdma/stat_watch.h"

#include <gtest/gtest.h>

#include <chrono>
#include <vector>

namespace rdma {
namespace {

using std::chrono::milliseconds;

// A clock that moves only when told: each interval takes the time its
// entry in `work` says, and a wait jumps to its end. `stop_at`: the wait of
// that number (from 1) says stop, as a signal or a key would.
class FakeWatchClock : public WatchClock {
 public:
  Clock::time_point now() override { return t; }
  bool wait_until(Clock::time_point until) override {
    waits.push_back(ms(until));
    if (++asked == stop_at) return false;
    t = std::max(t, until);
    return true;
  }
  long ms(Clock::time_point p) const {
    return std::chrono::duration_cast<milliseconds>(p - Clock::time_point{}).count();
  }
  Clock::time_point t{};
  std::vector<long> waits;  // the ends of the waits asked, in ms
  int asked = 0;
  int stop_at = 0;
};

// The starts (ms) of the intervals run, each taking its entry of work (ms).
std::vector<long> starts_of(FakeWatchClock& clock, int seconds, const std::vector<long>& work,
                            int count) {
  std::vector<long> starts;
  watch_loop(clock, seconds, count, [&](int n) {
    starts.push_back(clock.ms(clock.now()));
    clock.t += milliseconds(work[static_cast<size_t>(n) % work.size()]);
  });
  return starts;
}

// A sweep of 0.3 s at -w 1: the sweeps start 1 s apart (start to start),
// not 1.3 s (the interval after the sweep ends).
TEST(WatchLoop, IntervalsStartOnTheirSlotsWhateverTheWorkTakes) {
  FakeWatchClock clock;
  EXPECT_EQ(starts_of(clock, 1, {300}, 4), (std::vector<long>{0, 1000, 2000, 3000}));
  EXPECT_EQ(clock.waits, (std::vector<long>{1000, 2000, 3000}));  // none after the last
}

// A sweep that overruns its slot (1.5 s at -w 1) is followed at once, and
// the slots count from there: after a long one, no burst of catch-ups.
TEST(WatchLoop, AnOverrunStartsTheNextAtOnceWithoutCatchingUp) {
  FakeWatchClock clock;
  EXPECT_EQ(starts_of(clock, 1, {1500, 300, 2200, 300}, 6),
            (std::vector<long>{0, 1500, 2500, 4700, 5700, 7200}));
}

// Stopped by the wait (a signal, q), even when every interval overruns
// and no time is left to wait: the wait is still asked.
TEST(WatchLoop, AWaitSayingStopEndsIt) {
  FakeWatchClock clock;
  clock.stop_at = 3;
  EXPECT_EQ(starts_of(clock, 1, {1500}, 0), (std::vector<long>{0, 1500, 3000}));
  EXPECT_EQ(clock.waits, (std::vector<long>{1500, 3000, 4500}));
}

}  // namespace
}  // namespace rdma
