#include "lib/view/time_text.h"

#include <sys/time.h>

namespace rdma::view {

WallTime wall_now() {
  timeval tv{};
  gettimeofday(&tv, nullptr);
  return {tv.tv_sec, static_cast<long>(tv.tv_usec)};
}

std::string time_text(const char* format, bool utc, std::time_t at) {
  std::tm tm;
  if (utc)
    gmtime_r(&at, &tm);
  else
    localtime_r(&at, &tm);
  char buf[64];
  size_t n = std::strftime(buf, sizeof buf, format, &tm);
  return std::string(buf, n);
}

}  // namespace rdma::view
