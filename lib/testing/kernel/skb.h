// A reply buffer with the kernel's sk_buff rules: a fixed capacity, puts that
// fail (return false) when the attribute does not fit, and cancel back to a
// mark, so that dumps split exactly where the kernel splits them.
#pragma once

#include <linux/netlink.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rdma::testkernel {

class Skb {
 public:
  // pad64: pad 64-bit attributes like architectures without efficient
  // unaligned access do (x86_64 does not pad).
  explicit Skb(size_t cap, bool pad64 = false) : buf_(cap), pad64_(pad64) {}

  size_t len() const { return len_; }
  size_t tailroom() const { return buf_.size() - len_; }

  // nlmsg_put(): starts a message with `payload` zeroed bytes after the header.
  bool put_msg(uint32_t pid, uint32_t seq, uint16_t type, uint16_t flags, size_t payload = 0);
  // The message being built (valid after put_msg until the next one).
  nlmsghdr* msg() { return reinterpret_cast<nlmsghdr*>(buf_.data() + msg_); }
  uint8_t* payload() { return buf_.data() + msg_ + NLMSG_HDRLEN; }
  // nlmsg_cancel(): drops the current message.
  void cancel_msg() { truncate(msg_); }

  bool put(uint16_t type, const void* data, size_t len);
  bool put_u8(uint16_t type, uint8_t v) { return put(type, &v, sizeof(v)); }
  bool put_u32(uint16_t type, uint32_t v) { return put(type, &v, sizeof(v)); }
  bool put_s32(uint16_t type, int32_t v) { return put(type, &v, sizeof(v)); }
  bool put_string(uint16_t type, const std::string& s) {
    return put(type, s.c_str(), s.size() + 1);
  }
  // nla_put_u64_64bit() / nla_put_s64(): `pad` is the padding attribute type.
  bool put_u64(uint16_t type, uint64_t v, uint16_t pad);

  // nla_nest_start() (flag = NLA_F_NESTED) / nla_nest_start_noflag().
  // Returns the nest's offset, or kNoRoom.
  static constexpr size_t kNoRoom = SIZE_MAX;
  size_t nest_start(uint16_t type, bool flag);
  void nest_end(size_t nest);
  // Marks and cancels (nla_nest_cancel, partial entries).
  size_t mark() const { return len_; }
  void truncate(size_t mark);

  std::vector<uint8_t> take();

 private:
  void sync_msg_len();

  std::vector<uint8_t> buf_;
  size_t len_ = 0;
  size_t msg_ = 0;
  bool pad64_;
};

}  // namespace rdma::testkernel
