// Request/reply over a Transport: sequence numbers, multi-part dumps streamed
// message by message, kernel errors with their extended-ack text.
#pragma once

#include <libmnl/libmnl.h>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <vector>

#include "lib/nl/request.h"
#include "lib/nl/transport.h"

namespace rdma::nl {

using MessageFn = std::function<void(const nlmsghdr*)>;

class Session {
 public:
  explicit Session(Transport& t);

  // Sends req and calls on_msg for each nldev reply message, as it arrives:
  // every part of a dump, or the one reply of a doit. Doit requests are sent
  // with NLM_F_ACK so that commands without reply data are confirmed too.
  // Throws Error on a kernel error (errno text plus its ext-ack message) or a
  // malformed reply.
  void run(Request& req, const MessageFn& on_msg);

  // Writes every message sent and received as "> hex" / "< hex" lines, the
  // format of tests/data/golden (RDMA_NETLINK_TRACE).
  void set_trace(std::FILE* f) { trace_ = f; }

  // Receives the next datagram's messages without a request (monitor).
  void receive_notifications(const MessageFn& on_msg);

  Transport& transport() { return t_; }

 private:
  enum class Outcome { Done, Interrupted };
  Outcome run_once(Request& req, const MessageFn& on_msg, bool& delivered);
  size_t recv_datagram();

  Transport& t_;
  uint32_t seq_;
  std::vector<uint8_t> buf_;
  std::FILE* trace_ = nullptr;
};

// "Operation not supported" plus, when the kernel sent one, its ext-ack
// message: the text users see for a kernel error.
std::string kernel_error_text(int err, const nlmsghdr* error_msg);

}  // namespace rdma::nl
