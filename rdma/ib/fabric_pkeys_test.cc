// rdma fabric show pkeys and fabric check pkeys against the fabric double
// (tests/ibsim/net, swept): the partitions with their members, text and
// JSON; the check's findings through fabric check; a saved fabric's nodes
// read live.
#include <gtest/gtest.h>

#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

class FabricPKeysCmd : public madtest::MadCmd {};

TEST_F(FabricPKeysCmd, ShowPKeysListsEachPartitionWithItsMembers) {
  node("hca3").ports[1].pkeys = {0xffff, 0x8002};
  node("hca4").ports[1].pkeys = {0xffff, 0x0002};
  test::Result r = run({"fabric", "show", "pkeys"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')), "pkey 0x0002 full 1 limited 1");
  EXPECT_NE(r.out.find("\t\"hca3\" " + guid(node("hca3").node_guid) + " port 1 lid 5 full\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\t\"hca4\" " + guid(node("hca4").node_guid) + " port 1 lid 6 limited\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("pkey 0x7fff full 4 limited 0\n"), std::string::npos) << r.out;
  nlohmann::json j = json({"fabric", "show", "pkeys"});
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[0]["pkey"], "0x0002");
  EXPECT_EQ(j[0]["full"], 1);
  EXPECT_EQ(j[0]["limited"], 1);
  ASSERT_EQ(j[0]["members"].size(), 2u);
  EXPECT_EQ(j[0]["members"][1]["description"], "hca4");
  EXPECT_EQ(j[0]["members"][1]["port"], 1);
  EXPECT_EQ(j[0]["members"][1]["lid"], 6);
  EXPECT_EQ(j[0]["members"][1]["membership"], "limited");
  EXPECT_EQ(j[1]["members"].size(), 4u);
}

TEST_F(FabricPKeysCmd, ShowRefusesAnUnknownWordNamingPKeys) {
  test::Result r = run({"fabric", "show", "partitions"});
  EXPECT_EQ(r.status, 1);  // bad input: iproute2's failure status
  EXPECT_NE(r.err.find("pkeys"), std::string::npos) << r.err;
  EXPECT_EQ(run({"fabric", "show", "pkeys", "extra"}).status, 1);
}

TEST_F(FabricPKeysCmd, CheckPKeysFindsAMissingDefaultKeyAndRunsByDefault) {
  test::Result r = run({"fabric", "check", "pkeys"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "summary: 6 nodes checked (pkeys), 0 errors, 0 warnings, 0 notes\n");
  node("hca2").ports[1].pkeys = {0x8002};
  r = run({"fabric", "check"});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.out.find("check pkeys severity error what \"CA port without the default P_Key "
                       "(0x7fff or 0xffff): no way to the SA\" where \"hca2\" " +
                       guid(node("hca2").node_guid) + " port 1 lid 3\n"),
            std::string::npos)
      << r.out;
  nlohmann::json j = json({"fabric", "check", "pkeys"}, 1);
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["check"], "pkeys");
  EXPECT_EQ(j[0]["where"][0]["description"], "hca2");
}

TEST_F(FabricPKeysCmd, AnEnforcingSwitchPortMissingTheCasKeyIsAnError) {
  // ibsim keeps no partition enforcement bits: this case is the double's.
  node("sw2").ports[2].pkey_enforce = true;
  node("hca4").ports[1].pkeys = {0xffff, 0x8003};
  nlohmann::json j = json({"fabric", "check", "pkeys"}, 1);
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["severity"], "error");
  EXPECT_EQ(j[0]["detail"], "pkey 0x8003");
  ASSERT_EQ(j[0]["where"].size(), 2u);
  EXPECT_EQ(j[0]["where"][1]["description"], "sw2");
  EXPECT_EQ(j[0]["where"][1]["port"], 2);
}

}  // namespace
}  // namespace rdma
