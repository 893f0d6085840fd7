// Test helpers: build nldev requests and take replies apart (libmnl).
#pragma once

#include <libmnl/libmnl.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "lib/nl/nldev.h"
#include "lib/testing/kernel/testkernel.h"

namespace rdma::testkernel::testing {

using Bytes = std::vector<uint8_t>;

inline Bytes request(int cmd, uint16_t flags, uint32_t seq,
                     const std::function<void(nlmsghdr*)>& add = {}) {
  Bytes buf(8192);
  nlmsghdr* nlh = mnl_nlmsg_put_header(buf.data());
  nlh->nlmsg_type = nldev::msg_type(cmd);
  nlh->nlmsg_flags = NLM_F_REQUEST | flags;
  nlh->nlmsg_seq = seq;
  if (add) add(nlh);
  buf.resize(nlh->nlmsg_len);
  return buf;
}

// Sends `req` and receives every datagram that follows.
inline std::vector<Bytes> roundtrip(TestKernel& k, const Bytes& req, size_t cap = 8192) {
  k.send(req.data(), req.size());
  std::vector<Bytes> out;
  Bytes buf(cap);
  while (size_t n = k.recv(buf.data(), buf.size())) out.emplace_back(buf.begin(), buf.begin() + n);
  return out;
}

inline std::vector<const nlmsghdr*> messages(const Bytes& d) {
  std::vector<const nlmsghdr*> out;
  const auto* nlh = reinterpret_cast<const nlmsghdr*>(d.data());
  int len = static_cast<int>(d.size());
  while (mnl_nlmsg_ok(nlh, len)) {
    out.push_back(nlh);
    nlh = mnl_nlmsg_next(nlh, &len);
  }
  return out;
}

struct Attr {
  uint16_t type;  // without flags
  bool nested_flag;
  const nlattr* nla;
  size_t len() const { return mnl_attr_get_payload_len(nla); }
  uint8_t u8() const { return mnl_attr_get_u8(nla); }
  uint32_t u32() const { return mnl_attr_get_u32(nla); }
  uint64_t u64() const { return mnl_attr_get_u64(nla); }
  std::string str() const { return mnl_attr_get_str(nla); }
};

inline std::vector<Attr> walk(const void* data, size_t len) {
  std::vector<Attr> out;
  const auto* a = static_cast<const nlattr*>(data);
  int rem = static_cast<int>(len);
  while (mnl_attr_ok(a, rem)) {
    out.push_back(
        {static_cast<uint16_t>(a->nla_type & NLA_TYPE_MASK), (a->nla_type & NLA_F_NESTED) != 0, a});
    rem -= NLA_ALIGN(a->nla_len);
    a = mnl_attr_next(a);
  }
  return out;
}

inline std::vector<Attr> attrs(const nlmsghdr* nlh, size_t offset = 0) {
  const auto* p = static_cast<const uint8_t*>(mnl_nlmsg_get_payload(nlh)) + offset;
  return walk(p, mnl_nlmsg_get_payload_len(nlh) - offset);
}

inline std::vector<Attr> nested(const Attr& a) {
  return walk(mnl_attr_get_payload(a.nla), a.len());
}

// (type, payload length) of each attribute, to compare layouts.
inline std::vector<std::pair<uint16_t, size_t>> layout(const std::vector<Attr>& as) {
  std::vector<std::pair<uint16_t, size_t>> out;
  for (const Attr& a : as) out.emplace_back(a.type, a.len());
  return out;
}

inline int error_of(const nlmsghdr* nlh) {
  return static_cast<const nlmsgerr*>(mnl_nlmsg_get_payload(nlh))->error;
}

}  // namespace rdma::testkernel::testing
