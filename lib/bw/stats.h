// The arithmetic of `rdma bw`: bandwidth from bytes and nanoseconds, and
// the latency summary perftest prints (min, median, average, 99th
// percentile, max) from one-way samples.
#pragma once

#include <cstdint>
#include <vector>

namespace rdma::bw {

// Bits per nanosecond are Gb/s (10^9 bits per second, as perftest's
// --report_gbits); 0 when no time passed.
double gbits_per_s(uint64_t bytes, uint64_t ns);

struct Latency {
  double min_us = 0, median_us = 0, avg_us = 0, p99_us = 0, max_us = 0;
};

// The summary of samples in nanoseconds (reordered); the percentiles are
// nearest-rank: the smallest sample with at least p of all at or below it.
// All zero for no samples.
Latency summarize(std::vector<uint64_t>& samples_ns);

}  // namespace rdma::bw
