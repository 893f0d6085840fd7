// Times as text, by a strftime format, in UTC or local time: one helper for
// the views that stamp what they print (report, top, monitor -t, fabric
// errors -w).
#pragma once

#include <ctime>
#include <string>

namespace rdma::view {

// A moment as the wall clock gives it, to the microsecond: the text of a
// stamp and its JSON number (seconds since the epoch) from one reading.
struct WallTime {
  std::time_t sec = 0;
  long usec = 0;
  double seconds() const { return static_cast<double>(sec) + static_cast<double>(usec) / 1e6; }
};
WallTime wall_now();

// `at` (default: now) by format.
std::string time_text(const char* format, bool utc, std::time_t at = std::time(nullptr));

}  // namespace rdma::view
