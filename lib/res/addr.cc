#include "lib/res/addr.h"

#include <arpa/inet.h>
#include <sys/socket.h>

#include <cstring>

#include "lib/error.h"

namespace rdma::res {

namespace {

constexpr int kAfIb = 27;  // AF_IB: struct sockaddr_ib

uint16_t be16(const uint8_t* p) {
  return static_cast<uint16_t>(p[0] << 8 | p[1]);
}

std::string ntop(int af, const uint8_t* p) {
  char buf[INET6_ADDRSTRLEN];
  inet_ntop(af, p, buf, sizeof buf);
  return buf;
}

void need(std::span<const uint8_t> b, size_t n, const char* family) {
  if (b.size() < n)
    throw Error(std::string("malformed kernel reply: CM ID address of ") +
                std::to_string(b.size()) + " bytes is too short for " + family);
}

}  // namespace

std::string SockAddr::text() const {
  bool v6 = addr.find(':') != std::string::npos;
  return (v6 ? "[" + addr + "]" : addr) + ":" + std::to_string(port);
}

std::optional<SockAddr> decode_sockaddr(std::span<const uint8_t> b) {
  need(b, 2, "its family");
  uint16_t family;
  std::memcpy(&family, b.data(), 2);  // host order, like sa_family_t
  SockAddr a;
  switch (family) {
    case AF_INET:  // family, port, 4-byte address
      need(b, 8, "AF_INET");
      a.port = be16(&b[2]);
      a.addr = ntop(AF_INET, &b[4]);
      return a;
    case AF_INET6:  // family, port, flowinfo, 16-byte address
      need(b, 24, "AF_INET6");
      a.port = be16(&b[2]);
      a.addr = ntop(AF_INET6, &b[8]);
      return a;
    case kAfIb:  // family, pkey, flowinfo, 16-byte GID, 8-byte service id
      need(b, 32, "AF_IB");
      a.addr = ntop(AF_INET6, &b[8]);
      a.port = be16(&b[30]);  // the port is the service id's low 16 bits
      return a;
    default:
      return std::nullopt;
  }
}

}  // namespace rdma::res
