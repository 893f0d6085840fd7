// Repeating a view every few seconds (-w SECONDS, -c COUNT) until the count
// is reached or SIGINT/SIGTERM asks to stop.
#pragma once

#include <functional>

#include "rdma/command.h"

namespace rdma {

// Calls interval(n) for n = 0, 1, ... every `seconds` (measured from the
// start, so work does not shift the schedule) until `count` calls were made
// (0: no limit) or SIGINT/SIGTERM arrives. The signals are held while
// interval() runs, so an interval's output is always complete; a signal ends
// the loop normally instead of killing the process.
void watch_loop(int seconds, int count, const std::function<void(int n)>& interval);

// Shows a view once, or with -w SECONDS [-c COUNT] again every interval: in
// text an empty line between intervals, in JSON one document per interval
// (one line each unless -p). For views without rates, e.g. `res` summary.
void repeat_view(Ctx& c, const std::function<void(Ctx&)>& view);

}  // namespace rdma
