// A node's directed route (the hops from the local port) in 16 bytes,
// inline up to 15 hops, on the heap beyond: a std::vector was 24 bytes
// and a heap block of 32 for a few hops, one a node (bench/fabric_results.md,
// the model's small blocks). Reads as the vector it replaced.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <vector>

namespace rdma::ib {

class NodePath {
 public:
  NodePath() = default;
  // Implicit, as the vector it replaced was assigned from vectors.
  NodePath(std::span<const uint8_t> hops) { assign(hops); }
  NodePath(const std::vector<uint8_t>& hops) : NodePath(std::span<const uint8_t>(hops)) {}
  NodePath(std::initializer_list<uint8_t> hops) : NodePath(std::span<const uint8_t>(hops)) {}
  NodePath(const NodePath& o) : NodePath(o.span()) {}
  NodePath(NodePath&& o) noexcept;
  NodePath& operator=(const NodePath& o);
  NodePath& operator=(NodePath&& o) noexcept;
  ~NodePath() { release(); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const uint8_t* data() const { return on_heap() ? heap() : bytes_; }
  const uint8_t* begin() const { return data(); }
  const uint8_t* end() const { return data() + size_; }
  uint8_t operator[](size_t i) const { return data()[i]; }
  uint8_t back() const { return data()[size_ - 1]; }
  std::span<const uint8_t> span() const { return {data(), size_}; }
  // For a mad::Route, whose path is a vector.
  operator std::vector<uint8_t>() const { return {begin(), end()}; }

  bool operator==(const NodePath& o) const;
  bool operator==(const std::vector<uint8_t>& v) const;

 private:
  static constexpr size_t kInline = 15;
  bool on_heap() const { return size_ > kInline; }
  uint8_t* heap() const;
  void assign(std::span<const uint8_t> hops);
  void release();

  // The hops, or (more than kInline) the address of a heap copy, its
  // bytes stored here by memcpy.
  uint8_t bytes_[kInline] = {};
  uint8_t size_ = 0;  // at most mad::kMaxHops (63)
};

}  // namespace rdma::ib
