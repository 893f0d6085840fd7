#include "lib/res/raw.h"

#include <gtest/gtest.h>

#include <vector>

namespace rdma::res {
namespace {

// iproute2's -r: 4-byte groups of hex in text, the bytes in JSON.
TEST(RawData, HexGroupsInTextBytesInJson) {
  std::vector<uint8_t> data = {0x00, 0x04, 0xff, 0xfe, 0, 0, 0, 0, 0x1c, 0x10};
  view::Record r;
  append_raw(data, r);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].key, "data");
  EXPECT_EQ(r[0].text, "data 0004fffe 00000000 1c10 ");
  EXPECT_EQ(r[0].value.dump(), "[0,4,255,254,0,0,0,0,28,16]");
}

TEST(RawData, NoBytesIsAnEmptyArray) {
  view::Record r;
  append_raw({}, r);
  EXPECT_EQ(r[0].text, "data ");
  EXPECT_EQ(r[0].value.dump(), "[]");
}

}  // namespace
}  // namespace rdma::res
