#include "lib/stat/filter.h"

#include "lib/error.h"
#include "lib/view/number.h"

namespace rdma::stat {

namespace {

bool parse_u32(const std::string& s, uint64_t& v) {
  std::optional<uint64_t> n = view::parse_number(s, {.max = UINT32_MAX});
  if (n) v = *n;
  return n.has_value();
}

}  // namespace

NumberFilter::NumberFilter(const std::string& key, const std::string& value) {
  auto bad = [&] {
    return UsageError("invalid " + key + " \"" + value +
                      "\" (expected numbers or ranges, e.g. 3 or 1-4,7)");
  };
  size_t start = 0;
  for (;;) {
    size_t comma = value.find(',', start);
    std::string item = value.substr(start, comma == std::string::npos ? comma : comma - start);
    size_t dash = item.find('-');
    uint64_t lo, hi;
    if (dash == std::string::npos) {
      if (!parse_u32(item, lo)) throw bad();
      hi = lo;
    } else if (!parse_u32(item.substr(0, dash), lo) || !parse_u32(item.substr(dash + 1), hi) ||
               hi < lo) {
      throw bad();
    }
    ranges_.emplace_back(lo, hi);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
}

bool NumberFilter::match(uint64_t v) const {
  for (const auto& [lo, hi] : ranges_)
    if (v >= lo && v <= hi) return true;
  return false;
}

bool NumberFilter::single(uint64_t& v) const {
  if (ranges_.size() != 1 || ranges_[0].first != ranges_[0].second) return false;
  v = ranges_[0].first;
  return true;
}

}  // namespace rdma::stat
