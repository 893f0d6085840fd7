// Per-second rates of counters between two readings (rdma statistic -w).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "lib/stat/hwcounters.h"

namespace rdma::stat {

// How much a counter grew from prev to cur. A smaller cur means it wrapped:
// at 2^32 when prev fits in 32 bits (many hardware counters are 32-bit
// registers widened to u64), otherwise at 2^64.
uint64_t counter_delta(uint64_t prev, uint64_t cur);

// std::round(v) without libm (see rate.cc).
double round_half_away(double v);

// "12", "0.5", "1234.25": a rate as text, at most two decimals.
std::string rate_text(double rate);

// Remembers each port's previous reading. Ports are told apart by device
// index, name and port, so a device that goes away and comes back (a new
// index) starts afresh instead of yielding a bogus rate.
class RateTracker {
 public:
  struct Key {
    uint32_t dev_index;
    std::string dev;
    uint32_t port;
    auto operator<=>(const Key&) const = default;
  };

  // Rates over `seconds` for each counter of this reading, in its order;
  // nullopt for a counter without an earlier reading.
  std::vector<std::optional<double>> update(const Key& key, const std::vector<HwCounter>& now,
                                            double seconds);
  // Ends an interval: ports not read in it are forgotten (they disappeared).
  void end_interval();

 private:
  using Reading = std::map<std::string, uint64_t>;
  std::map<Key, Reading> prev_;
  std::map<Key, Reading> cur_;
};

}  // namespace rdma::stat
