#include "lib/testing/kernel/skb.h"

#include <libmnl/libmnl.h>

#include <cstring>

namespace rdma::testkernel {

bool Skb::put_msg(uint32_t pid, uint32_t seq, uint16_t type, uint16_t flags, size_t payload) {
  size_t size = NLMSG_ALIGN(NLMSG_HDRLEN + payload);
  if (tailroom() < size) return false;
  msg_ = len_;
  nlmsghdr* nlh = mnl_nlmsg_put_header(buf_.data() + msg_);
  nlh->nlmsg_type = type;
  nlh->nlmsg_flags = flags;
  nlh->nlmsg_seq = seq;
  nlh->nlmsg_pid = pid;
  if (payload) mnl_nlmsg_put_extra_header(nlh, payload);
  // The kernel's nlmsg_len excludes the alignment of the payload.
  len_ += size;
  nlh->nlmsg_len = static_cast<uint32_t>(NLMSG_HDRLEN + payload);
  return true;
}

void Skb::sync_msg_len() {
  msg()->nlmsg_len = static_cast<uint32_t>(len_ - msg_);
}

bool Skb::put(uint16_t type, const void* data, size_t len) {
  if (tailroom() < NLA_ALIGN(NLA_HDRLEN + len)) return false;
  sync_msg_len();
  mnl_attr_put(msg(), type, len, data);
  len_ = msg_ + msg()->nlmsg_len;
  return true;
}

bool Skb::put_u64(uint16_t type, uint64_t v, uint16_t pad) {
  // Without efficient unaligned access the kernel inserts an empty pad
  // attribute when the value would not be 8-byte aligned.
  bool need_pad = pad64_ && (len_ % 8) == 0;
  if (tailroom() < NLA_ALIGN(NLA_HDRLEN + 8) + (need_pad ? NLA_HDRLEN : 0)) return false;
  if (need_pad) put(pad, nullptr, 0);
  return put(type, &v, sizeof(v));
}

size_t Skb::nest_start(uint16_t type, bool flag) {
  size_t at = len_;
  if (!put(type, nullptr, 0)) return kNoRoom;
  if (flag) reinterpret_cast<nlattr*>(buf_.data() + at)->nla_type |= NLA_F_NESTED;
  return at;
}

void Skb::nest_end(size_t nest) {
  reinterpret_cast<nlattr*>(buf_.data() + nest)->nla_len = static_cast<uint16_t>(len_ - nest);
}

void Skb::truncate(size_t mark) {
  std::memset(buf_.data() + mark, 0, len_ - mark);
  len_ = mark;
  if (msg_ < len_) sync_msg_len();
}

std::vector<uint8_t> Skb::take() {
  buf_.resize(len_);
  return std::move(buf_);
}

}  // namespace rdma::testkernel
