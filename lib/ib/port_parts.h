// A Port's optional parts (its PortInfo, its peer) stored in fewer bytes
// than std::optional's, with optional's reading interface: a fabric holds
// tens of thousands of ports, and optional's flags cost 16 bytes of padding
// a port (bench/fabric_results.md, peak memory).
#pragma once

#include <cstdint>
#include <optional>
#include <utility>

#include "lib/ib/smp.h"

namespace rdma::ib {

// One end of a link: a node (index into Fabric::nodes) and a port number.
struct PortRef {
  uint32_t node = 0;
  uint8_t port = 0;
  bool operator==(const PortRef&) const = default;
};

// A PortInfo or none, in PortInfo's own bytes: none is a PortState no port
// reports (the field is 4 bits wide on the wire). A PortInfo whose state is
// that value cannot be stored; the fabric file rejects one (cache.cc).
class MaybePortInfo {
 public:
  static constexpr uint8_t kNoState = 0xff;

  MaybePortInfo() { v_.state = kNoState; }
  MaybePortInfo(std::nullopt_t) : MaybePortInfo() {}
  MaybePortInfo(const PortInfo& i) : v_(i) {}
  MaybePortInfo(const std::optional<PortInfo>& i) : MaybePortInfo() {
    if (i) v_ = *i;
  }
  MaybePortInfo& operator=(const PortInfo& i) {
    v_ = i;
    return *this;
  }
  MaybePortInfo& operator=(std::nullopt_t) {
    reset();
    return *this;
  }
  MaybePortInfo& operator=(const std::optional<PortInfo>& i) { return *this = MaybePortInfo(i); }

  bool has_value() const { return v_.state != kNoState; }
  explicit operator bool() const { return has_value(); }
  // As optional's: only on a value (none reads as a PortInfo of kNoState).
  const PortInfo& operator*() const { return v_; }
  PortInfo& operator*() { return v_; }
  const PortInfo* operator->() const { return &v_; }
  PortInfo* operator->() { return &v_; }
  const PortInfo& value() const {
    if (!has_value()) throw std::bad_optional_access();
    return v_;
  }
  PortInfo value_or(const PortInfo& other) const { return has_value() ? v_ : other; }
  template <typename... A>
  PortInfo& emplace(A&&... a) {
    v_ = PortInfo{std::forward<A>(a)...};
    return v_;
  }
  void reset() { *this = MaybePortInfo(); }
  operator std::optional<PortInfo>() const {
    return has_value() ? std::optional<PortInfo>(v_) : std::nullopt;
  }

 private:
  PortInfo v_;
};

// A PortRef or none in 6 bytes aligned to 2, so the port number after it
// shares their 8-byte word (a PortRef is 8 bytes, its optional 12).
class MaybePeer {
 public:
  MaybePeer() = default;
  MaybePeer(std::nullopt_t) {}
  MaybePeer(PortRef r)
      : lo_(static_cast<uint16_t>(r.node)),
        hi_(static_cast<uint16_t>(r.node >> 16)),
        port_(r.port),
        set_(true) {}
  MaybePeer(const std::optional<PortRef>& r) : MaybePeer(r ? MaybePeer(*r) : MaybePeer()) {}
  MaybePeer& operator=(PortRef r) { return *this = MaybePeer(r); }

  bool has_value() const { return set_; }
  explicit operator bool() const { return set_; }
  PortRef operator*() const { return {uint32_t{lo_} | uint32_t{hi_} << 16, port_}; }
  // p.peer->node reads as it did with optional: the arrow returns a
  // holder whose own arrow points at the PortRef it holds.
  struct Arrow {
    PortRef r;
    const PortRef* operator->() const { return &r; }
  };
  Arrow operator->() const { return {**this}; }
  PortRef value() const {
    if (!set_) throw std::bad_optional_access();
    return **this;
  }
  void reset() { *this = MaybePeer(); }
  operator std::optional<PortRef>() const {
    return set_ ? std::optional<PortRef>(**this) : std::nullopt;
  }
  friend bool operator==(const MaybePeer& a, const MaybePeer& b) {
    return a.set_ == b.set_ && (!a.set_ || *a == *b);
  }

 private:
  uint16_t lo_ = 0, hi_ = 0;
  uint8_t port_ = 0;
  bool set_ = false;
};

}  // namespace rdma::ib
