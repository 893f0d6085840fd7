// drv_* attributes from real netlink bytes: each value type, the hex
// print type, the widest values, tuples of a newer type or a wrong size,
// and iproute2's -p layout.
#include "lib/res/driver.h"

#include <gtest/gtest.h>
#include <rdma/rdma_netlink.h>

#include <cstdint>
#include <string>
#include <vector>

#include "lib/error.h"

namespace rdma::res {
namespace {

// A DRIVER table of the tuples fill puts.
template <typename Fill>
std::vector<uint8_t> driver_msg(Fill fill) {
  std::vector<uint8_t> buf(4096);
  nlmsghdr* h = mnl_nlmsg_put_header(buf.data());
  nlattr* t = mnl_attr_nest_start(h, RDMA_NLDEV_ATTR_DRIVER);
  fill(h);
  mnl_attr_nest_end(h, t);
  return buf;
}

const nlattr* driver_table(const std::vector<uint8_t>& b) {
  return static_cast<const nlattr*>(
      mnl_nlmsg_get_payload(reinterpret_cast<const nlmsghdr*>(b.data())));
}

std::string driver_text(const std::vector<uint8_t>& b, bool pretty = false) {
  view::Record r;
  append_driver(driver_table(b), pretty, r);
  std::string s;
  for (const view::Field& f : r) s += f.text;
  return s;
}

std::string driver_json(const std::vector<uint8_t>& b) {
  view::Record r;
  append_driver(driver_table(b), false, r);
  view::Json j = view::Json::object();
  for (const view::Field& f : r) j[f.key] = f.value;
  return j.dump();
}

void key(nlmsghdr* h, const char* name) {
  mnl_attr_put_strz(h, RDMA_NLDEV_ATTR_DRIVER_STRING, name);
}

TEST(ResDriver, EachValueTypeAtItsLimits) {
  auto b = driver_msg([](nlmsghdr* h) {
    key(h, "state");
    mnl_attr_put_strz(h, RDMA_NLDEV_ATTR_DRIVER_STRING, "up");
    key(h, "s32");
    mnl_attr_put_u32(h, RDMA_NLDEV_ATTR_DRIVER_S32, static_cast<uint32_t>(INT32_MIN));
    key(h, "u32");
    mnl_attr_put_u32(h, RDMA_NLDEV_ATTR_DRIVER_U32, UINT32_MAX);
    key(h, "s64");
    mnl_attr_put_u64(h, RDMA_NLDEV_ATTR_DRIVER_S64, static_cast<uint64_t>(-1));
    key(h, "u64");
    mnl_attr_put_u64(h, RDMA_NLDEV_ATTR_DRIVER_U64, UINT64_MAX);
  });
  EXPECT_EQ(driver_text(b),
            "drv_state up drv_s32 -2147483648 drv_u32 4294967295 drv_s64 -1 "
            "drv_u64 18446744073709551615 ");
  EXPECT_EQ(driver_json(b),
            "{\"drv_state\":\"up\",\"drv_s32\":-2147483648,\"drv_u32\":4294967295,"
            "\"drv_s64\":-1,\"drv_u64\":18446744073709551615}");
}

// The hex print type applies to the next value only; JSON keeps numbers.
TEST(ResDriver, HexPrintTypeIsForOneValue) {
  auto b = driver_msg([](nlmsghdr* h) {
    key(h, "sqn");
    mnl_attr_put_u8(h, RDMA_NLDEV_ATTR_DRIVER_PRINT_TYPE, RDMA_NLDEV_PRINT_TYPE_HEX);
    mnl_attr_put_u32(h, RDMA_NLDEV_ATTR_DRIVER_U32, 0x2eb);
    key(h, "neg");
    mnl_attr_put_u8(h, RDMA_NLDEV_ATTR_DRIVER_PRINT_TYPE, RDMA_NLDEV_PRINT_TYPE_HEX);
    mnl_attr_put_u32(h, RDMA_NLDEV_ATTR_DRIVER_S32, static_cast<uint32_t>(-1));
    key(h, "big");
    mnl_attr_put_u8(h, RDMA_NLDEV_ATTR_DRIVER_PRINT_TYPE, RDMA_NLDEV_PRINT_TYPE_HEX);
    mnl_attr_put_u64(h, RDMA_NLDEV_ATTR_DRIVER_U64, 0xffffffff00000001ull);
    key(h, "dec");
    mnl_attr_put_u32(h, RDMA_NLDEV_ATTR_DRIVER_U32, 16);
  });
  EXPECT_EQ(driver_text(b),
            "drv_sqn 0x2eb drv_neg 0xffffffff drv_big 0xffffffff00000001 drv_dec 16 ");
  EXPECT_EQ(driver_json(b),
            "{\"drv_sqn\":747,\"drv_neg\":-1,\"drv_big\":18446744069414584321,\"drv_dec\":16}");
}

// A value before any key is skipped; a value of a type newer than the tool
// drops its tuple and the next tuple reads as usual.
TEST(ResDriver, StrayValuesAndNewerTypesAreDropped) {
  auto b = driver_msg([](nlmsghdr* h) {
    mnl_attr_put_u32(h, RDMA_NLDEV_ATTR_DRIVER_U32, 5);  // no key
    key(h, "future");
    mnl_attr_put_u8(h, RDMA_NLDEV_ATTR_DRIVER_PRINT_TYPE, RDMA_NLDEV_PRINT_TYPE_HEX);
    mnl_attr_put_u32(h, 200, 1);  // a value type from a newer kernel
    key(h, "after");
    mnl_attr_put_u32(h, RDMA_NLDEV_ATTR_DRIVER_U32, 10);  // decimal: hex was reset
  });
  EXPECT_EQ(driver_text(b), "drv_after 10 ");
}

// A value of the wrong width is a malformed reply naming the attribute.
TEST(ResDriver, WrongSizeIsAnError) {
  auto b = driver_msg([](nlmsghdr* h) {
    key(h, "x");
    mnl_attr_put_u16(h, RDMA_NLDEV_ATTR_DRIVER_U32, 5);
  });
  try {
    driver_text(b);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "malformed kernel reply: driver attribute RDMA_NLDEV_ATTR_DRIVER_U32 has 2 bytes");
  }
  auto p = driver_msg([](nlmsghdr* h) {
    key(h, "x");
    mnl_attr_put_u32(h, RDMA_NLDEV_ATTR_DRIVER_PRINT_TYPE, 1);
  });
  EXPECT_THROW(driver_text(p), Error);
  auto w = driver_msg([](nlmsghdr* h) {
    key(h, "x");
    mnl_attr_put_u32(h, RDMA_NLDEV_ATTR_DRIVER_S64, 1);
  });
  EXPECT_THROW(driver_text(w), Error);
}

// A string value without its terminating NUL reads to the attribute's end.
TEST(ResDriver, UnterminatedStringStopsAtTheAttribute) {
  auto b = driver_msg([](nlmsghdr* h) {
    mnl_attr_put(h, RDMA_NLDEV_ATTR_DRIVER_STRING, 3, "key");
    mnl_attr_put(h, RDMA_NLDEV_ATTR_DRIVER_STRING, 2, "on");
  });
  EXPECT_EQ(driver_text(b), "drv_key on ");
}

// -p: the first tuple on an indented line, a new line once one passes 80
// characters; an empty table still indents.
TEST(ResDriver, PrettyTextIndentsAndWraps) {
  auto b = driver_msg([](nlmsghdr* h) {
    for (int i = 0; i < 8; ++i) {
      key(h, ("counter_" + std::to_string(i)).c_str());
      mnl_attr_put_u64(h, RDMA_NLDEV_ATTR_DRIVER_U64, 1000000);
    }
  });
  std::string t = driver_text(b, true);
  EXPECT_EQ(t,
            "\n    drv_counter_0 1000000 drv_counter_1 1000000 drv_counter_2 1000000 "
            "drv_counter_3 1000000 "
            "\n    drv_counter_4 1000000 drv_counter_5 1000000 drv_counter_6 1000000 "
            "drv_counter_7 1000000 ");
  EXPECT_EQ(driver_text(driver_msg([](nlmsghdr*) {}), true), "\n    ");
  EXPECT_EQ(driver_text(driver_msg([](nlmsghdr*) {}), false), "");
}

}  // namespace
}  // namespace rdma::res
