// The P_Key check and the partitions on the fabric double (tests/ibsim/net
// and fabric.net, swept): every table as the double holds it, read by
// directed route. Switch ports that enforce partitions are set here:
// ibsim keeps no PartitionEnforcementInbound/Outbound (an SM's PortInfo
// Set leaves both 0), so the switch-side cases are shown only here.
#include "lib/ib/check_pkeys.h"

#include <gtest/gtest.h>

#include "lib/ib/discover.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/fabric/topology.h"
#include "lib/testing/test_data.h"

namespace rdma::ib {
namespace {

class PKeyChecks : public ::testing::Test {
 protected:
  explicit PKeyChecks(const char* net = "net")
      : fake_(ibtest::load_topology(rdma::testdata::dir() + "/../ibsim/" + net)) {
    fake_.assign_lids();
  }
  ibtest::FabricNode& node(const char* id) { return fake_.nodes()[fake_.node(id)]; }
  // Discovery, then the tables as fabric check reads them.
  std::vector<Finding> check() {
    f_ = discover(engine_).fabric;
    std::vector<std::string> warnings;
    tables_ = read_pkey_tables(engine_, f_, true, warnings);
    EXPECT_TRUE(warnings.empty()) << warnings[0];
    return check_pkeys(f_, tables_);
  }
  uint32_t index(const char* id) { return f_.index_of(node(id).node_guid).value(); }

  ibtest::FakeFabric fake_;
  mad::Engine engine_{fake_, {100, 1, 16}};
  Fabric f_;
  PKeyTables tables_;
};

TEST_F(PKeyChecks, TheDefaultTablesGiveNoFindingAndOnePartition) {
  EXPECT_TRUE(check().empty());
  // Each CA port with a link (hca1-4 port 1); no switch port enforces, so
  // none of theirs is read.
  ASSERT_EQ(tables_.by_port.size(), 4u);
  for (const auto& [at, keys] : tables_.by_port) {
    EXPECT_FALSE(f_.nodes[at.first].is_switch());
    ASSERT_EQ(keys.size(), 64u);  // the double's PartitionCap: two blocks
    EXPECT_EQ(keys[0], 0xffff);
  }
  std::vector<Partition> parts = partitions(f_, tables_);
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(parts[0].base, kDefaultPKey);
  EXPECT_EQ(parts[0].members.size(), 4u);
}

TEST_F(PKeyChecks, ACaPortWithoutTheDefaultKeyIsAnError) {
  node("hca2").ports[1].pkeys = {0x8002};
  std::vector<Finding> v = check();
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].check, "pkeys");
  EXPECT_EQ(v[0].severity, Severity::Error);
  EXPECT_NE(v[0].what.find("without the default P_Key"), std::string::npos) << v[0].what;
  ASSERT_EQ(v[0].where.size(), 1u);
  EXPECT_EQ(v[0].where[0].node, index("hca2"));
  EXPECT_EQ(v[0].where[0].port, 1);
  // A limited member of the default partition has it.
  node("hca2").ports[1].pkeys = {0x7fff, 0x8002};
  EXPECT_TRUE(check().empty());
}

