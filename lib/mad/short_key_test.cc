#include "lib/mad/short_key.h"

#include <gtest/gtest.h>

#include <string>

namespace rdma::mad {
namespace {

// Keys of every length from empty past the inline 15 bytes (a 63-hop
// route's), bytes of any value (a GUID's, a port 255) included, read back
// as they were given.
TEST(ShortKey, ReadsBackKeysOfEveryLength) {
  for (size_t n = 0; n <= 64; ++n) {
    std::string s;
    for (size_t i = 0; i < n; ++i) s += static_cast<char>(i == 0 ? 'd' : 255 - i);
    ShortKey k(s);
    EXPECT_EQ(k.view(), s) << n;
  }
  EXPECT_EQ(ShortKey().view(), "");
  EXPECT_EQ(ShortKey(std::string("\0\0\xff", 3)).view(), std::string("\0\0\xff", 3));
}

}  // namespace
}  // namespace rdma::mad
