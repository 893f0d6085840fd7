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

// The first MAD of a transfer whose RMPP header counts it (PayloadLength
// in the first segment): the missing records by number.
TEST(SplitTable, AFirstSegmentCountsWhatIsMissing) {
  std::vector<uint8_t> reply(kMadBytes);
  set_bits(reply, hdr::kAttrOffset.bit, 16, 14);  // 112-byte NodeRecords
  set_bits(reply, hdr::kRmppFlags.bit, 3, kRmppActive | kRmppFirst);
  set_bits(reply, hdr::kRmppPayload.bit, 32, 20 + 6 * 112);
  SaTable t = split_table(reply, kNodeRecord);
  EXPECT_EQ(t.records.size(), 1u);
  EXPECT_EQ(t.missing, 5u);
  EXPECT_FALSE(t.cut);
  EXPECT_EQ(cut_warning(t, kNodeRecord),
            "the SA's NodeRecord table lacks 5 of its records (no RMPP?)");
}

// umad2sim's first MAD of a transfer: only the Active flag, no count, and
// the second record begun: cut, how much is unknown.
TEST(SplitTable, ARecordCutInTwoWithoutACountIsACutTable) {
  std::vector<uint8_t> reply(kMadBytes);
  set_bits(reply, hdr::kAttrOffset.bit, 16, 14);  // 112-byte NodeRecords
  set_bits(reply, hdr::kRmppFlags.bit, 3, kRmppActive);
  SaTable t = split_table(reply, kNodeRecord);
  EXPECT_EQ(t.records.size(), 1u);
  EXPECT_EQ(t.missing, 0u);
  EXPECT_TRUE(t.cut);
  EXPECT_EQ(cut_warning(t, kNodeRecord),
            "the SA's NodeRecord table is cut short after 1 record: an unknown number of its "
            "records is missing (no RMPP?)");
  // The same reply at its length (a table that fits): whole.
  t = split_table(std::span(reply).first(56 + 112), kNodeRecord);
  EXPECT_FALSE(t.cut);
  EXPECT_EQ(cut_warning(t, kNodeRecord), "");
  // Marked last, or whole records to the end of the MAD: nothing says more
  // was to come.
  set_bits(reply, hdr::kRmppFlags.bit, 3, kRmppActive | kRmppLast);
  EXPECT_FALSE(split_table(reply, kNodeRecord).cut);
  set_bits(reply, hdr::kRmppFlags.bit, 3, kRmppActive);
  set_bits(reply, hdr::kAttrOffset.bit, 16, 1);  // 8-byte LinkRecords: 25 fill it
  t = split_table(reply, kLinkRecord);
  EXPECT_EQ(t.records.size(), 25u);
  EXPECT_FALSE(t.cut);
  // No RMPP at all: a plain reply, taken as whole.
  set_bits(reply, hdr::kRmppFlags.bit, 3, 0);
  set_bits(reply, hdr::kAttrOffset.bit, 16, 14);
  EXPECT_FALSE(split_table(reply, kNodeRecord).cut);
}

}  // namespace
}  // namespace rdma::mad
