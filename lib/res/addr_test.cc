#include "lib/res/addr.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <sys/socket.h>

#include <cstring>
#include <vector>

#include "lib/error.h"

namespace rdma::res {
namespace {

std::vector<uint8_t> storage(uint16_t family, uint16_t port_be_offset, uint16_t port,
                             size_t addr_off, const char* addr, int af) {
  std::vector<uint8_t> s(128);
  std::memcpy(s.data(), &family, 2);
  s[port_be_offset] = port >> 8;
  s[port_be_offset + 1] = port & 0xff;
  inet_pton(af, addr, &s[addr_off]);
  return s;
}

TEST(ResAddr, Ipv4) {
  auto a = decode_sockaddr(storage(AF_INET, 2, 7174, 4, "192.0.2.1", AF_INET));
  ASSERT_TRUE(a);
  EXPECT_EQ(a->addr, "192.0.2.1");
  EXPECT_EQ(a->port, 7174);
  EXPECT_EQ(a->text(), "192.0.2.1:7174");
}

TEST(ResAddr, Ipv6InBrackets) {
  auto a = decode_sockaddr(storage(AF_INET6, 2, 4791, 8, "2001:db8::1", AF_INET6));
  ASSERT_TRUE(a);
  EXPECT_EQ(a->addr, "2001:db8::1");
  EXPECT_EQ(a->text(), "[2001:db8::1]:4791");
  auto any = decode_sockaddr(storage(AF_INET6, 2, 0, 8, "::", AF_INET6));
  EXPECT_EQ(any->text(), "[::]:0");
}

TEST(ResAddr, InfiniBandGidAndServiceId) {
  std::vector<uint8_t> s = storage(27, 30, 0x1234, 8, "fe80::2", AF_INET6);  // AF_IB
  auto a = decode_sockaddr(s);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->text(), "[fe80::2]:4660");
}

TEST(ResAddr, OtherFamiliesAndShortPayloads) {
  EXPECT_FALSE(decode_sockaddr(storage(AF_UNIX, 2, 0, 4, "0.0.0.0", AF_INET)));
  std::vector<uint8_t> s = storage(AF_INET6, 2, 1, 8, "::1", AF_INET6);
  s.resize(20);
  EXPECT_THROW(decode_sockaddr(s), Error);
  EXPECT_THROW(decode_sockaddr(std::vector<uint8_t>{2}), Error);
}

}  // namespace
}  // namespace rdma::res
