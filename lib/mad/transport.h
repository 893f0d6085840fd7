// The seam between the MAD core and the wire: umad (umad_transport.cc) in the
// tool, recorded replies in the unit tests.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

#include "lib/mad/mad.h"

namespace rdma::mad {

struct Received {
  std::vector<uint8_t> bytes;  // the MAD as received (may be short)
  int status = 0;              // non-zero: the send of this MAD failed (e.g. ETIMEDOUT)
  uint16_t slid = 0;
};

class Transport {
 public:
  virtual ~Transport() = default;
  // Sends one MAD; timeout_ms is how long the sender waits for its reply
  // (umad reports a send that got none as a Received with a status).
  virtual void send(const Mad& mad, const Address& to, int timeout_ms) = 0;
  // The next MAD within timeout_ms (0: only what is already there).
  virtual std::optional<Received> receive(int timeout_ms) = 0;
  // The clock the engine's deadlines run on: real time, or a test double's
  // virtual time (lib/testing/fabric/latency.h), so a simulated second of
  // waiting costs no real one.
  virtual std::chrono::steady_clock::time_point now() const {
    return std::chrono::steady_clock::now();
  }
};

}  // namespace rdma::mad
