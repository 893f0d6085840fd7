// Request/reply over a Transport: sequence numbers, multi-part dumps streamed
// message by message, kernel errors with their extended-ack text. Every wait
// for the kernel has a deadline, and every reply message is checked before it
// is believed: its length, sequence number, port id and type.
#pragma once

#include <libmnl/libmnl.h>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <vector>

#include "lib/nl/request.h"
#include "lib/nl/transport.h"

namespace rdma::nl {

using MessageFn = std::function<void(const nlmsghdr*)>;

// The default deadline of a wait for the kernel. The kernel answers in
// microseconds; a loaded machine may take a while to schedule it.
inline constexpr int kDefaultTimeoutMs = 5000;

class Session {
 public:
  explicit Session(Transport& t);

  // Sends req and calls on_msg for each nldev reply message, as it arrives:
  // every part of a dump, or the one reply of a doit. Doit requests are sent
  // with NLM_F_ACK so that commands without reply data are confirmed too.
  // Throws Error on a kernel error (errno text plus its ext-ack message) or a
  // malformed reply.
  void run(Request& req, const MessageFn& on_msg);

  // How long to wait for each datagram of a reply (--kernel-timeout MS).
  void set_timeout_ms(int ms) { timeout_ms_ = ms; }
  int timeout_ms() const { return timeout_ms_; }

  // Writes every message sent and received as "> hex" / "< hex" lines, the
  // format of tests/data/golden (RDMA_NETLINK_TRACE).
  void set_trace(std::FILE* f) { trace_ = f; }

  // Receives the next datagram's messages without a request (monitor): it
  // waits for as long as it takes, events come when they come.
  void receive_notifications(const MessageFn& on_msg);

  Transport& transport() { return t_; }

  // Batch files: while on, the replies of a dump run with run_kept are kept
  // and replayed for the same request, until this session sends a request
  // that may change something (any command but the reads) or it is turned
  // off. Off (one command) run_kept is run.
  void keep_dumps(bool on);
  void run_kept(Request& req, const MessageFn& on_msg);
  // Drops what is kept; returns whether anything was.
  bool forget_kept();
  // What a caller made of the kept replies of req (the decoded device list),
  // kept beside them and dropped with them: nullptr until set_kept_memo, and
  // always while keeping is off or req is not kept.
  const void* kept_memo(Request& req);
  void set_kept_memo(Request& req, std::shared_ptr<const void> memo);

 private:
  enum class Outcome { Done, Interrupted };
  Outcome run_once(Request& req, const MessageFn& on_msg, bool& delivered);
  size_t recv_datagram(const Request* req, int timeout_ms);
  void check_header(const Request& req, const nlmsghdr* nlh) const;
  struct Kept;
  Kept* find_kept(Request& req);

  Transport& t_;
  uint32_t first_seq_;  // requests of this session have seq first_seq_+1 .. seq_
  uint32_t seq_;
  int timeout_ms_ = kDefaultTimeoutMs;
  size_t recv_size_;  // how much a receive asks for (session.cc says why)
  std::vector<uint8_t> buf_;
  std::FILE* trace_ = nullptr;
  struct Kept {
    std::vector<uint8_t> request;               // its bytes, sequence number 0
    std::vector<std::vector<uint8_t>> replies;  // each message delivered
    std::shared_ptr<const void> memo;           // set_kept_memo's
  };
  bool keep_ = false;
  std::vector<Kept> kept_;
};

// Whether an nldev command only reads: the GETs, whose answers a batch may
// keep. Any other command may change the devices.
bool only_reads(int cmd);

// Whether a message of this type answers a request for nldev command cmd:
// the kernel answers with the request's command, except for a port doit
// (RDMA_NLDEV_CMD_GET), a counter delete (STAT_SET) and raw resource requests
// (the resource's ordinary command).
bool reply_type_matches(int cmd, uint16_t type);

// "Operation not supported" plus, when the kernel sent one, its ext-ack
// message: the text users see for a kernel error.
std::string kernel_error_text(int err, const nlmsghdr* error_msg);

}  // namespace rdma::nl