TEST_F(PKeyChecks, AnEnforcingSwitchPortIsComparedWithItsCa) {
  ibtest::FabricPort& sw = node("sw2").ports[2];  // hca4's
  ibtest::FabricPort& ca = node("hca4").ports[1];
  sw.pkey_enforce = true;
  sw.pkeys = {0xffff, 0x8002};
  ca.pkeys = {0xffff, 0x8003};
  std::vector<Finding> v = check();
  // The switch table is read now, as well as the four CAs'.
  EXPECT_EQ(tables_.by_port.size(), 5u);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].severity, Severity::Error);
  EXPECT_NE(v[0].what.find("not in its switch port's table"), std::string::npos) << v[0].what;
  EXPECT_EQ(v[0].detail, "pkey 0x8003");
  ASSERT_EQ(v[0].where.size(), 2u);
  EXPECT_EQ(v[0].where[0].node, index("hca4"));
  EXPECT_EQ(v[0].where[1].node, index("sw2"));
  EXPECT_EQ(v[0].where[1].port, 2);
  EXPECT_EQ(v[1].severity, Severity::Warning);
  EXPECT_NE(v[1].what.find("not in its CA port's table"), std::string::npos) << v[1].what;
  EXPECT_EQ(v[1].detail, "pkey 0x8002");

  // Full at the CA, limited at the switch: an error; the other way round a
  // warning.
  ca.pkeys = {0xffff, 0x8002};
  sw.pkeys = {0xffff, 0x0002};
  v = check();
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].severity, Severity::Error);
  EXPECT_EQ(v[0].detail, "pkey 0x8002 switch 0x0002");
  ca.pkeys = {0xffff, 0x0002};
  sw.pkeys = {0xffff, 0x8002};
  v = check();
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].severity, Severity::Warning);
  EXPECT_EQ(v[0].detail, "pkey 0x0002 switch 0x8002");

  // Tables that agree: nothing; nor without enforcement, whatever they hold.
  sw.pkeys = ca.pkeys;
  EXPECT_TRUE(check().empty());
  sw.pkeys = {0xffff};
  sw.pkey_enforce = false;
  EXPECT_TRUE(check().empty());
}

TEST_F(PKeyChecks, APartitionOfLimitedMembersOnlyIsAWarning) {
  node("hca2").ports[1].pkeys = {0xffff, 0x0005};
  node("hca3").ports[1].pkeys = {0xffff, 0x0005};
  std::vector<Finding> v = check();
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].severity, Severity::Warning);
  EXPECT_EQ(v[0].detail, "pkey 0x0005 members 2");
  EXPECT_EQ(v[0].where.size(), 2u);
  // One full member among them: they can talk to it.
  node("hca3").ports[1].pkeys = {0xffff, 0x8005};
  EXPECT_TRUE(check().empty());
  std::vector<Partition> parts = partitions(f_, tables_);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0].base, 0x0005);
  ASSERT_EQ(parts[0].members.size(), 2u);
  EXPECT_EQ(parts[0].members[0].port.node, index("hca2"));
  EXPECT_FALSE(parts[0].members[0].full);
  EXPECT_TRUE(parts[0].members[1].full);
}

TEST_F(PKeyChecks, AnUnreadTableIsAWarningNotAFinding) {
  fake_.drop({.match = {.node = fake_.node("hca3"), .attr = 0x0016}});
  f_ = discover(engine_).fabric;
  std::vector<std::string> warnings;
  tables_ = read_pkey_tables(engine_, f_, true, warnings);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("no P_Key table from CA \"hca3\""), std::string::npos) << warnings[0];
  EXPECT_EQ(tables_.by_port.size(), 3u);
  EXPECT_TRUE(check_pkeys(f_, tables_).empty());
}

class DualHomedPKeys : public PKeyChecks {
 protected:
  DualHomedPKeys() : PKeyChecks("fabric.net") {}
};

// h3 is cabled to s2 (port 1) and s1 (port 2): the port discovery did not
// come in by is read through the switch cabled to it, where the SMP
// arrives on that port; each port's own table comes back.
TEST_F(DualHomedPKeys, ACasOtherPortIsReadThroughItsSwitch) {
  node("h3").ports[2].pkeys = {0xffff, 0x8009};
  EXPECT_TRUE(check().empty());
  const std::vector<uint16_t>* t = tables_.find({index("h3"), 2});
  ASSERT_NE(t, nullptr);
  EXPECT_EQ((*t)[1], 0x8009);
  t = tables_.find({index("h3"), 1});
  ASSERT_NE(t, nullptr);
  EXPECT_EQ((*t)[1], 0);
}

}  // namespace
}  // namespace rdma::ib
