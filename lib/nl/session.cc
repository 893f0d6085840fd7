#include "lib/nl/session.h"

#include <linux/netlink.h>

#include <algorithm>
#include <cstring>
#include <ctime>
#include <string>

#include "lib/error.h"
#include "lib/nl/nldev.h"
#include "lib/view/number.h"

namespace rdma::nl {

namespace {

// Receive sizes. The kernel builds each dump part as large as the largest
// receive the socket has seen (netlink_recvmsg's max_recvmsg_len, capped at
// SKB_WITH_OVERHEAD(32 KiB), never lowered), else NLMSG_GOODSIZE (a page
// less the skb overhead, at most 8 KiB). Small, as iproute2 receives
// (libmnl's MNL_SOCKET_BUFFER_SIZE), every dump part costs the kernel one
// page: a batch line's small dumps stay cheap (a 32 KiB part is allocated,
// and with init_on_alloc zeroed, for every part of every dump). Large, a
// dump of 10,000 QPs comes in ~25 parts instead of ~200, and the restrack
// dump walks its list from the saved index again for every part (issue 40:
// 0.73 s against 0.19 s in recvmsg). nldev doit replies and notifications
// are NLMSG_DEFAULT_SIZE skbs and acks carry no more than our small
// request, so the small size fits every datagram until the large one was
// asked once. (The small size is MNL_SOCKET_BUFFER_SIZE, the session's
// first.)
constexpr size_t kLargeRecv = 1 << 15;
// Room for the largest datagram; a larger one grows it (Transport::recv
// says how large).
constexpr size_t kRecvSize = 1 << 16;
// NLM_F_DUMP_INTR before any message was delivered: restart the dump.
constexpr int kDumpRetries = 3;

void trace_bytes(std::FILE* f, char dir, const uint8_t* p, size_t n) {
  if (!f) return;
  std::fputc(dir, f);
  std::fputc(' ', f);
  for (size_t i = 0; i < n; ++i) std::fprintf(f, "%02x", p[i]);
  std::fputc('\n', f);
}

// The ext-ack message attribute of an NLMSG_ERROR or NLMSG_DONE, if any.
std::string ext_ack_message(const nlmsghdr* nlh) {
  if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS)) return {};
  size_t off = MNL_ALIGN(sizeof(nlmsghdr));
  if (nlh->nlmsg_type == NLMSG_ERROR) {
    auto* e = static_cast<const nlmsgerr*>(mnl_nlmsg_get_payload(nlh));
    off += sizeof(nlmsgerr);
    // Without CAP_ACK the whole request is echoed back before the TLVs.
    if (!(nlh->nlmsg_flags & NLM_F_CAPPED)) off += e->msg.nlmsg_len - sizeof(nlmsghdr);
  } else {
    off += sizeof(int);
  }
  off = MNL_ALIGN(off);
  auto* p = reinterpret_cast<const uint8_t*>(nlh);
  while (off + sizeof(nlattr) <= nlh->nlmsg_len) {
    auto* a = reinterpret_cast<const nlattr*>(p + off);
    if (a->nla_len < sizeof(nlattr) || off + a->nla_len > nlh->nlmsg_len) break;
    if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG) {
      auto* s = static_cast<const char*>(mnl_attr_get_payload(a));
      return {s, strnlen(s, mnl_attr_get_payload_len(a))};
    }
    off += MNL_ALIGN(a->nla_len);
  }
  return {};
}

// The netlink messages of one datagram, walked in place (no vector a
// datagram). The whole datagram is checked before any message is given out:
// a message that does not fit is an Error ("malformed kernel <what>").
class Messages {
 public:
  class It {
   public:
    It(const uint8_t* p, size_t left) : p_(p), left_(left) {}
    const nlmsghdr* operator*() const { return reinterpret_cast<const nlmsghdr*>(p_); }
    It& operator++() {
      size_t step = std::min<size_t>(MNL_ALIGN((**this)->nlmsg_len), left_);
      p_ += step;
      left_ -= step;
      return *this;
    }
    bool operator!=(const It& o) const { return left_ != o.left_; }

