// Numeric filters of `rdma statistic qp show` and `stat mr` (cntn, lqpn,
// pid, mrn): a value may list numbers and ranges, "3", "1-4,7".
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rdma::stat {

class NumberFilter {
 public:
  // Throws Error naming key when value is not a list of numbers and ranges.
  NumberFilter(const std::string& key, const std::string& value);
  bool match(uint64_t v) const;
  // The only number the filter accepts, if it names exactly one.
  bool single(uint64_t& v) const;

 private:
  std::vector<std::pair<uint64_t, uint64_t>> ranges_;
};

}  // namespace rdma::stat
