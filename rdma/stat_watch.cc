#include "rdma/stat_watch.h"

#include <signal.h>

#include <cerrno>
#include <chrono>
#include <ctime>
#include <memory>
#include <optional>

#include "lib/error.h"

namespace rdma {

namespace {

// Blocks SIGINT and SIGTERM for its lifetime; restores the old mask after
// taking any that arrived meanwhile, so they do not kill us on the way out.
class HeldSignals {
 public:
  HeldSignals() {
    sigemptyset(&set_);
    sigaddset(&set_, SIGINT);
    sigaddset(&set_, SIGTERM);
    sigprocmask(SIG_BLOCK, &set_, &old_);
  }
  ~HeldSignals() {
    timespec zero{};
    while (sigtimedwait(&set_, nullptr, &zero) > 0) {
    }
    sigprocmask(SIG_SETMASK, &old_, nullptr);
  }
  // Sleeps up to `left`; true when a signal arrived.
  bool wait(std::chrono::nanoseconds left) const {
    timespec ts{};
    ts.tv_sec = static_cast<time_t>(left.count() / 1000000000);
    ts.tv_nsec = static_cast<long>(left.count() % 1000000000);
    return sigtimedwait(&set_, nullptr, &ts) > 0;
  }

 private:
  sigset_t set_;
  sigset_t old_;
};

// Calls interval(n) for n = 0, 1, ... every `seconds` (measured from the
// start) until `count` calls were made (0: no limit) or SIGINT/SIGTERM
// arrives; the signals are held while interval() runs.
void watch_loop(int seconds, int count, const std::function<void(int n)>& interval) {
  using Clock = std::chrono::steady_clock;
  HeldSignals held;
  const Clock::time_point start = Clock::now();
  for (int n = 0;; ++n) {
    interval(n);
    if (count && n + 1 >= count) return;
    const Clock::time_point next = start + std::chrono::seconds(seconds) * (n + 1);
    for (;;) {
      Clock::time_point now = Clock::now();
      if (now >= next) break;
      if (held.wait(next - now)) return;  // EAGAIN at the deadline, EINTR: loop
    }
  }
}

}  // namespace

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
  watch_loop(seconds, count, [&](int) {
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
