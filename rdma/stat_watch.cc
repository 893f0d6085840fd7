#include "rdma/stat_watch.h"

#include <signal.h>

#include <cerrno>
#include <chrono>
#include <ctime>
#include <memory>

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

}  // namespace

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

void repeat_view(Ctx& c, const std::function<void(Ctx&)>& view) {
  check_takes(c, Takes::Watch);  // res show DEV: a table's Own entry
  if (!c.opt.watch_s) return view(c);
  const bool json = c.out.is_json();
  own_json_output(c, "-w");
  watch_loop(c.opt.watch_s, c.opt.count, [&](int n) {
    if (!json) {
      if (n) std::fputc('\n', c.help_out);
      view(c);
    } else {
      std::unique_ptr<view::Printer> doc = view::make_json_printer(c.help_out, c.opt.pretty);
      Ctx each{c.opt, c.args, c.conn, *doc, c.help_out, c.in, c.err};
      try {
        view(each);
      } catch (...) {
        doc->finish();
        throw;
      }
      doc->finish();
    }
    std::fflush(c.help_out);
  });
}

}  // namespace rdma
