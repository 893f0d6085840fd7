// An SA table's reply split into records.
#include "lib/mad/sa.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/mad/mad.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/test_data.h"

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
  set_bits(reply, hdr::kAttrOffset.bit, 16, 0);  // no records: then no bytes of them either
  EXPECT_THROW(split_table(reply, kLinkRecord), Error);
  std::fill(reply.begin() + 56, reply.end(), 0);
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

// The NodeRecord table of the suite's fabric (six records of 112 bytes) as
// the fabric double's SA sends it in mode: Reassembled, as the kernel hands
// an RMPP transfer over (the first segment's 56-byte header, then the 672
// bytes of the four segments); Umad2sim, its first MAD as ibsim's gives it.
std::vector<uint8_t> sa_split_nodes(ibtest::RmppMode mode = ibtest::RmppMode::Reassembled) {
  ibtest::FabricOptions o;
  o.rmpp = mode;
  ibtest::FakeFabric f(ibtest::load_topology(testdata::kNet), o);
  f.assign_lids();
  f.send(make_gmp(kClassSa, kSaGetTable, kNodeRecord, 0), gsi_address(1), 100);
  std::optional<Received> r = f.receive(0);
  return r ? r->bytes : std::vector<uint8_t>{};
}

// The error a damaged table gives, "" when it passes.
std::string sa_split_error(const std::vector<uint8_t>& reply) {
  try {
    split_table(reply, kNodeRecord);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

constexpr const char* kSaSplitNotAddingUp = "the SA's NodeRecord table does not add up: ";

TEST(SplitTableRmpp, AWholeTransferPasses) {
  std::vector<uint8_t> reply = sa_split_nodes();
  ASSERT_EQ(reply.size(), 56u + 6 * 112);
  SaTable t = split_table(reply, kNodeRecord);
  EXPECT_EQ(t.records.size(), 6u);
  EXPECT_EQ(t.missing, 0u);
  EXPECT_FALSE(t.cut);
  // As the kernel leaves the first segment's flags: not marked last.
  set_bits(reply, hdr::kRmppFlags.bit, 3, kRmppActive | kRmppFirst);
  EXPECT_EQ(split_table(reply, kNodeRecord).records.size(), 6u);
}

// A segment missing between others: fewer bytes than the first announced.
TEST(SplitTableRmpp, ASegmentMissingIsAnError) {
  std::vector<uint8_t> reply = sa_split_nodes();
  reply.erase(reply.begin() + 56 + 200, reply.begin() + 56 + 400);
  EXPECT_EQ(sa_split_error(reply),
            std::string(kSaSplitNotAddingUp) +
                "472 bytes of records arrived, its RMPP header announced 672");
}

// The transfer headed by another segment than the first.
TEST(SplitTableRmpp, ASegmentOutOfOrderIsAnError) {
  std::vector<uint8_t> reply = sa_split_nodes();
  set_bits(reply, hdr::kRmppSegment.bit, 32, 2);
  EXPECT_EQ(sa_split_error(reply),
            std::string(kSaSplitNotAddingUp) + "it begins with RMPP segment 2, not 1");
  set_bits(reply, hdr::kRmppSegment.bit, 32, 1);
  set_bits(reply, hdr::kRmppFlags.bit, 3, kRmppActive | kRmppLast);
  EXPECT_EQ(sa_split_error(reply),
            std::string(kSaSplitNotAddingUp) + "its first RMPP segment is not marked first");
}

// The first segment's PayloadLength, the transfer's total, damaged.
TEST(SplitTableRmpp, TheFirstPayloadLengthMustCountWhatArrived) {
  std::vector<uint8_t> reply = sa_split_nodes();
  set_bits(reply, hdr::kRmppPayload.bit, 32, 20 + 7 * 112);
  EXPECT_EQ(sa_split_error(reply),
            std::string(kSaSplitNotAddingUp) +
                "672 bytes of records arrived, its RMPP header announced 784");
  set_bits(reply, hdr::kRmppPayload.bit, 32, 20 + 5 * 112);
  EXPECT_EQ(sa_split_error(reply),
            std::string(kSaSplitNotAddingUp) +
                "672 bytes of records arrived, its RMPP header announced 560");
  set_bits(reply, hdr::kRmppPayload.bit, 32, 20 + 600);
  EXPECT_EQ(sa_split_error(reply),
            std::string(kSaSplitNotAddingUp) +
                "its RMPP header announces 600 bytes, not a whole number of records (records of "
                "112 bytes)");
  set_bits(reply, hdr::kRmppPayload.bit, 32, 12);
  EXPECT_EQ(sa_split_error(reply),
            std::string(kSaSplitNotAddingUp) +
                "RMPP PayloadLength 12 is shorter than the SA header (20 bytes)");
}

// The last segment's PayloadLength sets how much of it the kernel keeps: a
// wrong one makes the transfer longer or shorter than the first announced.
TEST(SplitTableRmpp, TheLastPayloadLengthMustEndTheTransfer) {
  std::vector<uint8_t> reply = sa_split_nodes();
  reply.resize(reply.size() + 16);
  EXPECT_EQ(sa_split_error(reply),
            std::string(kSaSplitNotAddingUp) +
                "688 bytes of records arrived, its RMPP header announced 672");
  reply.resize(56 + 6 * 112 - 40);
  EXPECT_EQ(sa_split_error(reply),
            std::string(kSaSplitNotAddingUp) +
                "632 bytes of records arrived, its RMPP header announced 672");
  // One MAD, first and last at once, announcing more than it holds.
  reply = sa_split_nodes(ibtest::RmppMode::FirstOnly);
  ASSERT_EQ(reply.size(), kMadBytes);
  EXPECT_EQ(split_table(reply, kNodeRecord).missing, 5u);  // the first MAD alone: a warning
  set_bits(reply, hdr::kRmppFlags.bit, 3, kRmppActive | kRmppFirst | kRmppLast);
  EXPECT_EQ(sa_split_error(reply),
            std::string(kSaSplitNotAddingUp) +
                "200 bytes of records arrived, its RMPP header announced 672");
}

// AttributeOffset, the records' size, against what the header counts.
TEST(SplitTableRmpp, TheRecordSizeMustDivideTheTransfer) {
  std::vector<uint8_t> reply = sa_split_nodes();
  set_bits(reply, hdr::kAttrOffset.bit, 16, 15);  // 120 bytes
  EXPECT_EQ(sa_split_error(reply),
            std::string(kSaSplitNotAddingUp) +
                "its RMPP header announces 672 bytes, not a whole number of records (records of "
                "120 bytes)");
  set_bits(reply, hdr::kAttrOffset.bit, 16, 0);
  EXPECT_EQ(sa_split_error(reply),
            std::string(kSaSplitNotAddingUp) +
                "AttributeOffset 0 (no records) before 672 bytes of records");
  set_bits(reply, hdr::kAttrOffset.bit, 16, 13);  // 104 bytes: shorter than a NodeRecord (112)
  EXPECT_EQ(sa_split_error(reply), "malformed NodeRecord table: records of 104 bytes, need 112");
  // ibsim's first MAD, no PayloadLength: AttributeOffset 0 before records.
  reply = sa_split_nodes(ibtest::RmppMode::Umad2sim);
  set_bits(reply, hdr::kAttrOffset.bit, 16, 0);
  EXPECT_EQ(sa_split_error(reply),
            std::string(kSaSplitNotAddingUp) +
                "AttributeOffset 0 (no records) before 200 bytes of records");
}

// A table cut short on its way (a short read): an error, not the records
// before the cut, nor an empty table.
TEST(SplitTableRmpp, ATruncatedTableIsAnError) {
  std::vector<uint8_t> reply = sa_split_nodes();
  reply.resize(56);
  EXPECT_EQ(sa_split_error(reply), std::string(kSaSplitNotAddingUp) +
                                       "0 bytes of records arrived, its RMPP header announced 672");
  // ibsim's: the length is the transfer's own, so one ending inside a
  // record is cut; the whole first MAD is the simulator's cut (a warning).
  reply = sa_split_nodes(ibtest::RmppMode::Umad2sim);
  ASSERT_EQ(reply.size(), kMadBytes);
  EXPECT_TRUE(split_table(reply, kNodeRecord).cut);
  reply.resize(56 + 150);
  EXPECT_EQ(sa_split_error(reply),
            std::string(kSaSplitNotAddingUp) +
                "it ends inside a record: 150 bytes of records (records of 112 bytes)");
}

// The rest of the first segment's RMPP header.
TEST(SplitTableRmpp, AnRmppHeaderOfAnotherKindIsAnError) {
  std::vector<uint8_t> reply = sa_split_nodes();
  set_bits(reply, hdr::kRmppVersion.bit, 8, 2);
  EXPECT_EQ(sa_split_error(reply), std::string(kSaSplitNotAddingUp) + "RMPP version 2");
  reply = sa_split_nodes();
  set_bits(reply, hdr::kRmppType.bit, 8, kRmppAck);
  EXPECT_EQ(sa_split_error(reply), std::string(kSaSplitNotAddingUp) + "RMPP type 2, not DATA");
  reply = sa_split_nodes();
  set_bits(reply, hdr::kRmppStatus.bit, 8, 118);
  EXPECT_EQ(sa_split_error(reply), std::string(kSaSplitNotAddingUp) + "RMPP status 118");
}

}  // namespace
}  // namespace rdma::mad
