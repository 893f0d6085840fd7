// The MAD transport over libibumad: one umad port, an agent per class.
// Under ibsim the umad2sim preload intercepts libibumad's calls.
#pragma once

#include <map>
#include <string>

#include "lib/mad/transport.h"

namespace rdma::mad {

class UmadTransport : public Transport {
 public:
  // Opens ca/port and registers agents for SMPs (LID and directed route),
  // SA and PerfMgt. Throws Error.
  UmadTransport(const std::string& ca, int port);
  ~UmadTransport() override;
  UmadTransport(const UmadTransport&) = delete;
  UmadTransport& operator=(const UmadTransport&) = delete;

  void send(const Mad& mad, const Address& to, int timeout_ms) override;
  std::optional<Received> receive(int timeout_ms) override;

 private:
  int port_id_ = -1;
  std::string name_;
  std::map<uint8_t, int> agents_;  // management class -> agent id
};

}  // namespace rdma::mad
