#include "rdma/words.h"

#include <gtest/gtest.h>

#include "lib/error.h"

namespace rdma {
namespace {

TEST(Words, DecimalDigitsOnlyByDefault) {
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

TEST(Words, Bounds) {
  NumberRule r{.min = 1, .max = 254};
  EXPECT_EQ(parse_number("1", r), 1u);
  EXPECT_EQ(parse_number("254", r), 254u);
  EXPECT_EQ(parse_number("0", r), std::nullopt);
  EXPECT_EQ(parse_number("255", r), std::nullopt);
}

TEST(Words, CBasesAsStrtoul) {
  NumberRule r{.c_bases = true};
  EXPECT_EQ(parse_number("0x1F", r), 31u);
  EXPECT_EQ(parse_number("0X1f", r), 31u);
  EXPECT_EQ(parse_number("010", r), 8u);
  EXPECT_EQ(parse_number("0", r), 0u);
  EXPECT_EQ(parse_number("0xffffffffffffffff", r), UINT64_MAX);
  for (const char* bad : {"0x", "0xg", "08", "0x1g", "0x10000000000000000", "x1"})
    EXPECT_EQ(parse_number(bad, r), std::nullopt) << bad;
}

TEST(Words, BlanksAndSignAsStrtoul) {
  NumberRule r{.max = 100, .blanks_and_sign = true};
  EXPECT_EQ(parse_number(" 5", r), 5u);
  EXPECT_EQ(parse_number("\t+5", r), 5u);
  EXPECT_EQ(parse_number("-0", r), 0u);
  for (const char* bad : {"-1", "5 ", "+", " ", "+-5", "- 5"})
    EXPECT_EQ(parse_number(bad, r), std::nullopt) << bad;
}

TEST(Words, NeedNumberNamesTheWordAndTheRange) {
  EXPECT_EQ(need_number("7", "port", {.max = 254}), 7u);
  try {
    need_number("300", "port", {.max = 254});
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "invalid port \"300\" (expected 0-254)");
  }
}

TEST(Words, Lists) {
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
  try {
    need_number_list("1-40", "port list", r);
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(),
                 "invalid port list \"1-40\" (expected N, N-M or a "
                 "list of them, each 1-36)");
  }
}

TEST(Words, DevPort) {
  DevPort d = parse_dev_port("rxe0", {.min = 1});
  EXPECT_EQ(d.dev, "rxe0");
  EXPECT_FALSE(d.port_text);
  EXPECT_FALSE(d.port_bad());
  d = parse_dev_port("rxe0/2", {.min = 1});
  EXPECT_EQ(d.dev, "rxe0");
  EXPECT_EQ(d.port, 2u);
  d = parse_dev_port("/1", {.min = 1});
  EXPECT_EQ(d.dev, "");
  EXPECT_EQ(d.port, 1u);
  for (const char* bad : {"rxe0/", "rxe0/0", "rxe0/x", "rxe0/1/2", "rxe0/-1"}) {
    d = parse_dev_port(bad, {.min = 1});
    EXPECT_TRUE(d.port_bad()) << bad;
    EXPECT_EQ(d.dev, "rxe0") << bad;
  }
  EXPECT_EQ(*parse_dev_port("rxe0/1/2", {}).port_text, "1/2");
}

TEST(Words, CheckVia) {
  EXPECT_EQ(check_via("mlx5_0"), "mlx5_0");
  EXPECT_EQ(check_via("mlx5_0/0"), "mlx5_0/0");
  EXPECT_EQ(check_via("mlx5_0/254"), "mlx5_0/254");
  auto error = [](const std::string& via) {
    try {
      check_via(via);
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(error(""), "missing device name in \"via \" (expected DEV or DEV/PORT)");
  EXPECT_EQ(error("/1"), "missing device name in \"via /1\" (expected DEV or DEV/PORT)");
  EXPECT_EQ(error("mlx5_0/255"), "invalid port \"255\" in \"via mlx5_0/255\" (expected DEV/PORT)");
  EXPECT_EQ(error("mlx5_0/"), "invalid port \"\" in \"via mlx5_0/\" (expected DEV/PORT)");
  EXPECT_EQ(error("mlx5_0/+1"), "invalid port \"+1\" in \"via mlx5_0/+1\" (expected DEV/PORT)");
}

}  // namespace
}  // namespace rdma
