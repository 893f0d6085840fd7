// A key of a few bytes kept in 16: up to 15 inline, a longer one on the
// heap. The engine's destinations' keys ("d" and a route's ports, "l" and
// a DLID, "G" and a GUID) are under 15 bytes but for routes of more than
// 14 hops; a std::string is 32 bytes for the same 15 inline, and the
// thousands of destinations of a discovery are live at its peak
// (bench/fabric_results.md, the engine's share of the peak).
#pragma once

#include <cstdint>
#include <string_view>

namespace rdma::mad {

class ShortKey {
 public:
  ShortKey() = default;
  explicit ShortKey(std::string_view s);
  ShortKey(const ShortKey&) = delete;
  ShortKey& operator=(const ShortKey&) = delete;
  ~ShortKey();
  std::string_view view() const;

 private:
  static constexpr uint8_t kOut = 0xff;  // bytes_[15]: the key is on the heap
  // Inline: the key, then its length in bytes_[15]. On the heap: a
  // pointer to it and its length (32 bits), kOut in bytes_[15].
  alignas(8) char bytes_[16] = {};
};
static_assert(sizeof(ShortKey) == 16, "a destination's key: keep it 16 bytes");

}  // namespace rdma::mad
