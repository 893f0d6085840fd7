// Attributes of one nldev message or nest, indexed by type and checked
// against the kernel's policy: a truncated attribute or one of the wrong size
// is an Error naming it; attributes newer than the tool are ignored.
#pragma once

#include <libmnl/libmnl.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "lib/nl/attr_policy.h"

namespace rdma::nl {

// The Error "malformed kernel reply: WHAT", for a reply the decoders cannot
// read.
[[noreturn]] void malformed(const std::string& what);

// The presence check of the decoders: unless each of attrs is there (not
// null), malformed(what). what is a text, or a function making one: it is
// made only then, since the check runs for every dumped object.
template <typename What>
void need(std::initializer_list<const nlattr*> attrs, const What& what) {
  for (const nlattr* a : attrs) {
    if (a) continue;
    if constexpr (std::is_invocable_v<What>)
      malformed(what());
    else
      malformed(what);
  }
}

class Attrs {
 public:
  static Attrs of_message(const nlmsghdr* nlh);
  static Attrs of_nest(const nlattr* nest);

  bool has(int type) const { return get(type) != nullptr; }
  // nl::need() of these types: the Error unless each is there.
  template <typename What>
  void need(std::initializer_list<int> types, const What& what) const {
    for (int t : types) nl::need({get(t)}, what);
  }
  const nlattr* get(int type) const {
    return type >= 0 && type < kAttrTableSize && (seen_[type / 64] >> (type % 64) & 1) ? tb_[type]
                                                                                       : nullptr;
  }
  // Callers check has() first; a missing attribute reads as 0 / "".
  uint8_t u8(int type) const { return has(type) ? *payload(get(type)) : 0; }
  uint32_t u32(int type) const { return has(type) ? load<uint32_t>(get(type)) : 0; }
  uint64_t u64(int type) const { return has(type) ? load<uint64_t>(get(type)) : 0; }
  std::string_view str(int type) const;
  std::span<const uint8_t> bin(int type) const;

  // libmnl's accessors (mnl_attr_get_payload, _payload_len, _type), typed
  // as the parsers want them and inline: as calls into libmnl they were a
  // twentieth of a batch line.
  static const uint8_t* payload(const nlattr* a) {
    return reinterpret_cast<const uint8_t*>(a) + MNL_ATTR_HDRLEN;
  }
  static size_t payload_len(const nlattr* a) { return a->nla_len - MNL_ATTR_HDRLEN; }
  static int type_of(const nlattr* a) { return a->nla_type & NLA_TYPE_MASK; }
  // What parsing checks of one attribute, for walkers that read a nest in
  // place: false for a type newer than the tool (ignored), the Error for a
  // known one of the wrong size.
  static bool known(const nlattr* a);
  template <typename T>
  static T load(const nlattr* a) {
    T v;  // payloads are only 4-byte aligned
    std::memcpy(&v, payload(a), sizeof v);
    return v;
  }

 private:
  void parse(const uint8_t* p, size_t len);
  // tb_[type] is only meaningful once seen_ has type's bit: zeroing the whole
  // table for every nested entry of a dump cost more than parsing it.
  static constexpr int kSeenWords = (kAttrTableSize + 63) / 64;
  std::array<uint64_t, kSeenWords> seen_{};
  std::array<const nlattr*, kAttrTableSize> tb_;
};

// Throws the Error for an attribute that runs past its nest.
[[noreturn]] void truncated_attribute(const nlattr* a);

// Calls fn for every attribute inside a nest (e.g. each RES_QP_ENTRY of
// RES_QP), rejecting truncated ones. A template, not a std::function: it runs
// once per dumped object, and the indirection was a sixth of a batch line.
template <typename Fn>
void for_each_nested(const nlattr* nest, Fn&& fn) {
  const uint8_t* p = Attrs::payload(nest);
  size_t len = Attrs::payload_len(nest);
  size_t off = 0;
  while (off < len) {
    auto* a = reinterpret_cast<const nlattr*>(p + off);
    if (len - off < sizeof(nlattr) || a->nla_len < sizeof(nlattr) || a->nla_len > len - off) {
      truncated_attribute(len - off < sizeof(nlattr) ? nullptr : a);
    }
    fn(a);
    off += MNL_ALIGN(a->nla_len);
  }
}

}  // namespace rdma::nl
