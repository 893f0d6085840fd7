#include "rdma/stat_watch.h"

#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <ctime>
#include <memory>
#include <optional>

#include "lib/error.h"

namespace rdma {

namespace {

// Blocks SIGINT and SIGTERM for its lifetime, and waits for them between
// intervals; restores the old mask after taking any that arrived
// meanwhile, so they do not kill us on the way out.
class SignalClock : public WatchClock {
 public:
  SignalClock() {
    sigemptyset(&set_);
    sigaddset(&set_, SIGINT);
    sigaddset(&set_, SIGTERM);
    sigprocmask(SIG_BLOCK, &set_, &old_);
  }
  ~SignalClock() override {
    timespec zero{};
    while (sigtimedwait(&set_, nullptr, &zero) > 0) {
    }
    sigprocmask(SIG_SETMASK, &old_, nullptr);
  }
  SignalClock(const SignalClock&) = delete;
  SignalClock& operator=(const SignalClock&) = delete;
  bool wait_until(Clock::time_point until) override {
    for (;;) {
      auto left = std::max(Clock::duration::zero(), until - Clock::now());
      auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(left).count();
      timespec ts{};
      ts.tv_sec = static_cast<time_t>(ns / 1000000000);
      ts.tv_nsec = static_cast<long>(ns % 1000000000);
      if (sigtimedwait(&set_, nullptr, &ts) > 0) return false;
      if (Clock::now() >= until) return true;  // EAGAIN at the deadline; EINTR: on
    }
  }

 private:
  sigset_t set_;
  sigset_t old_;
};

}  // namespace

std::unique_ptr<WatchClock> signal_clock() {
  return std::make_unique<SignalClock>();
}

void watch_loop(WatchClock& clock, int seconds, int count,
                const std::function<void(int n)>& interval) {
  using Clock = WatchClock::Clock;
  Clock::time_point slot = clock.now();
  for (int n = 0;; ++n) {
    interval(n);
    if (count && n + 1 >= count) return;
    slot += std::chrono::seconds(seconds);
    // Overrun: the next starts now, and the slots count from it. Waited
    // for all the same (no time at all), so a signal or a key is seen.
    slot = std::max(slot, clock.now());
    if (!clock.wait_until(slot)) return;
  }
}

Interval::Interval(Ctx& c, int n, double since) : c_(c), n_(n), since_(since) {
  if (c.out.is_json()) doc_ = view::make_json_printer(c.help_out, c.opt.pretty);
}

void Interval::end() {
  if (skipped_) return;
  if (doc_)
    doc_->finish();
  else if (n_ + 1 != c_.opt.count)
    std::fputc('\n', c_.help_out);
  std::fflush(c_.help_out);
}

void Interval::skip() {
  skipped_ = true;
  if (doc_) doc_->detach();
}

void watch_intervals(Ctx& c, const char* what, int seconds, int count,
                     const std::function<void(Interval& iv)>& body) {
  using Clock = std::chrono::steady_clock;
  own_json_output(c, what);
  std::optional<Clock::time_point> last;
  int shown = 0;  // intervals printed: a skipped one takes no number
  SignalClock clock;
  watch_loop(clock, seconds, count, [&](int) {
    Clock::time_point start = Clock::now();
    double since = last ? std::chrono::duration<double>(start - *last).count() : 0;
    last = start;
    Interval iv(c, shown, since);
    try {
      body(iv);
    } catch (...) {
      iv.abandon_json();
      throw;
    }
    iv.end();
    if (!iv.skipped()) ++shown;
  });
}

void repeat_view(Ctx& c, const std::function<void(Ctx&)>& view) {
  check_takes(c, Takes::Watch);  // res show DEV: a table's Own entry
  if (!c.opt.watch_s) return view(c);
  watch_view(c, [&](Interval& iv) {
    if (!iv.out().is_json()) return view(c);
    Ctx each{c.opt, c.args, c.conn, iv.out(), c.help_out, c.in, c.err};
    view(each);
  });
}

}  // namespace rdma
