// P_Keys: the key text, a table's memberships (empty entries, a base given
// both ways), which switch ports enforce, and the tables read on the
// fabric double (tests/ibsim/net, swept) with a node that does not answer.
#include "lib/ib/pkeys.h"

#include <gtest/gtest.h>

#include "lib/ib/discover.h"
#include "lib/mad/attrs.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/fabric/topology.h"
#include "lib/testing/test_data.h"

namespace rdma::ib {
namespace {

TEST(PKeys, KeyTextHasFourDigits) {
  EXPECT_EQ(pkey_text(0), "0x0000");
  EXPECT_EQ(pkey_text(0x7fff), "0x7fff");
  EXPECT_EQ(pkey_text(0x8002), "0x8002");
  EXPECT_EQ(pkey_text(0xffff), "0xffff");
}

// 0x0000 and 0x8000 are empty entries; a base listed limited and full is
// full whichever comes first.
TEST(PKeys, MembershipsOfATable) {
  EXPECT_TRUE(memberships({}).empty());
  EXPECT_TRUE(memberships({0, 0x8000, 0}).empty());
  Memberships m = memberships({0xffff, 0x0002, 0x8003, 0x0003, 0x8004, 0x0004, 0x7fff});
  EXPECT_EQ(m, (Memberships{{0x0002, false}, {0x0003, true}, {0x0004, true}, {0x7fff, true}}));
  EXPECT_EQ(memberships({0x7fff}), (Memberships{{0x7fff, false}}));
}

class PKeyRead : public ::testing::Test {
 protected:
  PKeyRead() : fake_(ibtest::load_topology(rdma::testdata::dir() + "/../ibsim/net")) {
    fake_.assign_lids();
  }
  ibtest::FabricNode& node(const char* id) { return fake_.nodes()[fake_.node(id)]; }
  uint32_t index(const char* id) { return f_.index_of(node(id).node_guid).value(); }
  PKeyTables read(bool switches) {
    f_ = discover(engine_).fabric;
    warnings_.clear();
    return read_pkey_tables(engine_, f_, switches, warnings_);
  }

  ibtest::FakeFabric fake_;
  mad::Engine engine_{fake_, {100, 1, 16}};
  Fabric f_;
  std::vector<std::string> warnings_;
};

// Only a switch port whose PortInfo enforces, on a switch that can, and
// never port 0 or a CA.
TEST_F(PKeyRead, EnforcingPortsAreTheSwitchesThatSaySo) {
  node("sw2").ports[2].pkey_enforce = true;
  read(false);
  uint32_t sw2 = index("sw2");
  EXPECT_TRUE(enforces_pkeys(f_, {sw2, 2}));
  EXPECT_FALSE(enforces_pkeys(f_, {sw2, 1}));
  EXPECT_FALSE(enforces_pkeys(f_, {sw2, 0}));
  EXPECT_FALSE(enforces_pkeys(f_, {index("hca4"), 1}));
  f_.nodes[sw2].sw->partition_enforcement_cap = 0;  // a switch that cannot
  EXPECT_FALSE(enforces_pkeys(f_, {sw2, 2}));
}

// Each CA port's whole table (its capacity, entries past the double's
// keys read 0); an enforcing switch port's only when switches are asked.
TEST_F(PKeyRead, TablesWholeAndSwitchesOnRequest) {
  node("hca2").ports[1].pkeys = {0xffff, 0x0005, 0x8006};
  node("sw2").ports[2].pkey_enforce = true;
  node("sw2").ports[2].pkeys = {0xffff, 0x8006};
  PKeyTables without = read(false);
  EXPECT_TRUE(warnings_.empty());
  EXPECT_EQ(without.by_port.size(), 4u);
  const std::vector<uint16_t>* t = without.find({index("hca2"), 1});
  ASSERT_NE(t, nullptr);
  ASSERT_EQ(t->size(), 64u);
  EXPECT_EQ((*t)[1], 0x0005);
  EXPECT_EQ((*t)[2], 0x8006);
  EXPECT_EQ((*t)[63], 0);
  EXPECT_EQ(without.find({index("sw2"), 2}), nullptr);
  PKeyTables with = read(true);
  ASSERT_NE(with.find({index("sw2"), 2}), nullptr);
  EXPECT_EQ((*with.find({index("sw2"), 2}))[1], 0x8006);
  // Partitions: switches' tables are not members.
  std::vector<Partition> parts = partitions(f_, with);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[0].base, 0x0005);
  ASSERT_EQ(parts[0].members.size(), 1u);
  EXPECT_FALSE(parts[0].members[0].full);
  EXPECT_EQ(parts[1].base, 0x0006);
  EXPECT_TRUE(parts[1].members[0].full);
  EXPECT_EQ(parts[2].base, kDefaultPKey);
  EXPECT_EQ(parts[2].members.size(), 4u);
}

// A CA that stops answering P_KeyTable: its table is left out with a
// warning naming it, the others are read.
TEST_F(PKeyRead, ATableNotReadIsAWarning) {
  f_ = discover(engine_).fabric;
  fake_.drop({{fake_.node("hca3"), -1, mad::kPKeyTable.id}});
  PKeyTables t = read_pkey_tables(engine_, f_, false, warnings_);
  EXPECT_EQ(t.by_port.size(), 3u);
  EXPECT_EQ(t.find({index("hca3"), 1}), nullptr);
  ASSERT_EQ(warnings_.size(), 1u);
  EXPECT_EQ(warnings_[0].rfind("no P_Key table from CA ", 0), 0u) << warnings_[0];
  EXPECT_NE(warnings_[0].find(" port 1: "), std::string::npos) << warnings_[0];
}

// A CA with a capacity of 0 has an empty table, asked nothing.
TEST_F(PKeyRead, NoCapacityNoKeys) {
  f_ = discover(engine_).fabric;
  f_.nodes[index("hca2")].info.partition_cap = 0;
  PKeyTables t = read_pkey_tables(engine_, f_, false, warnings_);
  ASSERT_NE(t.find({index("hca2"), 1}), nullptr);
  EXPECT_TRUE(t.find({index("hca2"), 1})->empty());
  EXPECT_TRUE(warnings_.empty());
}

}  // namespace
}  // namespace rdma::ib
