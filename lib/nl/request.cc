#include "lib/nl/request.h"

#include <string>

#include "lib/error.h"
#include "lib/nl/nldev.h"

namespace rdma::nl {

namespace {
// Requests carry a handful of small attributes; names are at most 64 bytes.
constexpr size_t kRequestSize = 1024;
}  // namespace

Request::Request(int cmd, Kind kind) : cmd_(cmd), buf_(kRequestSize) {
  hdr_ = mnl_nlmsg_put_header(buf_.data());
  hdr_->nlmsg_type = nldev::msg_type(cmd);
  hdr_->nlmsg_flags = NLM_F_REQUEST | (kind == kDump ? NLM_F_DUMP : NLM_F_ACK);
}

static void check_room(const nlmsghdr* h, size_t payload) {
  if (h->nlmsg_len + MNL_ATTR_HDRLEN + MNL_ALIGN(payload) + 8 > kRequestSize)
    throw Error("request too large");
}

Request& Request::u8(uint16_t type, uint8_t v) {
  check_room(hdr_, 1);
  mnl_attr_put_u8(hdr_, type, v);
  return *this;
}

Request& Request::u32(uint16_t type, uint32_t v) {
  check_room(hdr_, 4);
  mnl_attr_put_u32(hdr_, type, v);
  return *this;
}

Request& Request::u64(uint16_t type, uint64_t v) {
  check_room(hdr_, 8);
  // No PAD attribute before it (as iproute2's mnl_attr_put_u64): the kernel
  // parses requests strictly, and a PAD (type 0) there is "Unknown attribute
  // type" (EINVAL). Unaligned u64 payloads are fine for nla_get_u64.
  mnl_attr_put_u64(hdr_, type, v);
  return *this;
}

Request& Request::str(uint16_t type, std::string_view v) {
  check_room(hdr_, v.size() + 1);
  std::string s(v);
  mnl_attr_put_strz(hdr_, type, s.c_str());
  return *this;
}

nlattr* Request::begin_nest(uint16_t type) {
  check_room(hdr_, 0);
  return mnl_attr_nest_start(hdr_, type);
}

Request& Request::end_nest(nlattr* nest) {
  mnl_attr_nest_end(hdr_, nest);
  return *this;
}

std::span<const uint8_t> Request::bytes() const {
  return {buf_.data(), hdr_->nlmsg_len};
}

}  // namespace rdma::nl
