// lib/nl/mnl.h against the kernel's layout rules, byte for byte. (The golden
// replay tests also compare whole requests with what iproute2, on libmnl,
// sent.)
#include "lib/nl/mnl.h"

#include <gtest/gtest.h>

#include <vector>

namespace {

std::vector<uint8_t> bytes(const nlmsghdr* nlh) {
  auto* p = reinterpret_cast<const uint8_t*>(nlh);
  return {p, p + nlh->nlmsg_len};
}

TEST(Mnl, AttributesArePaddedAndLengthsExcludePadding) {
  alignas(4) uint8_t buf[256];
  std::memset(buf, 0xee, sizeof buf);  // padding must be zeroed, not left
  nlmsghdr* nlh = mnl_nlmsg_put_header(buf);
  nlh->nlmsg_type = 0x1402;
  auto* extra = static_cast<uint8_t*>(mnl_nlmsg_put_extra_header(nlh, 3));
  extra[0] = 7;
  mnl_attr_put_u8(nlh, 1, 0xab);
  mnl_attr_put_u32(nlh, 2, 0x01020304);
  mnl_attr_put_strz(nlh, 3, "rxe0");
  nlattr* nest = mnl_attr_nest_start(nlh, 4);
  mnl_attr_put_u64(nlh, 5, 0x1122334455667788ull);
  mnl_attr_put_u16(nlh, 6, 0xbeef);
  mnl_attr_nest_end(nlh, nest);
  std::vector<uint8_t> want = {// header: len 72, type 0x1402, flags, seq, pid all zero
                               72, 0, 0, 0, 0x02, 0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                               // extra header, 3 bytes padded to 4
                               7, 0, 0, 0,
                               // u8: len 5, type 1, payload, 3 bytes of padding
                               5, 0, 1, 0, 0xab, 0, 0, 0,
                               // u32
                               8, 0, 2, 0, 0x04, 0x03, 0x02, 0x01,
                               // "rxe0\0": len 9, padded to 12
                               9, 0, 3, 0, 'r', 'x', 'e', '0', 0, 0, 0, 0,
                               // nest: len 4 + 12 + 8 = 24, type 4 | NLA_F_NESTED
                               24, 0, 4, 0x80, 12, 0, 5, 0, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33,
                               0x22, 0x11, 6, 0, 6, 0, 0xef, 0xbe, 0, 0};
  EXPECT_EQ(bytes(nlh), want);
  EXPECT_EQ(mnl_nlmsg_get_payload_len(nlh), 56u);
}

TEST(Mnl, ReadsBackWhatWasPut) {
  alignas(4) uint8_t buf[128];
  nlmsghdr* nlh = mnl_nlmsg_put_header(buf);
  mnl_attr_put_u64(nlh, 9, 42);
  mnl_attr_put_strz(nlh, 10, "mlx5_0");
  auto* a = static_cast<nlattr*>(mnl_nlmsg_get_payload(nlh));
  int left = static_cast<int>(mnl_nlmsg_get_payload_len(nlh));
  ASSERT_TRUE(mnl_attr_ok(a, left));
  EXPECT_EQ(mnl_attr_get_type(a), 9);
  EXPECT_EQ(mnl_attr_get_payload_len(a), 8);
  EXPECT_EQ(mnl_attr_get_u64(a), 42u);
  left -= MNL_ALIGN(a->nla_len);
  a = mnl_attr_next(a);
  ASSERT_TRUE(mnl_attr_ok(a, left));
  EXPECT_STREQ(mnl_attr_get_str(a), "mlx5_0");
  left -= MNL_ALIGN(a->nla_len);
  EXPECT_EQ(left, 0);
  EXPECT_FALSE(mnl_attr_ok(mnl_attr_next(a), left));
  EXPECT_EQ(mnl_nlmsg_get_payload_tail(nlh), mnl_attr_next(a));
}

TEST(Mnl, TruncatedMessagesAndAttributesAreNotOk) {
  alignas(4) uint8_t buf[64] = {};
  nlmsghdr* nlh = mnl_nlmsg_put_header(buf);
  mnl_attr_put_u32(nlh, 1, 1);
  int len = static_cast<int>(nlh->nlmsg_len);
  EXPECT_TRUE(mnl_nlmsg_ok(nlh, len));
  EXPECT_FALSE(mnl_nlmsg_ok(nlh, len - 1));  // says 24, 23 arrived
  EXPECT_FALSE(mnl_nlmsg_ok(nlh, 15));       // not even a header
  nlh->nlmsg_len = 8;                        // shorter than its own header
  EXPECT_FALSE(mnl_nlmsg_ok(nlh, len));
  auto* a = reinterpret_cast<nlattr*>(buf + 16);
  EXPECT_FALSE(mnl_attr_ok(a, 7));  // says 8
  a->nla_len = 3;                   // shorter than its own header
  EXPECT_FALSE(mnl_attr_ok(a, 8));
}

TEST(Mnl, NextMessageSkipsPadding) {
  alignas(4) uint8_t buf[64] = {};
  nlmsghdr* first = mnl_nlmsg_put_header(buf);
  mnl_attr_put_u8(first, 1, 1);  // 16 + 5 = 21, padded to 24
  first->nlmsg_len = 21;
  int len = 48;
  nlmsghdr* second = mnl_nlmsg_next(first, &len);
  EXPECT_EQ(reinterpret_cast<uint8_t*>(second), buf + 24);
  EXPECT_EQ(len, 24);
}

TEST(Mnl, SocketOpensOnlyWhereTheKernelHasTheFamily) {
  // NETLINK_ROUTE exists on every Linux: open, bind, a port ID, close.
  mnl_socket* nl = mnl_socket_open(NETLINK_ROUTE);
  ASSERT_NE(nl, nullptr);
  ASSERT_EQ(mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID), 0);
  EXPECT_NE(mnl_socket_get_portid(nl), 0u);
  EXPECT_GE(mnl_socket_get_fd(nl), 0);
  EXPECT_EQ(mnl_socket_close(nl), 0);
}

}  // namespace