   private:
    const uint8_t* p_;
    size_t left_;
  };
  Messages(const uint8_t* p, size_t len, const char* what) : p_(p), len_(len) {
    for (It it(p, len); it != end(); ++it) {
      size_t left = len - static_cast<size_t>(reinterpret_cast<const uint8_t*>(*it) - p);
      if (left < sizeof(nlmsghdr) || (*it)->nlmsg_len < sizeof(nlmsghdr) || (*it)->nlmsg_len > left)
        throw Error(std::string("malformed kernel ") + what + ": truncated netlink message");
    }
  }
  It begin() const { return {p_, len_}; }
  It end() const { return {p_ + len_, 0}; }

 private:
  const uint8_t* p_;
  size_t len_;
};

// The error of an NLMSG_ERROR or NLMSG_DONE (a negative errno). A value no
// kernel sends (fuzz_nl_replies: INT_MIN, whose negation overflows) is a
// damaged reply.
[[noreturn]] void throw_kernel_error(int err, const nlmsghdr* nlh) {
  if (err >= 0 || err < -4095)
    throw Error("malformed kernel reply: error code " + std::to_string(err));
  throw KernelError(-err, kernel_error_text(-err, nlh));
}

}  // namespace

bool reply_type_matches(int cmd, uint16_t type) {
  if (type == nldev::msg_type(cmd)) return true;
  int other = -1;
  switch (cmd) {
    case RDMA_NLDEV_CMD_PORT_GET:
      other = RDMA_NLDEV_CMD_GET;
      break;
    case RDMA_NLDEV_CMD_STAT_DEL:
      other = RDMA_NLDEV_CMD_STAT_SET;
      break;
    case RDMA_NLDEV_CMD_RES_QP_GET_RAW:
      other = RDMA_NLDEV_CMD_RES_QP_GET;
      break;
    case RDMA_NLDEV_CMD_RES_CQ_GET_RAW:
      other = RDMA_NLDEV_CMD_RES_CQ_GET;
      break;
    case RDMA_NLDEV_CMD_RES_MR_GET_RAW:
      other = RDMA_NLDEV_CMD_RES_MR_GET;
      break;
    case nldev::kCmdResSrqGetRaw:
      other = RDMA_NLDEV_CMD_RES_SRQ_GET;
      break;
  }
  return other >= 0 && type == nldev::msg_type(other);
}

std::string kernel_error_text(int err, const nlmsghdr* msg) {
  std::string text = std::strerror(err);
  std::string ack = msg ? ext_ack_message(msg) : "";
  if (!ack.empty()) text += " (" + ack + ")";
  return text;
}

bool only_reads(int cmd) {
  switch (cmd) {
    case RDMA_NLDEV_CMD_GET:
    case RDMA_NLDEV_CMD_PORT_GET:
    case RDMA_NLDEV_CMD_SYS_GET:
    case RDMA_NLDEV_CMD_RES_GET:
    case RDMA_NLDEV_CMD_RES_QP_GET:
    case RDMA_NLDEV_CMD_RES_CM_ID_GET:
    case RDMA_NLDEV_CMD_RES_CQ_GET:
    case RDMA_NLDEV_CMD_RES_MR_GET:
    case RDMA_NLDEV_CMD_RES_PD_GET:
    case RDMA_NLDEV_CMD_GET_CHARDEV:
    case RDMA_NLDEV_CMD_STAT_GET:
    case RDMA_NLDEV_CMD_RES_QP_GET_RAW:
    case RDMA_NLDEV_CMD_RES_CQ_GET_RAW:
    case RDMA_NLDEV_CMD_RES_MR_GET_RAW:
    case RDMA_NLDEV_CMD_RES_CTX_GET:
    case RDMA_NLDEV_CMD_RES_SRQ_GET:
    case RDMA_NLDEV_CMD_STAT_GET_STATUS:
    case nldev::kCmdResSrqGetRaw:
    case nldev::kCmdFrmrPoolsGet:
      return true;
  }
  return false;
}

