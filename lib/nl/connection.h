// A lazily opened session: help and usage errors work on a kernel without
// RDMA netlink, and one socket serves a whole batch.
#pragma once

#include <cstdio>
#include <functional>
#include <memory>

#include "lib/nl/session.h"
#include "lib/nl/transport.h"

namespace rdma::nl {

class Connection {
 public:
  using Factory = std::function<std::unique_ptr<Transport>()>;
  explicit Connection(Factory open, std::FILE* trace = nullptr, int timeout_ms = kDefaultTimeoutMs)
      : open_(std::move(open)), trace_(trace), timeout_ms_(timeout_ms) {}

  // Opens the transport on first use; throws Error if that fails.
  Session& session() {
    if (!session_) {
      transport_ = open_();
      session_ = std::make_unique<Session>(*transport_);
      session_->set_trace(trace_);
      session_->set_timeout_ms(timeout_ms_);
      session_->keep_dumps(keep_dumps_);
    }
    return *session_;
  }

  // Batch files: the session keeps the answers of its kept dumps (the device
  // list) from one command to the next (Session::keep_dumps).
  void keep_dumps(bool on) {
    keep_dumps_ = on;
    if (session_) session_->keep_dumps(on);
  }

 private:
  Factory open_;
  std::FILE* trace_;
  int timeout_ms_;
  bool keep_dumps_ = false;
  std::unique_ptr<Transport> transport_;
  std::unique_ptr<Session> session_;
};

}  // namespace rdma::nl
