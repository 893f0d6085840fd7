// The seam between the tool and the kernel. Everything that talks to RDMA
// netlink takes a Transport: the real one is a NETLINK_RDMA socket, tests
// pass a test kernel that answers with the same bytes the kernel would.
#pragma once

#include <cstddef>
#include <cstdint>

namespace rdma::nl {

class Transport {
 public:
  virtual ~Transport() = default;
  // Sends one complete netlink message (nlmsghdr included). Throws Error.
  virtual void send(const uint8_t* data, size_t len) = 0;
  // Receives one datagram (one or more netlink messages) into buf and returns
  // its length. Returns 0 when none came within timeout_ms (-1: no limit), or
  // none ever will (a test kernel with nothing queued): the caller treats that
  // as a reply that never came. A transport may instead return a length
  // larger than cap and receive nothing: the datagram needs that much room,
  // and the caller calls again with it. Throws Error on a socket error.
  virtual size_t recv(uint8_t* buf, size_t cap, int timeout_ms) = 0;
  // Netlink port id of this end (nlmsg_pid of replies).
  virtual uint32_t port_id() const = 0;
  // Joins a multicast group (RDMA_NL_GROUP_NOTIFY for monitor). Throws Error.
  virtual void join_group(unsigned group) = 0;
};

}  // namespace rdma::nl