Session::Session(Transport& t)
    : t_(t),
      first_seq_(static_cast<uint32_t>(std::time(nullptr))),
      seq_(first_seq_),
      recv_size_(MNL_SOCKET_BUFFER_SIZE),
      buf_(kRecvSize) {}

size_t Session::recv_datagram(const Request* req, int timeout_ms) {
  size_t n = t_.recv(buf_.data(), recv_size_, timeout_ms);
  if (n > recv_size_) {  // a datagram larger than any so far
    if (n > buf_.size()) buf_.resize(n);
    recv_size_ = n;
    n = t_.recv(buf_.data(), recv_size_, timeout_ms);
    if (n > recv_size_) throw Error("kernel reply larger than the receive buffer");
  }
  if (n == 0) {
    if (!req) throw Error("the kernel's notifications ended");
    throw Error("no reply from the kernel within " + std::to_string(timeout_ms) +
                " ms (a reply message was lost or damaged; --kernel-timeout MS waits longer)");
  }
  trace_bytes(trace_, '<', buf_.data(), n);
  return n;
}

void Session::check_header(const Request& req, const nlmsghdr* nlh) const {
  if (nlh->nlmsg_pid != t_.port_id())
    throw Error("malformed kernel reply: message for port id " + std::to_string(nlh->nlmsg_pid) +
                ", ours is " + std::to_string(t_.port_id()));
  // Earlier requests of this session may have left replies behind (one that
  // failed mid-dump); anything else is not an answer to us.
  uint32_t age = seq_ - nlh->nlmsg_seq;
  if (nlh->nlmsg_seq != req.seq() && (age == 0 || age > seq_ - first_seq_))
    throw Error("malformed kernel reply: sequence number " + std::to_string(nlh->nlmsg_seq) +
                ", expected " + std::to_string(req.seq()));
  if (nlh->nlmsg_seq != req.seq() || nlh->nlmsg_type < NLMSG_MIN_TYPE) return;
  if (!reply_type_matches(req.cmd(), nlh->nlmsg_type))
    throw Error("malformed kernel reply: message type " + view::hex_text(nlh->nlmsg_type, 4) +
                " does not answer a request of type " +
                view::hex_text(nldev::msg_type(req.cmd()), 4));
}

void Session::run(Request& req, const MessageFn& on_msg) {
  bool delivered = false;
  for (int attempt = 0;; ++attempt) {
    if (run_once(req, on_msg, delivered) == Outcome::Done) return;
    // Records already printed cannot be taken back, so restarting is only
    // safe while nothing was delivered.
    if (delivered || attempt == kDumpRetries)
      throw Error("the kernel's dump was interrupted by concurrent changes; run the command again");
  }
}

void Session::keep_dumps(bool on) {
  keep_ = on;
  kept_.clear();
}

bool Session::forget_kept() {
  bool had = !kept_.empty();
  kept_.clear();
  return had;
}

Session::Kept* Session::find_kept(Request& req) {
  if (!keep_ || !req.is_dump()) return nullptr;
  req.set_seq(0);
  auto bytes = req.bytes();
  for (Kept& k : kept_)
    if (std::equal(bytes.begin(), bytes.end(), k.request.begin(), k.request.end())) return &k;
  return nullptr;
}

const void* Session::kept_memo(Request& req) {
  Kept* k = find_kept(req);
  return k ? k->memo.get() : nullptr;
}

void Session::set_kept_memo(Request& req, std::shared_ptr<const void> memo) {
  if (Kept* k = find_kept(req)) k->memo = std::move(memo);
}

