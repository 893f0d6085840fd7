#include "lib/mad/key_index.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <random>
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

// Entries removed in any order, colliding runs included (few distinct
// hashes), and positions reused: every lookup as a std::map says, so no
// entry moved back out of reach of its own hash.
TEST(KeyIndex, RemovingKeepsEveryOtherEntryFound) {
  std::vector<std::string> keys;  // by position; "" once removed
  std::map<std::string, uint32_t> want;
  std::vector<uint32_t> free;
  KeyIndex index;
  std::mt19937 rng(7);
  auto hash = [](const std::string& k) { return std::hash<std::string>{}(k) % 97; };
  auto lookup = [&](const std::string& k) {
    return index.find(hash(k), [&](uint32_t i) { return keys[i] == k; });
  };
  for (int step = 0; step < 20000; ++step) {
    std::string k = "k" + std::to_string(rng() % 600);
    auto it = want.find(k);
    if (it != want.end()) {
      index.remove(hash(k), it->second);
      keys[it->second].clear();
      free.push_back(it->second);
      want.erase(it);
    } else {
      uint32_t pos = static_cast<uint32_t>(keys.size());
      if (!free.empty()) {
        pos = free.back();
        free.pop_back();
      } else {
        keys.emplace_back();
      }
      keys[pos] = k;
      index.add(hash(k), pos);
      want[k] = pos;
    }
    ASSERT_EQ(index.size(), want.size());
    std::string other = "k" + std::to_string(rng() % 600);
    auto o = want.find(other);
    ASSERT_EQ(lookup(other), o == want.end() ? std::nullopt : std::optional<uint32_t>(o->second))
        << other << " at " << step;
  }
  for (int i = 0; i < 600; ++i) {
    std::string k = "k" + std::to_string(i);
    auto it = want.find(k);
    EXPECT_EQ(lookup(k), it == want.end() ? std::nullopt : std::optional<uint32_t>(it->second))
        << k;
  }
}

}  // namespace
}  // namespace rdma::mad
