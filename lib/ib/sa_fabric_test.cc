// The fabric from the SA's records of the fabric double, against the one
// discovery finds by directed route.
#include "lib/ib/sa_fabric.h"

#include <gtest/gtest.h>

#include "lib/error.h"
#include "lib/ib/discover.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/fabric/topology.h"
#include "lib/testing/test_data.h"

namespace rdma::ib {
namespace {

using testdata::kNet;

// Tables as the kernel hands them to an agent registered with RMPP.
ibtest::FabricOptions reassembled() {
  ibtest::FabricOptions o;
  o.rmpp = ibtest::RmppMode::Reassembled;
  return o;
}

class FabricFromSa : public ::testing::Test {
 protected:
  explicit FabricFromSa(ibtest::FabricOptions o = reassembled())
      : fake_(ibtest::load_topology(kNet), o) {
    fake_.assign_lids();
  }
  Fabric from_sa(std::vector<std::string>& warnings) {
    mad::LocalPort lp = fake_.local_port();
    return fabric_from_sa(engine_, lp.sm_lid, lp.port_guid, warnings);
  }

  ibtest::FakeFabric fake_;
  mad::Engine engine_{fake_, {100, 1, 8}};
};

TEST_F(FabricFromSa, LaidOutAsDiscoveryLaysItOut) {
  std::vector<std::string> warnings;
  Fabric sa = from_sa(warnings);
  EXPECT_TRUE(warnings.empty());
  uint64_t smps = fake_.stats().received[0x81] + fake_.stats().received[0x01];
  EXPECT_EQ(smps, 0u);  // records only
  Fabric d = discover(engine_).fabric;
  ASSERT_EQ(sa.nodes.size(), d.nodes.size());
  for (size_t i = 0; i < d.nodes.size(); ++i) {
    EXPECT_EQ(sa.nodes[i].info.node_guid, d.nodes[i].info.node_guid) << i;
    EXPECT_EQ(sa.nodes[i].description, d.nodes[i].description) << i;
    EXPECT_EQ(sa.nodes[i].path, d.nodes[i].path) << i;
    EXPECT_EQ(sa.nodes[i].lids(), d.nodes[i].lids()) << i;
  }
  std::vector<Link> a = sa.links(), b = d.links();
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].a, b[i].a) << i;
    EXPECT_EQ(a[i].b, b[i].b) << i;
  }
  EXPECT_TRUE(sa.nodes[0].ports[1].info);
  EXPECT_EQ(sa.nodes[0].ports[1].guid, fake_.local_port().port_guid);
}

// The SA's SwitchInfoRecords carry MulticastFDBTop, so read_mfts need not
// ask the switches for it.
TEST_F(FabricFromSa, SwitchesKeepTheSasMulticastTop) {
  int sw1 = fake_.node("sw1");
  fake_.nodes()[sw1].mcast_fdb_top = 0xc01f;
  std::vector<std::string> warnings;
  Fabric sa = from_sa(warnings);
  size_t switches = 0;
  for (const Node& n : sa.nodes) {
    if (!n.sw) continue;
    ++switches;
    bool is_sw1 = n.info.node_guid == fake_.nodes()[sw1].node_guid;
    EXPECT_EQ(n.sw->mcast_fdb_top, uint16_t{is_sw1 ? uint16_t{0xc01f} : uint16_t{0}});
  }
  EXPECT_EQ(switches, 2u);
}

TEST_F(FabricFromSa, AnUnknownLocalPortIsAnError) {
  std::vector<std::string> warnings;
  try {
    fabric_from_sa(engine_, 1, 0x1234, warnings);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "the SA has no NodeRecord of the local port");
  }
}

class FabricFromSaFirstOnly : public FabricFromSa {
 protected:
  FabricFromSaFirstOnly() : FabricFromSa(options()) {}
  static ibtest::FabricOptions options() {
    ibtest::FabricOptions o;
    o.rmpp = ibtest::RmppMode::FirstOnly;
    return o;
  }
};

TEST_F(FabricFromSaFirstOnly, TablesCutShortAreWarnings) {
  std::vector<std::string> warnings;
  Fabric f = from_sa(warnings);
  ASSERT_FALSE(warnings.empty());
  EXPECT_NE(warnings[0].find("table lacks"), std::string::npos) << warnings[0];
  EXPECT_FALSE(f.nodes.empty());
}

}  // namespace
}  // namespace rdma::ib
