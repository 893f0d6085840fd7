#include "lib/bw/stats.h"

#include <algorithm>

namespace rdma::bw {

double gbits_per_s(uint64_t bytes, uint64_t ns) {
  if (!ns) return 0;
  return static_cast<double>(bytes) * 8.0 / static_cast<double>(ns);
}

namespace {

// Nearest rank of p (in hundredths) among n sorted samples: ceil(p*n/100)-1,
// in integers so that 99 of 100 is index 98 exactly.
size_t rank(size_t n, size_t p) {
  size_t r = (p * n + 99) / 100;
  return r ? r - 1 : 0;
}

}  // namespace

Latency summarize(std::vector<uint64_t>& s) {
  Latency l;
  if (s.empty()) return l;
  std::sort(s.begin(), s.end());
  auto us = [](uint64_t ns) { return static_cast<double>(ns) / 1000.0; };
  long double sum = 0;
  for (uint64_t v : s) sum += v;
  l.min_us = us(s.front());
  l.max_us = us(s.back());
  l.median_us = us(s[rank(s.size(), 50)]);
  l.p99_us = us(s[rank(s.size(), 99)]);
  l.avg_us = static_cast<double>(sum / static_cast<long double>(s.size())) / 1000.0;
  return l;
}

}  // namespace rdma::bw
