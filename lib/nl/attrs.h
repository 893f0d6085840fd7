// Attributes of one nldev message or nest, indexed by type and checked
// against the kernel's policy: a truncated attribute or one of the wrong size
// is an Error naming it; attributes newer than the tool are ignored.
#pragma once

#include <libmnl/libmnl.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <span>
#include <string_view>

#include "lib/nl/attr_policy.h"

namespace rdma::nl {

class Attrs {
 public:
  static Attrs of_message(const nlmsghdr* nlh);
  static Attrs of_nest(const nlattr* nest);

  bool has(int type) const { return get(type) != nullptr; }
  const nlattr* get(int type) const {
    return type >= 0 && type < kAttrTableSize ? tb_[type] : nullptr;
  }
  // Callers check has() first; a missing attribute reads as 0 / "".
  uint8_t u8(int type) const { return has(type) ? *payload(get(type)) : 0; }
  uint32_t u32(int type) const { return has(type) ? load<uint32_t>(get(type)) : 0; }
  uint64_t u64(int type) const { return has(type) ? load<uint64_t>(get(type)) : 0; }
  std::string_view str(int type) const;
  std::span<const uint8_t> bin(int type) const;

  // libmnl's accessors, typed as the parsers want them.
  static const uint8_t* payload(const nlattr* a) {
    return static_cast<const uint8_t*>(mnl_attr_get_payload(a));
  }
  static size_t payload_len(const nlattr* a) { return mnl_attr_get_payload_len(a); }
  static int type_of(const nlattr* a) { return mnl_attr_get_type(a); }
  template <typename T>
  static T load(const nlattr* a) {
    T v;  // payloads are only 4-byte aligned
    std::memcpy(&v, payload(a), sizeof v);
    return v;
  }

 private:
  void parse(const uint8_t* p, size_t len);
  std::array<const nlattr*, kAttrTableSize> tb_{};
};

// Calls fn for every attribute inside a nest (e.g. each RES_QP_ENTRY of
// RES_QP), rejecting truncated ones.
void for_each_nested(const nlattr* nest, const std::function<void(const nlattr*)>& fn);

}  // namespace rdma::nl
