#include "lib/nl/attrs.h"

#include <cstring>
#include <string>

#include "lib/error.h"

namespace rdma::nl {

void malformed(const std::string& what) {
  throw Error("malformed kernel reply: " + what);
}

namespace {

size_t expected_size(AttrType t) {
  switch (t) {
    case AttrType::U8:
      return 1;
    case AttrType::U32:
      return 4;
    case AttrType::U64:
      return 8;
    default:
      return 0;  // variable
  }
}

// Walks a run of attributes, checking that each lies inside the buffer.
template <typename Fn>
void walk(const uint8_t* p, size_t len, Fn fn) {
  size_t off = 0;
  while (off < len) {
    if (len - off < sizeof(nlattr)) truncated_attribute(nullptr);
    auto* a = reinterpret_cast<const nlattr*>(p + off);
    if (a->nla_len < sizeof(nlattr) || a->nla_len > len - off) truncated_attribute(a);
    fn(a);
    off += MNL_ALIGN(a->nla_len);
  }
}

// Inline in parse, which runs for every attribute of every message.
[[gnu::always_inline]] inline bool check(const nlattr* a) {
  int type = Attrs::type_of(a);
  AttrType t = attr_type(type);
  if (t == AttrType::Unknown) return false;  // newer kernel: ignore
  size_t want = expected_size(t);
  size_t got = Attrs::payload_len(a);
  if (want && got != want) {
    malformed(std::string(attr_name(type)) + " has " + std::to_string(got) + " bytes, expected " +
              std::to_string(want));
  }
  return true;
}

}  // namespace

bool Attrs::known(const nlattr* a) {
  return check(a);
}

void Attrs::parse(const uint8_t* p, size_t len) {
  walk(p, len, [this](const nlattr* a) {
    if (!check(a)) return;
    int type = type_of(a);
    tb_[type] = a;
    seen_[type / 64] |= uint64_t{1} << (type % 64);
  });
}

Attrs Attrs::of_message(const nlmsghdr* nlh) {
  Attrs at;
  size_t hdr = MNL_ALIGN(sizeof(nlmsghdr));
  if (nlh->nlmsg_len < hdr) malformed("truncated message");
  at.parse(reinterpret_cast<const uint8_t*>(nlh) + hdr, nlh->nlmsg_len - hdr);
  return at;
}

Attrs Attrs::of_nest(const nlattr* nest) {
  Attrs at;
  at.parse(payload(nest), payload_len(nest));
  return at;
}

void truncated_attribute(const nlattr* a) {
  if (!a) malformed("truncated attribute header");
  int type = Attrs::type_of(a);
  malformed(attr_type(type) == AttrType::Unknown
                ? "attribute of unknown type " + std::to_string(type) + " is truncated"
                : std::string("attribute ") + attr_name(type) + " is truncated");
}

std::string_view Attrs::str(int type) const {
  if (!has(type)) return {};
  auto* p = reinterpret_cast<const char*>(payload(get(type)));
  return {p, strnlen(p, payload_len(get(type)))};
}

std::span<const uint8_t> Attrs::bin(int type) const {
  if (!has(type)) return {};
  return {payload(get(type)), payload_len(get(type))};
}

}  // namespace rdma::nl
