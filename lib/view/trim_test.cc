#include "lib/view/trim.h"

#include <gtest/gtest.h>

namespace rdma::view {
namespace {

TEST(Trim, BlanksAroundNotInside) {
  EXPECT_EQ(trim(" \tCA = mlx5_0\r"), "CA = mlx5_0");
  EXPECT_EQ(trim(" \t\r"), "");
  EXPECT_EQ(trim(""), "");
  EXPECT_EQ(trim("x"), "x");
}

}  // namespace
}  // namespace rdma::view
