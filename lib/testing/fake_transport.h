// A transport for unit tests: records what is sent and answers from a script
// (a reply per sent MAD, or silence), with the request's TID copied in the
// way a real responder does.
#pragma once

#include <algorithm>
#include <deque>
#include <functional>
#include <optional>
#include <vector>

#include "lib/mad/transport.h"

namespace rdma::mad {

class FakeTransport : public Transport {
 public:
  // Given each sent MAD, returns the reply bytes to deliver (nullopt: none).
  using Responder = std::function<std::optional<std::vector<uint8_t>>(const Mad&, const Address&)>;
  explicit FakeTransport(Responder r) : responder_(std::move(r)) {}

  void send(const Mad& mad, const Address& to, int) override {
    sent.push_back(mad);
    sent_to.push_back(to);
    if (auto reply = responder_(mad, to)) queue_.push_back(*reply);
  }
  std::optional<Received> receive(int) override {
    if (queue_.empty()) return std::nullopt;
    Received r;
    r.bytes = std::move(queue_.front());
    queue_.pop_front();
    return r;
  }

  std::vector<Mad> sent;
  std::vector<Address> sent_to;

 private:
  Responder responder_;
  std::deque<std::vector<uint8_t>> queue_;
};

// The reply a responder would build: the request as a GetResp carrying the
// given attribute bytes.
inline std::vector<uint8_t> reply_to(const Mad& request, std::span<const uint8_t> attr,
                                     uint16_t status = 0) {
  Mad r = request;
  r.set(hdr::kResponse, 1);
  r.set(hdr::kMethod, kGet);
  if (r.mgmt_class() == kClassSmiDr) {
    r.set(hdr::kDirection, 1);
    r.set(hdr::kDrStatus, status);
  } else {
    r.set(hdr::kStatus, status);
  }
  // A directed route SMP's data is 64 bytes; the paths after it stay as sent.
  std::span<uint8_t> d = r.data();
  if (r.mgmt_class() == kClassSmiDr) d = d.first(64);
  std::fill(d.begin(), d.end(), 0);
  std::copy_n(attr.begin(), std::min(attr.size(), d.size()), d.begin());
  return {r.bytes.begin(), r.bytes.end()};
}

}  // namespace rdma::mad
