// Counts by a 64-bit key in 16 bytes each, for the engine's probe routes
// (Engine::probe_sent_): a sorted run and a short unsorted tail merged
// into it, not a hash node (and its bucket) per key. 13,266 routes held
// 467 KB as an unordered_map at the peak of a 4,768-node discovery
// (bench/fabric_results.md, discovery's memory); here about 212 KB.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

namespace rdma::mad {

class RouteCounts {
 public:
  // The count of key, added as 0 when absent. The reference lasts until
  // the next call.
  uint64_t& operator[](uint64_t key);
  // The count of key, removed; 0 when absent.
  uint64_t take(uint64_t key);
  size_t size() const { return live_; }
  // f(count) on every count held, which it may change (not to ~0).
  template <typename F>
  void for_each(F f) {
    for (Entry& e : sorted_)
      if (e.second != kGone) f(e.second);
    for (Entry& e : tail_) f(e.second);
  }

 private:
  using Entry = std::pair<uint64_t, uint64_t>;  // key, count
  // A removed entry's count until the next merge drops it.
  static constexpr uint64_t kGone = ~uint64_t{0};
  // The tail's length before it is merged: a scan of it per lookup.
  static constexpr size_t kTail = 64;
  Entry* find(uint64_t key);
  void merge();

  // Sorted by key; a deque, so that growing it copies nothing and leaves
  // no doubled block behind.
  std::deque<Entry> sorted_;
  std::vector<Entry> tail_;  // unsorted, at most kTail
  size_t gone_ = 0;          // entries of sorted_ counted kGone
  size_t live_ = 0;
};

}  // namespace rdma::mad
