#include "lib/stat/rate.h"

#include <cmath>
#include <cstdio>

namespace rdma::stat {

uint64_t counter_delta(uint64_t prev, uint64_t cur) {
  if (cur >= prev) return cur - prev;
  if (prev <= UINT32_MAX) return (uint64_t{1} << 32) - prev + cur;
  return cur - prev;  // modulo 2^64
}

// Not std::round: the program links no libm (one library less
// to load at every start, bench/startup_results.md), and GCC expands floor
// inline but calls round. Halves go away from zero, as std::round's.
double round_half_away(double v) {
  if (v < 0) return -round_half_away(-v);
  double f = std::floor(v);
  return v - f >= 0.5 ? f + 1 : f;
}

std::string rate_text(double rate) {
  char buf[48];
  if (rate == std::floor(rate) && rate < 1e18) {
    std::snprintf(buf, sizeof buf, "%.0f", rate);
    return buf;
  }
  std::snprintf(buf, sizeof buf, "%.2f", rate);
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

std::vector<std::optional<double>> RateTracker::update(const Key& key,
                                                       const std::vector<HwCounter>& now,
                                                       double seconds) {
  std::vector<std::optional<double>> rates;
  rates.reserve(now.size());
  auto old = prev_.find(key);
  Reading& reading = cur_[key];
  for (const HwCounter& c : now) {
    reading[c.name] = c.value;
    std::optional<double> r;
    if (old != prev_.end() && seconds > 0) {
      auto it = old->second.find(c.name);
      if (it != old->second.end())
        r = round_half_away(double(counter_delta(it->second, c.value)) / seconds * 100) / 100;
    }
    rates.push_back(r);
  }
  return rates;
}

void RateTracker::end_interval() {
  prev_ = std::move(cur_);
  cur_.clear();
}

}  // namespace rdma::stat
