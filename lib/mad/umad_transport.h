// The MAD transport over libibumad: one umad port, an agent per class.
// Under ibsim the umad2sim preload intercepts libibumad's calls.
#pragma once

#include <chrono>
#include <deque>
#include <map>
#include <string>

#include "lib/mad/serving.h"
#include "lib/mad/transport.h"

namespace rdma::mad {

class UmadTransport : public Transport, public Serving {
 public:
  // Opens ca/port and registers agents for SMPs (LID and directed route),
  // SA and PerfMgt. Throws Error.
  UmadTransport(const std::string& ca, int port);
  ~UmadTransport() override;
  UmadTransport(const UmadTransport&) = delete;
  UmadTransport& operator=(const UmadTransport&) = delete;

  void send(const Mad& mad, const Address& to, int timeout_ms) override;
  std::optional<Received> receive(int timeout_ms) override;
  void serve(uint8_t mgmt_class, uint32_t oui) override;
  std::optional<Request> receive_request(int timeout_ms) override;

  // How long closing waits at most for replies still due (why: the .cc).
  static constexpr int kDrainMs = 100;

 private:
  void drain();
  // receive(), and the P_Key index the MAD came in on to pkey_index when
  // not null.
  std::optional<Received> receive_on(int timeout_ms, uint16_t* pkey_index);
  // Registers the agent of a class not registered at the start; methods:
  // the requests it is handed (bit m for method m), 0 for none.
  int register_class(uint8_t mgmt_class, uint8_t version, uint32_t oui, long methods);

  int port_id_ = -1;
  std::string name_;
  std::map<uint8_t, int> agents_;  // management class -> agent id
  // When each MAD sent and not yet answered stops being waited for, in the
  // order sent (a reply answers the oldest: close enough for drain()).
  std::deque<std::chrono::steady_clock::time_point> due_;
};

}  // namespace rdma::mad
