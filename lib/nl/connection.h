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
  explicit Connection(Factory open, std::FILE* trace = nullptr)
      : open_(std::move(open)), trace_(trace) {}

  // Opens the transport on first use; throws Error if that fails.
  Session& session() {
    if (!session_) {
      transport_ = open_();
      session_ = std::make_unique<Session>(*transport_);
      session_->set_trace(trace_);
    }
    return *session_;
  }

 private:
  Factory open_;
  std::FILE* trace_;
  std::unique_ptr<Transport> transport_;
  std::unique_ptr<Session> session_;
};

}  // namespace rdma::nl
