#include "lib/nl/request.h"

#include <string>

#include "lib/error.h"
#include "lib/nl/nldev.h"

namespace rdma::nl {

Request::Request(int cmd, Kind kind) : cmd_(cmd) {
  hdr_ = mnl_nlmsg_put_header(buf_);
  hdr_->nlmsg_type = nldev::msg_type(cmd);
  hdr_->nlmsg_flags = NLM_F_REQUEST | (kind == kDump ? NLM_F_DUMP : NLM_F_ACK);
}

void Request::check_room(size_t payload) const {
  if (hdr_->nlmsg_len + MNL_ATTR_HDRLEN + MNL_ALIGN(payload) + 8 > kSize)
    throw Error("request too large");
}

Request& Request::u8(uint16_t type, uint8_t v) {
  check_room(1);
  mnl_attr_put_u8(hdr_, type, v);
  return *this;
}

Request& Request::u32(uint16_t type, uint32_t v) {
  check_room(4);
  mnl_attr_put_u32(hdr_, type, v);
  return *this;
}

Request& Request::u64(uint16_t type, uint64_t v) {
  check_room(8);
  // No PAD attribute before it (as iproute2's mnl_attr_put_u64): the kernel
  // parses requests strictly, and a PAD (type 0) there is "Unknown attribute
  // type" (EINVAL). Unaligned u64 payloads are fine for nla_get_u64.
  mnl_attr_put_u64(hdr_, type, v);
  return *this;
}

Request& Request::str(uint16_t type, std::string_view v) {
  check_room(v.size() + 1);
  std::string s(v);
  mnl_attr_put_strz(hdr_, type, s.c_str());
  return *this;
}

nlattr* Request::begin_nest(uint16_t type) {
  check_room(0);
  return mnl_attr_nest_start(hdr_, type);
}

Request& Request::end_nest(nlattr* nest) {
  mnl_attr_nest_end(hdr_, nest);
  return *this;
}

std::span<const uint8_t> Request::bytes() const {
  return {buf_, hdr_->nlmsg_len};
}

}  // namespace rdma::nl
