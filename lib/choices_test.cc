#include "lib/choices.h"

#include <gtest/gtest.h>

namespace rdma {
namespace {

TEST(Choices, ClosestIsATypoOfAChoice) {
  const std::vector<std::string> fabric = {"show", "list",   "links", "topology", "save",
                                           "diff", "errors", "check", "help"};
  EXPECT_EQ(closest("shwo", fabric), "show");  // two letters swapped
  EXPECT_EQ(closest("lniks", fabric), "links");
  EXPECT_EQ(closest("erors", fabric), "errors");  // one dropped
  EXPECT_EQ(closest("chekc", fabric), "check");
  EXPECT_EQ(closest("sav", fabric), "save");
  EXPECT_EQ(closest("clear", fabric), std::nullopt);  // nothing near
  EXPECT_EQ(closest("x", fabric), std::nullopt);
  EXPECT_EQ(closest("", fabric), std::nullopt);
  EXPECT_EQ(closest("lst", fabric), "list");  // ties: the first in order
}

TEST(Choices, UnknownWordListsTheChoicesAndSuggests) {
  EXPECT_EQ(unknown_word("fabric command", "shwo", {"show", "links", "help"}),
            "unknown fabric command \"shwo\" (show, links or help); did you mean \"show\"?");
  EXPECT_EQ(unknown_word("perf command", "clear", {"show", "reset"}),
            "unknown perf command \"clear\" (show or reset)");
  EXPECT_EQ(unknown_word("check", "x", {"ids"}), "unknown check \"x\" (ids)");
  EXPECT_EQ(or_list({}), "");
}

}  // namespace
}  // namespace rdma
