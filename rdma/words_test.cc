#include "rdma/words.h"

#include <gtest/gtest.h>

#include "lib/error.h"

namespace rdma {
namespace {

TEST(Words, NeedNumberNamesTheWordAndTheRange) {
  EXPECT_EQ(need_number("7", "port", {.max = 254}), 7u);
  try {
    need_number("300", "port", {.max = 254});
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "invalid port \"300\" (expected 0-254)");
  }
}

TEST(Words, NeedNumberListNamesTheWordAndTheRule) {
  view::NumberRule r{.min = 1, .max = 36};
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
