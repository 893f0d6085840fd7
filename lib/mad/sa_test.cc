// An SA table's reply split into records.
#include "lib/mad/sa.h"

#include <gtest/gtest.h>

#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/mad/mad.h"

namespace rdma::mad {
namespace {

TEST(SplitTable, RecordsByAttributeOffset) {
  std::vector<uint8_t> reply(56 + 2 * 8);
  set_bits(reply, hdr::kAttrOffset.bit, 16, 1);  // 8-byte LinkRecords
  reply[56] = 0;
  reply[57] = 7;
  reply[64 + 1] = 9;
  SaTable t = split_table(reply, kLinkRecord);
  ASSERT_EQ(t.records.size(), 2u);
  EXPECT_EQ(t.records[0][1], 7);
  EXPECT_EQ(t.records[1][1], 9);
  EXPECT_EQ(t.missing, 0u);
  EXPECT_THROW(split_table(std::span(reply).first(40), kLinkRecord), Error);
  set_bits(reply, hdr::kAttrOffset.bit, 16, 0);  // no records
  EXPECT_TRUE(split_table(reply, kLinkRecord).records.empty());
}

}  // namespace
}  // namespace rdma::mad
