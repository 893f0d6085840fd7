#include "lib/nl/attrs.h"

#include <cstring>
#include <string>

#include "lib/error.h"

namespace rdma::nl {

namespace {

[[noreturn]] void malformed(const std::string& what) {
  throw Error("malformed kernel reply: " + what);
}

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
    if (len - off < sizeof(nlattr)) malformed("truncated attribute header");
    auto* a = reinterpret_cast<const nlattr*>(p + off);
    if (a->nla_len < sizeof(nlattr) || a->nla_len > len - off) {
      malformed(std::string("attribute ") + attr_name(mnl_attr_get_type(a)) + " is truncated");
    }
    fn(a);
    off += MNL_ALIGN(a->nla_len);
  }
}

}  // namespace

void Attrs::parse(const uint8_t* p, size_t len) {
  walk(p, len, [this](const nlattr* a) {
    int type = mnl_attr_get_type(a);
    AttrType t = attr_type(type);
    if (t == AttrType::Unknown) return;  // newer kernel: ignore
    size_t want = expected_size(t);
    size_t got = mnl_attr_get_payload_len(a);
    if (want && got != want) {
      malformed(std::string(attr_name(type)) + " has " + std::to_string(got) + " bytes, expected " +
                std::to_string(want));
    }
    tb_[type] = a;
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
  at.parse(static_cast<const uint8_t*>(mnl_attr_get_payload(nest)), mnl_attr_get_payload_len(nest));
  return at;
}

void for_each_nested(const nlattr* nest, const std::function<void(const nlattr*)>& fn) {
  walk(static_cast<const uint8_t*>(mnl_attr_get_payload(nest)), mnl_attr_get_payload_len(nest), fn);
}

uint8_t Attrs::u8(int type) const {
  return has(type) ? mnl_attr_get_u8(get(type)) : 0;
}
uint32_t Attrs::u32(int type) const {
  return has(type) ? mnl_attr_get_u32(get(type)) : 0;
}

uint64_t Attrs::u64(int type) const {
  if (!has(type)) return 0;
  uint64_t v;  // payload is only 4-byte aligned
  std::memcpy(&v, mnl_attr_get_payload(get(type)), sizeof v);
  return v;
}

std::string_view Attrs::str(int type) const {
  if (!has(type)) return {};
  auto* p = static_cast<const char*>(mnl_attr_get_payload(get(type)));
  return {p, strnlen(p, mnl_attr_get_payload_len(get(type)))};
}

std::span<const uint8_t> Attrs::bin(int type) const {
  if (!has(type)) return {};
  return {static_cast<const uint8_t*>(mnl_attr_get_payload(get(type))),
          mnl_attr_get_payload_len(get(type))};
}

}  // namespace rdma::nl
