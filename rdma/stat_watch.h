// Repeating a view every few seconds (-w SECONDS, -c COUNT) until the count
// is reached or SIGINT/SIGTERM asks to stop.
#pragma once

#include <chrono>
#include <functional>
#include <memory>

#include "lib/view/printer.h"
#include "rdma/command.h"

namespace rdma {

// One interval of a -w view: with -j a JSON document of its own (out()), as
// text c.out; end() finishes the document, or puts an empty line between
// text intervals (n of c.opt.count), and flushes.
class Interval {
 public:
  Interval(Ctx& c, int n, double since);
  view::Printer& out() { return doc_ ? *doc_ : c_.out; }
  // The seconds since the interval before began (0 for the first): what
  // rates divide by, measured, so a slow interval (dead nodes) that delays
  // the next one leaves the rates true.
  double since() const { return since_; }
  void end();
  // On an error inside the interval: what was printed, as a valid document,
  // or nothing at all when nothing was.
  void abandon_json() {
    if (doc_) doc_->abandon();
  }
  // This interval prints nothing, not even its separator (a first reading
  // that gives no rates yet); the next one takes its number.
  void skip();
  bool skipped() const { return skipped_; }

 private:
  Ctx& c_;
  int n_;
  double since_;
  bool skipped_ = false;
  std::unique_ptr<view::Printer> doc_;
};

// The clock of a watch's schedule and its wait between intervals: a seam,
// so the schedule is tested on a fake clock. watch_intervals' waits for
// SIGINT and SIGTERM; fabric top's screen reads keys while it waits.
class WatchClock {
 public:
  using Clock = std::chrono::steady_clock;
  virtual ~WatchClock() = default;
  virtual Clock::time_point now() { return Clock::now(); }
  // Waits until `until` (not at all when it has passed, but still looks
  // for a reason to stop); false when the watch is to stop instead.
  virtual bool wait_until(Clock::time_point until) = 0;
};

// The clock watch_intervals waits on: SIGINT and SIGTERM are blocked while
// it lives and end a wait (false); for other commands that run until
// stopped (node ping, its server).
std::unique_ptr<WatchClock> signal_clock();

// The schedule of every watch: calls interval(n) for n = 0, 1, ... start to
// start every `seconds`, as watch -p does (at t, t+s, t+2s, ...: the work
// does not shift it), until `count` calls were made (0: no limit) or
// clock.wait_until() says stop. An interval that overruns its slot is
// followed at once by the next, from which the schedule then counts: never
// a burst of catch-ups.
void watch_loop(WatchClock& clock, int seconds, int count,
                const std::function<void(int n)>& interval);

// The one loop of every -w view: takes the output over
// (own_json_output(c, what)), then every `seconds`, `count` times (0: until
// a signal), gives body an Interval to print to and ends it, on
// watch_loop's schedule (start to start, an overrun not caught up); SIGINT
// and SIGTERM are held while body runs, so an interval's output is always
// complete, and end the watch normally instead of killing the process.
// An error in body ends the watch; the interval's document, if it printed
// anything, is closed with what it has (Interval::abandon_json).
void watch_intervals(Ctx& c, const char* what, int seconds, int count,
                     const std::function<void(Interval& iv)>& body);
// watch_intervals as -w SECONDS -c COUNT ask.
inline void watch_view(Ctx& c, const std::function<void(Interval& iv)>& body) {
  watch_intervals(c, "-w", c.opt.watch_s, c.opt.count, body);
}

// Shows a view once, or with -w SECONDS [-c COUNT] again every interval: in
// text an empty line between intervals, in JSON one document per interval
// (one line each unless -p). For views without rates, e.g. `res` summary.
void repeat_view(Ctx& c, const std::function<void(Ctx&)>& view);

}  // namespace rdma
