#include "lib/mad/route_counts.h"

#include <algorithm>

namespace rdma::mad {

RouteCounts::Entry* RouteCounts::find(uint64_t key) {
  for (Entry& e : tail_)
    if (e.first == key) return &e;
  auto it = std::lower_bound(sorted_.begin(), sorted_.end(), Entry{key, 0},
                             [](const Entry& a, const Entry& b) { return a.first < b.first; });
  return it != sorted_.end() && it->first == key ? &*it : nullptr;
}

uint64_t& RouteCounts::operator[](uint64_t key) {
  if (Entry* e = find(key)) {
    if (e->second == kGone) {  // removed, back again
      e->second = 0;
      --gone_;
      ++live_;
    }
    return e->second;
  }
  if (tail_.size() == kTail) merge();
  if (tail_.capacity() < kTail) tail_.reserve(kTail);
  ++live_;
  return tail_.emplace_back(key, 0).second;
}

uint64_t RouteCounts::take(uint64_t key) {
  Entry* e = find(key);
  if (!e || e->second == kGone) return 0;
  uint64_t n = e->second;
  e->second = kGone;
  --live_;
  if (e >= tail_.data() && e < tail_.data() + tail_.size()) {
    *e = tail_.back();
    tail_.pop_back();
  } else {
    ++gone_;
  }
  return n;
}

// The tail into the sorted run, from the back: no second copy of the run.
// The removed entries go first once they are a quarter of it.
void RouteCounts::merge() {
  if (gone_ * 4 > sorted_.size()) {
    std::erase_if(sorted_, [](const Entry& e) { return e.second == kGone; });
    gone_ = 0;
  }
  std::sort(tail_.begin(), tail_.end());
  size_t n = sorted_.size();
  sorted_.resize(n + tail_.size());
  size_t i = n, j = tail_.size(), k = sorted_.size();
  while (j > 0) {
    if (i > 0 && sorted_[i - 1].first > tail_[j - 1].first)
      sorted_[--k] = sorted_[--i];
    else
      sorted_[--k] = tail_[--j];
  }
  tail_.clear();
}

}  // namespace rdma::mad
