// A byte string kept in 16 bytes: up to 15 bytes inline, a longer one on
// the heap. Thousands are live at a discovery's peak, most of a few bytes:
// each node's directed route (ib::NodePath) and each of the engine's
// destinations' keys (ShortKey: "d" and a route's ports, "l" and a DLID,
// "G" and a GUID). A std::vector is 24 bytes and a heap block of 32 for a
// few bytes, a std::string 32 for the same 15 inline
// (bench/fabric_results.md, the model's small blocks and the engine's
// share of the peak). Reads as the vector of bytes it replaced, or as
// text (view()).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <span>
#include <string_view>
#include <vector>

namespace rdma::mad {

class SmallBytes {
 public:
  SmallBytes() = default;
  // Implicit, as the vectors they replaced were assigned from vectors.
  SmallBytes(std::span<const uint8_t> b) { assign(b.data(), b.size()); }
  SmallBytes(const std::vector<uint8_t>& b) : SmallBytes(std::span<const uint8_t>(b)) {}
  SmallBytes(std::initializer_list<uint8_t> b) : SmallBytes(std::span<const uint8_t>(b)) {}
  explicit SmallBytes(std::string_view s) {
    assign(reinterpret_cast<const uint8_t*>(s.data()), s.size());
  }
  SmallBytes(const SmallBytes& o) : SmallBytes(o.span()) {}
  SmallBytes(SmallBytes&& o) noexcept { take(o); }
  SmallBytes& operator=(const SmallBytes& o);
  SmallBytes& operator=(SmallBytes&& o) noexcept;
  ~SmallBytes() { release(); }

  size_t size() const { return tag_ < kLong ? tag_ : long_size(); }
  bool empty() const { return tag_ == 0; }
  const uint8_t* data() const { return on_heap() ? heap() : bytes_; }
  const uint8_t* begin() const { return data(); }
  const uint8_t* end() const { return data() + size(); }
  uint8_t operator[](size_t i) const { return data()[i]; }
  uint8_t back() const { return data()[size() - 1]; }
  std::span<const uint8_t> span() const { return {data(), size()}; }
  std::string_view view() const { return {reinterpret_cast<const char*>(data()), size()}; }
  // For a mad::Route, whose path is a vector.
  operator std::vector<uint8_t>() const { return {begin(), end()}; }

  bool operator==(const SmallBytes& o) const;
  bool operator==(const std::vector<uint8_t>& v) const;

 private:
  static constexpr size_t kInline = 15;
  // tag_ from here: the size is the uint32_t at bytes_[8], as no route
  // (63 hops at most) or key comes near it.
  static constexpr uint8_t kLong = 0xff;
  bool on_heap() const { return tag_ > kInline; }
  const uint8_t* heap() const {
    const uint8_t* p;
    std::memcpy(&p, bytes_, sizeof p);
    return p;
  }
  size_t long_size() const;
  void assign(const uint8_t* b, size_t n);
  void take(SmallBytes& o);
  void release();

  // The bytes, or (more than kInline) the address of a heap copy, stored
  // here by memcpy, and for kLong its size after it.
  uint8_t bytes_[kInline] = {};
  uint8_t tag_ = 0;  // the size, or kLong
};
static_assert(sizeof(SmallBytes) == 16, "a node's path, a destination's key: keep it 16 bytes");

}  // namespace rdma::mad
