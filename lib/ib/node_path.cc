#include "lib/ib/node_path.h"

#include <algorithm>
#include <cstring>

namespace rdma::ib {

// A Node holds one: 8 bytes less than a vector, and no heap block (32 bytes
// with malloc's header) for a route of up to 15 hops.
static_assert(sizeof(NodePath) == 16);
static_assert(sizeof(uint8_t*) <= 15);

uint8_t* NodePath::heap() const {
  uint8_t* p;
  std::memcpy(&p, bytes_, sizeof p);
  return p;
}

void NodePath::assign(std::span<const uint8_t> hops) {
  // size_ is one byte: a directed route is at most 63 hops (mad::kMaxHops);
  // longer input is cut rather than wrapped, and mad::make_smp refuses it.
  size_t n = std::min<size_t>(hops.size(), 255);
  size_ = static_cast<uint8_t>(n);
  if (n <= kInline) {
    std::copy_n(hops.data(), n, bytes_);
    return;
  }
  uint8_t* p = new uint8_t[n];
  std::copy_n(hops.data(), n, p);
  std::memcpy(bytes_, &p, sizeof p);
}

void NodePath::release() {
  if (on_heap()) delete[] heap();
  size_ = 0;
}

NodePath::NodePath(NodePath&& o) noexcept {
  std::memcpy(bytes_, o.bytes_, kInline);
  size_ = o.size_;
  o.size_ = 0;  // a heap copy is ours now
}

NodePath& NodePath::operator=(const NodePath& o) {
  if (this != &o) {
    NodePath copy(o);
    *this = std::move(copy);
  }
  return *this;
}

NodePath& NodePath::operator=(NodePath&& o) noexcept {
  if (this != &o) {
    release();
    std::memcpy(bytes_, o.bytes_, kInline);
    size_ = o.size_;
    o.size_ = 0;
  }
  return *this;
}

bool NodePath::operator==(const NodePath& o) const {
  return std::ranges::equal(span(), o.span());
}

bool NodePath::operator==(const std::vector<uint8_t>& v) const {
  return std::ranges::equal(span(), v);
}

}  // namespace rdma::ib
