// An nldev request message under construction.
#pragma once

#include <libmnl/libmnl.h>

#include <cstdint>
#include <span>
#include <string_view>

namespace rdma::nl {

class Request {
 public:
  enum Kind { kDoit, kDump };
  // A doit asks for an ack (NLM_F_ACK) so commands without reply data are
  // confirmed too; a dump is NLM_F_DUMP.
  Request(int cmd, Kind kind);
  Request(const Request&) = delete;
  Request& operator=(const Request&) = delete;

  Request& u8(uint16_t type, uint8_t v);
  Request& u32(uint16_t type, uint32_t v);
  Request& u64(uint16_t type, uint64_t v);  // no PAD: strict parsing refuses it
  Request& str(uint16_t type, std::string_view v);
  // A nest: begin_nest(type), its attributes, then end_nest(what it returned).
  nlattr* begin_nest(uint16_t type);
  Request& end_nest(nlattr* nest);

  int cmd() const { return cmd_; }
  bool is_dump() const { return hdr_->nlmsg_flags & NLM_F_DUMP; }
  void set_seq(uint32_t seq) { hdr_->nlmsg_seq = seq; }
  uint32_t seq() const { return hdr_->nlmsg_seq; }
  std::span<const uint8_t> bytes() const;

 private:
  void check_room(size_t payload) const;  // throws Error("request too large")

  // Requests carry a handful of small attributes; names are at most 64
  // bytes. In place and not zeroed (libmnl writes every byte up to
  // nlmsg_len, padding included): a heap buffer zeroed for every request
  // was a twentieth of a batch line.
  static constexpr size_t kSize = 1024;
  int cmd_;
  alignas(nlmsghdr) uint8_t buf_[kSize];
  nlmsghdr* hdr_;
};

}  // namespace rdma::nl
