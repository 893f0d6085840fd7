#include "lib/mad/key_index.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

namespace rdma::mad {
namespace {

// Keys kept by the caller, found again through the index across its
// growth, and keys whose hashes collide told apart by the caller's compare.
TEST(KeyIndex, FindsWhatWasAddedAcrossGrowth) {
  std::vector<std::string> keys;
  KeyIndex index;
  auto lookup = [&](const std::string& k, uint64_t h) {
    return index.find(h, [&](uint32_t i) { return keys[i] == k; });
  };
  for (int i = 0; i < 5000; ++i) {
    std::string k = "d" + std::to_string(i);
    uint64_t h = std::hash<std::string>{}(k);
    ASSERT_FALSE(lookup(k, h)) << k;
    index.add(h, static_cast<uint32_t>(keys.size()));
    keys.push_back(k);
  }
  EXPECT_EQ(index.size(), 5000u);
  for (uint32_t i = 0; i < keys.size(); ++i)
    EXPECT_EQ(lookup(keys[i], std::hash<std::string>{}(keys[i])), i);
  EXPECT_FALSE(lookup("l4", std::hash<std::string>{}("l4")));
}

TEST(KeyIndex, CollidingHashesAreToldApartByTheirKeys) {
  std::vector<std::string> keys{"a", "b", "c"};
  KeyIndex index;
  for (uint32_t i = 0; i < keys.size(); ++i) index.add(99, i);
  for (uint32_t i = 0; i < keys.size(); ++i)
    EXPECT_EQ(index.find(99, [&](uint32_t j) { return keys[j] == keys[i]; }), i);
  EXPECT_FALSE(index.find(99, [](uint32_t) { return false; }));
  EXPECT_FALSE(KeyIndex{}.find(99, [](uint32_t) { return true; }));
}

}  // namespace
}  // namespace rdma::mad
