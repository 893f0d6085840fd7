#include "lib/mad/route_counts.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

namespace rdma::mad {
namespace {

TEST(RouteCounts, CountsAddsAndTakes) {
  RouteCounts c;
  EXPECT_EQ(c.take(7), 0u);
  ++c[7];
  ++c[7];
  ++c[3];
  EXPECT_EQ(c.size(), 2u);
  EXPECT_EQ(c[7], 2u);
  EXPECT_EQ(c.take(7), 2u);
  EXPECT_EQ(c.size(), 1u);
  EXPECT_EQ(c.take(7), 0u);
  EXPECT_EQ(c[7], 0u);  // back, from 0
  EXPECT_EQ(c[3], 1u);
}

// Many keys in random order, some taken and counted again: the same as a
// std::map throughout, across the tail's merges and the removals' purges.
TEST(RouteCounts, MatchesAMapAcrossMerges) {
  RouteCounts c;
  std::map<uint64_t, uint64_t> want;
  std::mt19937_64 rng(42);
  for (int i = 0; i < 20000; ++i) {
    uint64_t key = rng() % 3000;
    if (rng() % 4 == 0) {
      auto it = want.find(key);
      uint64_t n = it == want.end() ? 0 : it->second;
      if (it != want.end()) want.erase(it);
      ASSERT_EQ(c.take(key), n) << "key " << key << " at " << i;
    } else {
      ASSERT_EQ(++c[key], ++want[key]) << "key " << key << " at " << i;
    }
    ASSERT_EQ(c.size(), want.size());
  }
  for (const auto& [key, n] : want) EXPECT_EQ(c[key], n) << key;
}

}  // namespace
}  // namespace rdma::mad
