// rdma fabric errors window SECONDS | save FILE | since FILE: the error
// counters judged by their increase over a window, never reset
// (lib/ib/counter_window.h).
#pragma once

#include <optional>
#include <string>

#include "lib/ib/errors.h"
#include "lib/ib/fabric_model.h"
#include "rdma/command.h"

namespace rdma {

class MadSession;

// The wait share `congestion` without PERCENT judges against: a port that
// lost a tenth of its link's rate waiting is worth a look (man rdma-fabric).
inline constexpr double kDefaultCongestionPercent = 10;

// Which of the three a `fabric errors` command line asked for.
struct WindowMode {
  std::optional<int> seconds;        // window SECONDS: read, wait, read again
  std::optional<std::string> save;   // save FILE: keep this reading
  std::optional<std::string> since;  // since FILE: judge the increase since that reading
  // congestion [PERCENT]: a port that lost at least PERCENT of its link's
  // rate waiting to send (lib/ib/lost_bandwidth.h) is a finding.
  std::optional<double> congestion;
  bool any() const { return seconds || save || since; }
};

// Runs the mode over f with the sweep's options o (its thresholds of the
// increase). Findings (a counter over its increase threshold, a flap) make
// the exit status 1; a sweep or file that fails throws.
// With metrics (not null; window and since only) the judgement is written
// there instead: every port compared, each judged counter's increase as
// the gauge NAME_increase and LinkDownedCounter's as link_downs; the wait
// share (0..1) as xmit_wait_ratio, a port that left Active as left_active.
void errors_window(Ctx& c, MadSession& s, const ib::Fabric& f, ib::SweepOptions o,
                   const WindowMode& m, view::Printer* metrics = nullptr);
// The gauges of those metrics.
std::vector<std::string> window_gauges();

}  // namespace rdma
