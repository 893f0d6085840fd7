#include "lib/mad/bits.h"

#include <gtest/gtest.h>

#include <array>

namespace rdma::mad {
namespace {

TEST(Bits, ReadsMsbFirstFields) {
  const std::array<uint8_t, 4> b = {0x12, 0x34, 0x56, 0x78};
  EXPECT_EQ(get_bits(b, 0, 8), 0x12u);
  EXPECT_EQ(get_bits(b, 0, 4), 0x1u);
  EXPECT_EQ(get_bits(b, 4, 4), 0x2u);
  EXPECT_EQ(get_bits(b, 4, 12), 0x234u);
  EXPECT_EQ(get_bits(b, 0, 32), 0x12345678u);
  EXPECT_EQ(get_bits(b, 7, 1), 0u);
  EXPECT_EQ(get_bits(b, 11, 1), 1u);  // 0x34 = 0011 0100: bit 3 of byte 1
}

TEST(Bits, Reads64BitValues) {
  const std::array<uint8_t, 9> b = {0xff, 1, 2, 3, 4, 5, 6, 7, 8};
  EXPECT_EQ(get_bits(b, 8, 64), 0x0102030405060708ull);
}

TEST(Bits, WritesWithoutTouchingNeighbours) {
  std::array<uint8_t, 4> b = {0xff, 0xff, 0xff, 0xff};
  set_bits(b, 4, 8, 0);
  EXPECT_EQ(b[0], 0xf0);
  EXPECT_EQ(b[1], 0x0f);
  set_bits(b, 19, 5, 0b10101);
  EXPECT_EQ(get_bits(b, 19, 5), 0b10101u);
  EXPECT_EQ(get_bits(b, 16, 3), 0b111u);
  EXPECT_EQ(get_bits(b, 24, 8), 0xffu);
}

TEST(Bits, RoundTripsEveryOffsetAndWidth) {
  for (unsigned w = 1; w <= 64; ++w)
    for (unsigned off = 0; off + w <= 128; off += 5) {
      std::array<uint8_t, 16> b{};
      uint64_t v = 0x8badf00ddeadbeefull & (w == 64 ? ~0ull : (1ull << w) - 1);
      set_bits(b, off, w, v);
      ASSERT_EQ(get_bits(b, off, w), v) << off << "/" << w;
    }
}

}  // namespace
}  // namespace rdma::mad
