#include "lib/mad/small_bytes.h"

#include <gtest/gtest.h>

#include <numeric>
#include <string>
#include <utility>

namespace rdma::mad {
namespace {

std::vector<uint8_t> counted_bytes(size_t n) {
  std::vector<uint8_t> v(n);
  std::iota(v.begin(), v.end(), uint8_t{1});
  return v;
}

TEST(SmallBytes, EmptyByDefault) {
  SmallBytes b;
  EXPECT_TRUE(b.empty());
  EXPECT_EQ(b.size(), 0u);
  EXPECT_EQ(b.view(), "");
  EXPECT_EQ(std::vector<uint8_t>(b), std::vector<uint8_t>{});
}

// 15 bytes inline, 16 and up on the heap, 63 a route's most, 64 a key's
// ("d" and 63 ports); 255 and up keep their size beside the address.
TEST(SmallBytes, KeepsEveryLength) {
  for (size_t n : {1u, 2u, 14u, 15u, 16u, 17u, 40u, 63u, 64u, 254u, 255u, 256u, 70000u}) {
    SmallBytes b = counted_bytes(n);
    ASSERT_EQ(b.size(), n);
    EXPECT_FALSE(b.empty());
    EXPECT_EQ(std::vector<uint8_t>(b), counted_bytes(n)) << n;
    EXPECT_EQ(b.back(), static_cast<uint8_t>(n));
    EXPECT_EQ(b[0], 1);
  }
}

// A key as text: bytes of any value (a GUID's, a port 255) read back as
// they were given, at every length from empty past the inline 15.
TEST(SmallBytes, ReadsBackTextOfEveryLength) {
  for (size_t n = 0; n <= 64; ++n) {
    std::string s;
    for (size_t i = 0; i < n; ++i) s += static_cast<char>(i == 0 ? 'd' : 255 - i);
    SmallBytes k(s);
    EXPECT_EQ(k.view(), s) << n;
    EXPECT_EQ(k.size(), n);
  }
  EXPECT_EQ(SmallBytes(std::string_view("\0\0\xff", 3)).view(), std::string_view("\0\0\xff", 3));
}

TEST(SmallBytes, CopiesAndMovesOwnTheirBytes) {
  for (size_t n : {3u, 20u, 300u}) {
    SmallBytes a = counted_bytes(n);
    SmallBytes b = a;  // a copy, not the same heap block
    EXPECT_EQ(a, b);
    EXPECT_TRUE(n <= 15 || a.data() != b.data());
    SmallBytes c = std::move(a);
    EXPECT_EQ(c, counted_bytes(n));
    EXPECT_TRUE(a.empty());
    b = SmallBytes{9};
    EXPECT_EQ(b, std::vector<uint8_t>{9});
    b = c;
    EXPECT_EQ(b, c);
    c = counted_bytes(2);
    EXPECT_EQ(c, counted_bytes(2));
    EXPECT_EQ(b, counted_bytes(n));
    SmallBytes& self = b;
    b = self;
    EXPECT_EQ(b, counted_bytes(n));
    b = std::move(self);
    EXPECT_EQ(b, counted_bytes(n));
  }
}

TEST(SmallBytes, ComparesByBytes) {
  EXPECT_EQ(SmallBytes({1, 2}), SmallBytes({1, 2}));
  EXPECT_FALSE(SmallBytes({1, 2}) == SmallBytes({1, 3}));
  EXPECT_FALSE(SmallBytes({1}) == SmallBytes({1, 1}));
  EXPECT_FALSE(SmallBytes(counted_bytes(20)) == SmallBytes(counted_bytes(21)));
  EXPECT_TRUE(counted_bytes(4) == SmallBytes(counted_bytes(4)));
}

TEST(SmallBytes, IteratesAsASpan) {
  SmallBytes b = {4, 5, 6};
  std::vector<uint8_t> seen(b.begin(), b.end());
  EXPECT_EQ(seen, (std::vector<uint8_t>{4, 5, 6}));
  std::span<const uint8_t> s = b.span();
  EXPECT_EQ(s.size(), 3u);
  EXPECT_EQ(s[2], 6);
}

}  // namespace
}  // namespace rdma::mad