void Session::run_kept(Request& req, const MessageFn& on_msg) {
  if (!keep_ || !req.is_dump()) return run(req, on_msg);
  if (const Kept* k = find_kept(req)) {
    for (const auto& m : k->replies) on_msg(reinterpret_cast<const nlmsghdr*>(m.data()));
    return;
  }
  auto bytes = req.bytes();
  Kept k{{bytes.begin(), bytes.end()}, {}, nullptr};
  // Only a dump that ended well is kept; messages go to on_msg as they come.
  run(req, [&](const nlmsghdr* nlh) {
    auto* p = reinterpret_cast<const uint8_t*>(nlh);
    k.replies.emplace_back(p, p + nlh->nlmsg_len);
    on_msg(nlh);
  });
  kept_.push_back(std::move(k));
}

Session::Outcome Session::run_once(Request& req, const MessageFn& on_msg, bool& delivered) {
  const bool dump = req.is_dump();
  // A request that may write makes every kept answer stale.
  if (!only_reads(req.cmd())) kept_.clear();
  req.set_seq(++seq_);
  auto out = req.bytes();
  trace_bytes(trace_, '>', out.data(), out.size());
  t_.send(out.data(), out.size());

  bool interrupted = false;
  bool got_reply = false;
  int full_parts = 0;  // datagrams of this reply more than half the receive size
  for (;;) {
    // Three dump parts more than half full (and not the end) say the dump
    // is large: the next receive asks for the large size, and the kernel
    // builds the part after it (it builds each part when the one before is
    // read) and every later part at that size. Small dumps never get there
    // (nldev sends a device a part: a part is rarely half a page), so a
    // batch line's dumps stay small; after a large dump a receive is never
    // small again, as the kernel keeps the size.
    if (dump && full_parts == 3 && recv_size_ < kLargeRecv) recv_size_ = kLargeRecv;
    const size_t n = recv_datagram(&req, timeout_ms_);
    if (2 * n > recv_size_) ++full_parts;
    for (const nlmsghdr* nlh : Messages(buf_.data(), n, "reply")) {
      check_header(req, nlh);
      // A leftover of an earlier request (e.g. one that failed mid-dump).
      if (nlh->nlmsg_seq != req.seq()) continue;

      if (nlh->nlmsg_type == NLMSG_ERROR) {
        if (nlh->nlmsg_len < MNL_ALIGN(sizeof(nlmsghdr)) + sizeof(nlmsgerr))
          throw Error("malformed kernel reply: truncated error message");
        auto* e = static_cast<const nlmsgerr*>(mnl_nlmsg_get_payload(nlh));
        if (e->error != 0) throw_kernel_error(e->error, nlh);
        return interrupted ? Outcome::Interrupted : Outcome::Done;  // the ack
      }
      if (nlh->nlmsg_type == NLMSG_DONE) {
        if (nlh->nlmsg_len >= MNL_ALIGN(sizeof(nlmsghdr)) + sizeof(int)) {
          int err;
          std::memcpy(&err, mnl_nlmsg_get_payload(nlh), sizeof err);
          if (err < 0) throw_kernel_error(err, nlh);
        }
        return interrupted ? Outcome::Interrupted : Outcome::Done;
      }
      if (nlh->nlmsg_type == NLMSG_NOOP) continue;
      if (nlh->nlmsg_type < NLMSG_MIN_TYPE)
        throw Error("malformed kernel reply: message type " + view::hex_text(nlh->nlmsg_type, 4));
      if (nlh->nlmsg_flags & NLM_F_DUMP_INTR) interrupted = true;
      if (interrupted) continue;  // drain to the end, then restart
      if (!dump && got_reply) throw Error("malformed kernel reply: more than one reply message");
      got_reply = true;
      delivered = true;
      on_msg(nlh);
    }
  }
}

void Session::receive_notifications(const MessageFn& on_msg) {
  for (const nlmsghdr* nlh : Messages(buf_.data(), recv_datagram(nullptr, -1), "notification"))
    if (nlh->nlmsg_type >= NLMSG_MIN_TYPE) on_msg(nlh);
}

}  // namespace rdma::nl
