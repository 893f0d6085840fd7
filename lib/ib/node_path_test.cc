#include "lib/ib/node_path.h"

#include <gtest/gtest.h>

#include <numeric>
#include <utility>

namespace rdma::ib {
namespace {

std::vector<uint8_t> path_hops(size_t n) {
  std::vector<uint8_t> v(n);
  std::iota(v.begin(), v.end(), uint8_t{1});
  return v;
}

TEST(NodePath, EmptyByDefault) {
  NodePath p;
  EXPECT_TRUE(p.empty());
  EXPECT_EQ(p.size(), 0u);
  EXPECT_EQ(std::vector<uint8_t>(p), std::vector<uint8_t>{});
}

// 15 hops inline, 16 and up on the heap, 63 the most a route has.
TEST(NodePath, KeepsEveryLength) {
  for (size_t n : {1u, 2u, 14u, 15u, 16u, 17u, 40u, 63u}) {
    NodePath p = path_hops(n);
    ASSERT_EQ(p.size(), n);
    EXPECT_EQ(std::vector<uint8_t>(p), path_hops(n)) << n;
    EXPECT_EQ(p.back(), n);
    EXPECT_EQ(p[0], 1);
  }
}

TEST(NodePath, CopiesAndMovesOwnTheirHops) {
  for (size_t n : {3u, 20u}) {
    NodePath a = path_hops(n);
    NodePath b = a;  // a copy, not the same heap block
    EXPECT_EQ(a, b);
    EXPECT_TRUE(n <= 15 || a.data() != b.data());
    NodePath c = std::move(a);
    EXPECT_EQ(c, path_hops(n));
    EXPECT_TRUE(a.empty());
    b = NodePath{9};
    EXPECT_EQ(b, std::vector<uint8_t>{9});
    b = c;
    EXPECT_EQ(b, c);
    c = path_hops(2);
    EXPECT_EQ(c, path_hops(2));
    EXPECT_EQ(b, path_hops(n));
    NodePath& self = b;
    b = self;
    EXPECT_EQ(b, path_hops(n));
  }
}

TEST(NodePath, ComparesByHops) {
  EXPECT_EQ(NodePath({1, 2}), NodePath({1, 2}));
  EXPECT_FALSE(NodePath({1, 2}) == NodePath({1, 3}));
  EXPECT_FALSE(NodePath({1}) == NodePath({1, 1}));
  EXPECT_FALSE(NodePath(path_hops(20)) == NodePath(path_hops(21)));
  EXPECT_TRUE(path_hops(4) == NodePath(path_hops(4)));
}

TEST(NodePath, IteratesAsASpan) {
  NodePath p = {4, 5, 6};
  std::vector<uint8_t> seen(p.begin(), p.end());
  EXPECT_EQ(seen, (std::vector<uint8_t>{4, 5, 6}));
  std::span<const uint8_t> s = p.span();
  EXPECT_EQ(s.size(), 3u);
  EXPECT_EQ(s[2], 6);
}

}  // namespace
}  // namespace rdma::ib
