#include "lib/view/record.h"

#include <gtest/gtest.h>

namespace rdma::view {
namespace {

// A cleared record reuses its fields: nothing of the previous object may
// show through (a longer text, a JSON value, a key).
TEST(Record, ReusedFieldsStartEmpty) {
  Record r;
  r.add("comm", "comm a-long-process-name ", "a-long-process-name");
  r.add("pid", "pid 42 ", 42);
  r.clear();
  EXPECT_TRUE(r.empty());
  Field& f = r.next();
  EXPECT_EQ(f.key, "");
  EXPECT_EQ(f.text, "");
  EXPECT_TRUE(f.value.is_null());
  f.text = "x ";
  r.add("", "y ", nullptr);
  ASSERT_EQ(r.size(), 2u);
  std::string line;
  for (const Field& g : r) line += g.text;
  EXPECT_EQ(line, "x y ");
  EXPECT_TRUE(r[1].value.is_null());
  EXPECT_EQ(r[1].key, "");
}

TEST(Record, GrowsPastItsFirstSize) {
  Record r;
  for (int round = 0; round < 3; ++round) {
    r.clear();
    for (int i = 0; i <= round * 5; ++i) r.add("k" + std::to_string(i), "", i);
    ASSERT_EQ(r.size(), size_t(round * 5 + 1));
    EXPECT_EQ(r[round * 5].key, "k" + std::to_string(round * 5));
    EXPECT_EQ(r[round * 5].value, round * 5);
  }
}

// pair() writes the label once: "key value " in text, the value in JSON,
// a string or a number as given, or a JSON form of its own.
TEST(Record, PairGivesTheTextAndTheJsonForm) {
  Record r;
  r.pair("comm", std::string("bash"));
  r.pair("pid", uint32_t{42});
  r.pair("port", uint8_t{3});
  r.pair("lids", "2-3", Json::array({2, 3}));
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[0].key, "comm");
  EXPECT_EQ(r[0].text, "comm bash ");
  EXPECT_EQ(r[0].value, "bash");
  EXPECT_EQ(r[1].text, "pid 42 ");
  EXPECT_EQ(r[1].value, 42);
  EXPECT_TRUE(r[1].value.is_number_unsigned());
  EXPECT_EQ(r[2].text, "port 3 ");
  EXPECT_EQ(r[2].value, 3);
  EXPECT_EQ(r[3].key, "lids");
  EXPECT_EQ(r[3].text, "lids 2-3 ");
  EXPECT_EQ(r[3].value, Json::array({2, 3}));
}

}  // namespace
}  // namespace rdma::view
