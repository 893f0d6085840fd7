// The real transport: a NETLINK_RDMA socket (libmnl), opened once per
// process with CAP_ACK and EXT_ACK.
#pragma once

#include <memory>
#include <string>

#include "lib/nl/transport.h"

struct mnl_socket;

namespace rdma::nl {

class Socket : public Transport {
 public:
  // Throws Error; a kernel without RDMA netlink gets a message saying so.
  Socket();
  ~Socket() override;

  void send(const uint8_t* data, size_t len) override;
  size_t recv(uint8_t* buf, size_t cap, int timeout_ms) override;
  uint32_t port_id() const override;
  void join_group(unsigned group) override;

 private:
  mnl_socket* sock_;
};

// Enters network namespace NAME (/run/netns/NAME, as `ip netns` makes it)
// for the rest of the process, like `ip -n NAME`. Throws Error.
void enter_netns(const std::string& name);

}  // namespace rdma::nl
