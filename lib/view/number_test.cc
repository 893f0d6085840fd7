#include "lib/view/number.h"

#include <gtest/gtest.h>

namespace rdma::view {
namespace {

TEST(Number, DecimalDigitsOnlyByDefault) {
  NumberRule r;
  EXPECT_EQ(parse_number("0", r), 0u);
  EXPECT_EQ(parse_number("4294967296", r), 4294967296u);
  EXPECT_EQ(parse_number("18446744073709551615", r), UINT64_MAX);
  for (const char* bad : {"", "18446744073709551616", "99999999999999999999", "-1", "+1", " 1",
                          "1 ", "1x", "0x10", "x", "1.5", "-0"})
    EXPECT_EQ(parse_number(bad, r), std::nullopt) << bad;
  // A leading 0 is decimal without c_bases.
  EXPECT_EQ(parse_number("010", r), 10u);
}

TEST(Number, Bounds) {
  NumberRule r{.min = 1, .max = 254};
  EXPECT_EQ(parse_number("1", r), 1u);
  EXPECT_EQ(parse_number("254", r), 254u);
  EXPECT_EQ(parse_number("0", r), std::nullopt);
  EXPECT_EQ(parse_number("255", r), std::nullopt);
}

TEST(Number, CBasesAsStrtoul) {
  NumberRule r{.c_bases = true};
  EXPECT_EQ(parse_number("0x1F", r), 31u);
  EXPECT_EQ(parse_number("0X1f", r), 31u);
  EXPECT_EQ(parse_number("010", r), 8u);
  EXPECT_EQ(parse_number("0", r), 0u);
  EXPECT_EQ(parse_number("0xffffffffffffffff", r), UINT64_MAX);
  for (const char* bad : {"0x", "0xg", "08", "0x1g", "0x10000000000000000", "x1"})
    EXPECT_EQ(parse_number(bad, r), std::nullopt) << bad;
}

TEST(Number, BlanksAndSignAsStrtoul) {
  NumberRule r{.max = 100, .blanks_and_sign = true};
  EXPECT_EQ(parse_number(" 5", r), 5u);
  EXPECT_EQ(parse_number("\t+5", r), 5u);
  EXPECT_EQ(parse_number("-0", r), 0u);
  for (const char* bad : {"-1", "5 ", "+", " ", "+-5", "- 5"})
    EXPECT_EQ(parse_number(bad, r), std::nullopt) << bad;
}

TEST(Number, Lists) {
  NumberRule r{.min = 1, .max = 36};
  EXPECT_EQ(parse_number_list("4", r), (std::vector<uint64_t>{4}));
  EXPECT_EQ(parse_number_list("1-3", r), (std::vector<uint64_t>{1, 2, 3}));
  EXPECT_EQ(parse_number_list("1,4,8", r), (std::vector<uint64_t>{1, 4, 8}));
  EXPECT_EQ(parse_number_list("8,1-2,36", r), (std::vector<uint64_t>{8, 1, 2, 36}));
  EXPECT_EQ(parse_number_list("3-3", r), (std::vector<uint64_t>{3}));
  for (const char* bad :
       {"", ",", "1,", ",1", "3-1", "1-", "-1", "1--2", "0-3", "1-37", "1-2-3", "a", "1,,2"})
    EXPECT_EQ(parse_number_list(bad, r), std::nullopt) << bad;
  EXPECT_EQ(parse_number_list("0-65535", {})->size(), 65536u);
  EXPECT_EQ(parse_number_list("0-65536", {}), std::nullopt);
}

TEST(Number, NotFirstRefusesALeadingSignButNotOneAfterBlanks) {
  NumberRule r{.max = 100, .blanks_and_sign = true, .not_first = "-"};
  EXPECT_EQ(parse_number("+5", r), 5u);
  EXPECT_EQ(parse_number(" -0", r), 0u);
  EXPECT_EQ(parse_number("-0", r), std::nullopt);
  EXPECT_EQ(parse_number("-0", {.max = 100, .blanks_and_sign = true}), 0u);
  NumberRule no_sign{.blanks_and_sign = true, .not_first = "-+ "};
  EXPECT_EQ(parse_number("\t+5", no_sign), 5u);
  for (const char* bad : {"+5", " 5", "-0"})
    EXPECT_EQ(parse_number(bad, no_sign), std::nullopt) << bad;
}

TEST(Number, HexWithOrWithout0x) {
  NumberRule r{.hex = true};
  EXPECT_EQ(parse_number("ff", r), 255u);
  EXPECT_EQ(parse_number("0xFf", r), 255u);
  EXPECT_EQ(parse_number("0X10", r), 16u);
  EXPECT_EQ(parse_number("010", r), 16u);  // hex, not octal
  EXPECT_EQ(parse_number("ffffffffffffffff", r), UINT64_MAX);
  for (const char* bad : {"", "0x", "g", "0xg", "0x0x1", "10000000000000000", " 1", "-1"})
    EXPECT_EQ(parse_number(bad, r), std::nullopt) << bad;
  EXPECT_EQ(parse_number("100", {.max = 0xff, .hex = true}), std::nullopt);
}

TEST(Number, HexTextPadsToTheDigitsAsked) {
  EXPECT_EQ(hex_text(0x12, 4), "0x0012");
  EXPECT_EQ(hex_text(0xc000, 4), "0xc000");
  EXPECT_EQ(hex_text(0x12345, 4), "0x12345");  // more digits than asked: all of them
  EXPECT_EQ(hex_text(0x2c90300a1b2c3, 16), "0x0002c90300a1b2c3");
  EXPECT_EQ(hex_text(UINT64_MAX, 16), "0xffffffffffffffff");
  EXPECT_EQ(hex_text(0xAB), "0xab");
  EXPECT_EQ(hex_text(0), "0x0");
}

}  // namespace
}  // namespace rdma::view
