#include "lib/stat/filter.h"

#include <gtest/gtest.h>

#include "lib/error.h"

namespace rdma::stat {
namespace {

TEST(NumberFilter, NumbersAndRanges) {
  NumberFilter f("lqpn", "3,10-12");
  EXPECT_TRUE(f.match(3));
  EXPECT_TRUE(f.match(11));
  EXPECT_FALSE(f.match(4));
  EXPECT_FALSE(f.match(13));
  uint64_t v;
  EXPECT_FALSE(f.single(v));
  EXPECT_TRUE(NumberFilter("cntn", "7").single(v));
  EXPECT_EQ(v, 7u);
}

TEST(NumberFilter, BadValuesNameTheKey) {
  for (const char* bad : {"", "x", "1-", "-1", "5-3", "1,,2", "4294967296", "+1"}) {
    try {
      NumberFilter("pid", bad);
      ADD_FAILURE() << bad;
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()).rfind("invalid pid \"", 0), 0u) << bad;
    }
  }
}

}  // namespace
}  // namespace rdma::stat
