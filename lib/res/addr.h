// Socket addresses of CM IDs (RES_SRC_ADDR / RES_DST_ADDR, a struct
// sockaddr_storage) as text.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace rdma::res {

struct SockAddr {
  std::string addr;  // "192.0.2.1", "2001:db8::1", an AF_IB GID
  uint16_t port = 0;
  // "192.0.2.1:7174"; IPv6 and GIDs in brackets: "[2001:db8::1]:7174".
  std::string text() const;
};

// nullopt for a family other than AF_INET, AF_INET6 and AF_IB. Throws
// Error when the attribute is too short for its family.
std::optional<SockAddr> decode_sockaddr(std::span<const uint8_t> b);

}  // namespace rdma::res
