// A MAD kept while it waits to be sent, in its words that are not zero:
// a queued Get is a header, a directed route's few bytes and zeros, so 64
// bytes hold what a 256-byte Mad did for the hundreds of queries a
// discovery keeps queued (bench/fabric_results.md, the engine's share of
// the peak). A MAD with more words than fit (a Set's data, a route past 7
// hops) is kept whole on the heap.
#pragma once

#include <array>
#include <cstdint>
#include <memory>

#include "lib/mad/mad.h"

namespace rdma::mad {

class PackedMad {
 public:
  PackedMad() = default;
  explicit PackedMad(const Mad& m);
  Mad unpack() const;

 private:
  static constexpr size_t kWords = kMadBytes / 8;
  static constexpr size_t kInline = 6;
  static_assert(kWords <= 32, "one mask bit a word");
  uint32_t mask_ = 0;                      // bit i: word i is not zero (inline)
  std::array<uint64_t, kInline> words_{};  // those words, in order
  std::unique_ptr<Mad> whole_;             // set when more than kInline words are not zero
};
static_assert(sizeof(PackedMad) == 64, "a queued query's MAD: keep it 64 bytes");

}  // namespace rdma::mad
