#include "lib/mad/packed_mad.h"

#include <bit>
#include <cstring>

namespace rdma::mad {

PackedMad::PackedMad(const Mad& m) {
  std::array<uint64_t, kWords> w;
  std::memcpy(w.data(), m.bytes.data(), kMadBytes);
  uint32_t mask = 0;
  for (size_t i = 0; i < kWords; ++i)
    if (w[i]) mask |= uint32_t{1} << i;
  if (static_cast<size_t>(std::popcount(mask)) > kInline) {
    whole_ = std::make_unique<Mad>(m);
    return;
  }
  mask_ = mask;
  size_t n = 0;
  for (size_t i = 0; i < kWords; ++i)
    if (mask & (uint32_t{1} << i)) words_[n++] = w[i];
}

Mad PackedMad::unpack() const {
  if (whole_) return *whole_;
  std::array<uint64_t, kWords> w{};
  size_t n = 0;
  for (size_t i = 0; i < kWords; ++i)
    if (mask_ & (uint32_t{1} << i)) w[i] = words_[n++];
  Mad m;
  std::memcpy(m.bytes.data(), w.data(), kMadBytes);
  return m;
}

}  // namespace rdma::mad
