// The record types of `sa show`: their words, filters, what prints, and
// what is undone of an SA's mistakes.
#include "lib/ib/sa_records.h"

#include <gtest/gtest.h>

#include <vector>

#include "lib/mad/attrs.h"

namespace rdma::ib {
namespace {

TEST(SaKinds, WordsAbbreviateAndFiltersAreExact) {
  EXPECT_EQ(find_sa_kind("no")->record, &mad::kNodeRecord);
  EXPECT_EQ(find_sa_kind("p")->record, &mad::kPortInfoRecord);  // ports before paths
  EXPECT_EQ(find_sa_kind("xyz"), nullptr);
  EXPECT_EQ(find_sa_kind(""), nullptr);
  const SaKind& pk = *find_sa_kind("pkeys");
  EXPECT_STREQ(find_sa_filter(pk, "block")->field, "BlockNum");
  EXPECT_EQ(find_sa_filter(pk, "blo"), nullptr);
  // Every filter names a field of its record with a ComponentMask bit.
  for (const SaKind& k : sa_kinds())
    for (const SaFilter& f : k.filters) {
      EXPECT_TRUE(mad::find_field(*k.record, f.field)) << k.word << " " << f.word;
      EXPECT_GE(mad::component_bit(*k.record, f.field), 0) << k.word << " " << f.word;
    }
}

TEST(SaRecord, TheRecordsFieldsThenItsAttributes) {
  const SaKind& k = *find_sa_kind("ports");
  std::vector<uint8_t> r(mad::kPortInfoRecord.bytes);
  mad::set_field(mad::kPortInfoRecord, r, "EndportLID", 4);
  mad::set_field(mad::kPortInfoRecord, r, "PortNum", 2);
  EXPECT_EQ(sa_record_lid(k, r), 4);
  EXPECT_EQ(sa_record_lid(*find_sa_kind("paths"), r), 0);  // not about a node
  view::Record out;
  sa_record(k, r, 0, out);
  ASSERT_GE(out.size(), 3u);
  EXPECT_EQ(out[0].text, "lid 4 ");
  EXPECT_EQ(out[1].text, "port 2 ");
  size_t lids = 0;
  for (const view::Field& f : out) lids += f.key == "lid";
  EXPECT_EQ(lids, 1u);  // PortInfo's LID is not repeated
}

TEST(SaFixRecord, OpensmsSwappedPKeyBlockNumber) {
  const SaKind& k = *find_sa_kind("pkeys");
  std::vector<uint8_t> r(mad::kPKeyTableRecord.bytes);
  r[2] = 1;  // BlockNum 0x0100 on the wire: opensm's block 1
  sa_fix_record(k, r);
  EXPECT_EQ(r[2], 0);
  EXPECT_EQ(r[3], 1);
  sa_fix_record(k, r);  // a right one stays
  EXPECT_EQ(r[3], 1);
  std::vector<uint8_t> lft(mad::kLftRecord.bytes);
  lft[2] = 1;  // other records are not touched
  sa_fix_record(*find_sa_kind("lft"), lft);
  EXPECT_EQ(lft[2], 1);
}

}  // namespace
}  // namespace rdma::ib
