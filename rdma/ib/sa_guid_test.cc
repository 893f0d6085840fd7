// rdma sa set guid / sa delete guid: an alias GUID through the fabric
// double's SA (GuidInfoRecord SubnAdmSet / SubnAdmDelete, as opensm
// answers them), read back with sa show guids and the SMA's GUIDInfo.
#include <gtest/gtest.h>

#include "lib/ib/alias_guid.h"
#include "lib/mad/attrs.h"
#include "lib/mad/sa.h"
#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

using madtest::Result;

// The SA's tables whole, as the kernel's RMPP agent hands them over.
ibtest::FabricOptions sa_guid_options() {
  ibtest::FabricOptions o;
  o.rmpp = ibtest::RmppMode::Reassembled;
  return o;
}
class SaGuidCmd : public madtest::MadCmd {
 protected:
  SaGuidCmd() : MadCmd("net", sa_guid_options()) {}
};

TEST(AliasGuid, TheRecordAndMaskOfOneIndex) {
  uint64_t mask = 0;
  std::vector<uint8_t> r = ib::alias_guid_record({5, 10, 0x0002c90300001234ull}, mask);
  EXPECT_EQ(mask, 0x3u | 1u << (4 + 2));  // LID, BlockNum, GUID2 (index 10 = block 1 entry 2)
  EXPECT_EQ(mad::get_field(mad::kGuidInfoRecord, r, "LID"), 5u);
  EXPECT_EQ(mad::get_field(mad::kGuidInfoRecord, r, "BlockNum"), 1u);
  EXPECT_EQ(r[8 + 2 * 8], 0x00);
  EXPECT_EQ(r[8 + 2 * 8 + 2], 0xc9);
  EXPECT_EQ(ib::alias_guid_in(r, 10), 0x0002c90300001234ull);
  EXPECT_EQ(ib::alias_guid_in(r, 11), 0u);
}

TEST_F(SaGuidCmd, SaSetGuidAddsAnAliasGuidAndDeleteRemovesIt) {
  ibtest::FabricNode& hca2 = node("hca2");
  std::string lid = std::to_string(fabric_.lid(fabric_.node("hca2"), 1));
  auto j = json({"sa", "set", "guid", "lid", lid, "index", "1", "0x0002c90300001234"});
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["lid"], std::stoi(lid));
  EXPECT_EQ(j[0]["guids"][1], "0x0002c90300001234");
  ASSERT_EQ(hca2.ports[1].alias_guids.size(), 1u);
  EXPECT_EQ(hca2.ports[1].alias_guids[0], 0x0002c90300001234ull);
  const mad::Mad& set = sent_.back();
  EXPECT_EQ(set.get(mad::hdr::kMethod), mad::kSet);
  EXPECT_EQ(set.get(mad::hdr::kCompMask), 0x3u | 1u << 5);
  // Read back: the SA's records and the port's own table.
  j = json({"sa", "show", "guids", "lid", lid});
  EXPECT_EQ(j[0]["guids"][1], "0x0002c90300001234");
  j = json({"mad", "get", "GUIDInfo", "lid", lid});
  EXPECT_EQ(j[0]["guids"][1], "0x0002c90300001234");
  j = json({"sa", "delete", "guid", "lid", lid, "index", "1"});
  EXPECT_EQ(sent_.back().get(mad::hdr::kMethod), mad::kSaDelete);
  EXPECT_EQ(j[0]["guids"][1], "0x0000000000000000");
  EXPECT_EQ(hca2.ports[1].alias_guids[0], 0u);
}

// -d: the SubnAdmSet as sent and received (header, then the record).
TEST_F(SaGuidCmd, SaSetGuidWithDetailsShowsTheSetSentAndReceived) {
  std::string lid = std::to_string(fabric_.lid(fabric_.node("hca2"), 1));
  Result r = run({"-d", "sa", "set", "guid", "lid", lid, "index", "1", "0x0002c90300001234"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.rfind("> ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("class 0x03 class_version 2 response 0 method 0x02 "), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("\n< "), std::string::npos) << r.err;
}

TEST_F(SaGuidCmd, SaSetGuidRefusalsAndWrongWords) {
  std::string lid = std::to_string(fabric_.lid(fabric_.node("hca2"), 1));
  Result r = run({"sa", "set", "guid", "lid", lid, "index", "0", "0x1234"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err,
            "GuidInfoRecord Set at the SA at lid 1 failed: status 0x0200 (invalid SA request)\n");
  size_t sent = sent_.size();
  EXPECT_EQ(run({"sa", "set", "guid", "lid", lid, "0x1234"}).err,
            "missing \"index N\" (the GUID's place in the port's table)\n");
  EXPECT_EQ(run({"sa", "set", "guid", "lid", lid, "index", "1"}).err, "missing GUID to set\n");
  EXPECT_EQ(run({"sa", "set", "guid", "lid", lid, "index", "255", "0x1"}).err,
            "invalid GUID index \"255\"\n");
  EXPECT_EQ(run({"sa", "set", "pkey", "lid", lid}).err, "unknown sa set record \"pkey\" (guid)\n");
  EXPECT_EQ(sent_.size(), sent);
}

}  // namespace
}  // namespace rdma
