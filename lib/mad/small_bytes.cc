#include "lib/mad/small_bytes.h"

#include <algorithm>
#include <utility>

namespace rdma::mad {

// The heap copy's address and, for kLong, its size fit before tag_.
static_assert(sizeof(uint8_t*) + sizeof(uint32_t) <= 15);

size_t SmallBytes::long_size() const {
  uint32_t n;
  std::memcpy(&n, bytes_ + sizeof(uint8_t*), sizeof n);
  return n;
}

void SmallBytes::assign(const uint8_t* b, size_t n) {
  if (n <= kInline) {
    std::copy_n(b, n, bytes_);
    tag_ = static_cast<uint8_t>(n);
    return;
  }
  auto* p = new uint8_t[n];
  std::copy_n(b, n, p);
  std::memcpy(bytes_, &p, sizeof p);
  if (n < kLong) {
    tag_ = static_cast<uint8_t>(n);
    return;
  }
  auto n32 = static_cast<uint32_t>(n);
  std::memcpy(bytes_ + sizeof p, &n32, sizeof n32);
  tag_ = kLong;
}

// o's bytes (a heap copy's address) are ours now; o is left empty.
void SmallBytes::take(SmallBytes& o) {
  std::memcpy(bytes_, o.bytes_, kInline);
  tag_ = o.tag_;
  o.tag_ = 0;
}

void SmallBytes::release() {
  if (on_heap()) delete[] heap();
  tag_ = 0;
}

SmallBytes& SmallBytes::operator=(const SmallBytes& o) {
  if (this != &o) {
    SmallBytes copy(o);
    *this = std::move(copy);
  }
  return *this;
}

SmallBytes& SmallBytes::operator=(SmallBytes&& o) noexcept {
  if (this != &o) {
    release();
    take(o);
  }
  return *this;
}

bool SmallBytes::operator==(const SmallBytes& o) const {
  return std::ranges::equal(span(), o.span());
}

bool SmallBytes::operator==(const std::vector<uint8_t>& v) const {
  return std::ranges::equal(span(), v);
}

}  // namespace rdma::mad
