// A node's ports, indexed by port number as the std::vector they replaced
// was: size() is NumPorts + 1, ports[n] is port n, iteration visits every
// number from 0. A CA's or router's port 0 does not exist, and is not kept:
// it reads as an empty Port. That was 64 bytes of a CA's 192, 256 KiB of
// the 4,768-node tree's peak, allocated in the last wave's settle where the
// heap's top grows (bench/fabric_results.md, the CAs' port 0).
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>

#include "lib/ib/port_parts.h"

namespace rdma::ib {

// 64 bytes (fabric_model.cc says why): members largest first, the optional
// parts in port_parts.h's forms, which read as std::optional's.
struct Port {
  uint64_t guid = 0;   // the port GUID (CA and router ports; a switch's is port 0's)
  MaybePortInfo info;  // none: not reached, or it did not answer
  MaybePeer peer;      // the other end, when the link is up and found
  uint8_t num = 0;
};

class NodePorts {
 public:
  NodePorts() = default;
  // Ports 0..count-1, each numbered. without_zero: port 0 is not kept (a
  // CA's or a router's) and reads as an empty Port.
  NodePorts(size_t count, bool without_zero);
  NodePorts(const NodePorts& o);
  // A moved-from NodePorts is empty, as a moved-from vector.
  NodePorts(NodePorts&& o) noexcept;
  NodePorts& operator=(const NodePorts& o);
  NodePorts& operator=(NodePorts&& o) noexcept;

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // The ports held in memory: size(), or one less without port 0.
  size_t stored() const { return size_ - first_; }

  const Port& operator[](size_t n) const { return n < first_ ? none() : ports_[n - first_]; }
  // Port 0 of ports without it is made (empty) on the first write access,
  // as a vector's element could be written: that moves the ports, so
  // references to them taken before are no longer valid (as after a
  // vector's resize). Reads through a const NodePorts never do.
  Port& operator[](size_t n) {
    if (n < first_) keep_zero();
    return ports_[n - first_];
  }
  // As std::vector's: ports added default (numbered 0), or the last dropped.
  void resize(size_t count);

  // Every port from 0, port 0 the empty Port when not kept.
  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = Port;
    using difference_type = std::ptrdiff_t;
    using pointer = const Port*;
    using reference = const Port&;
    const_iterator() = default;
    const_iterator(const NodePorts* ports, size_t n) : ports_(ports), n_(n) {}
    reference operator*() const { return (*ports_)[n_]; }
    pointer operator->() const { return &(*ports_)[n_]; }
    const_iterator& operator++() {
      ++n_;
      return *this;
    }
    const_iterator operator++(int) { return {ports_, n_++}; }
    bool operator==(const const_iterator& o) const { return n_ == o.n_; }

   private:
    const NodePorts* ports_ = nullptr;
    size_t n_ = 0;
  };
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size_}; }
  // Writable iteration keeps port 0 first (a loop may write to it).
  Port* begin() {
    if (first_) keep_zero();
    return ports_.get();
  }
  Port* end() { return begin() + size_; }

  // The empty Port a port 0 not kept reads as: a constant, not state.
  static const Port& none();

 private:
  void keep_zero();

  std::unique_ptr<Port[]> ports_;  // ports first_..size_-1
  uint16_t size_ = 0;              // NumPorts + 1 (at most 256)
  uint8_t first_ = 0;              // 1: port 0 not kept
};

}  // namespace rdma::ib
