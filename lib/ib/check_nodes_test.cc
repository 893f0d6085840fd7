// The nodes check on the fabric double (tests/ibsim/plan-built.net: a
// second node described "h2"), with descriptions and revisions changed.
#include "lib/ib/check_nodes.h"

#include <gtest/gtest.h>

#include "lib/ib/discover.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/fabric/topology.h"
#include "lib/testing/test_data.h"

namespace rdma::ib {
namespace {

Fabric built_fabric(const char* net) {
  ibtest::FakeFabric fake(ibtest::load_topology(rdma::testdata::dir() + "/../ibsim/" + net));
  fake.assign_lids();
  mad::Engine e(fake, {100, 1, 16});
  return discover(e).fabric;
}

uint32_t named(const Fabric& f, const char* d) {
  for (uint32_t n = 0; n < f.nodes.size(); ++n)
    if (f.nodes[n].description == d) return n;
  return 0;
}

TEST(NodesCheck, ACleanFabricHasNoFinding) {
  EXPECT_TRUE(check_nodes(built_fabric("plan.net")).empty());
}

TEST(NodesCheck, DuplicateAndDefaultDescriptionsAndMixedRevisions) {
  Fabric f = built_fabric("plan-built.net");
  f.nodes[named(f, "h5")].description = "MT4119 ConnectX5 Mellanox Technologies";
  f.nodes[named(f, "s2")].info.revision = 0xa2;  // ibsim gives 0xa1
  std::vector<Finding> v = check_nodes(f);
  ASSERT_EQ(v.size(), 3u) << v[0].what << " | " << v[1].what;
  EXPECT_EQ(v[0].what, "description \"h2\" on 2 nodes");
  EXPECT_EQ(v[0].where.size(), 2u);
  EXPECT_EQ(v[1].what,
            "CA with a default description \"MT4119 ConnectX5 Mellanox Technologies\" (is "
            "rdma-ndd running?)");
  EXPECT_EQ(v[2].what, "switches of VendorID 0x0 DeviceID 0x0 at 2 revisions: 0xa1 (1), 0xa2 (1)");
  for (const Finding& x : v) {
    EXPECT_EQ(x.check, "nodes");
    EXPECT_EQ(x.severity, Severity::Warning);
  }
}

TEST(NodesCheck, DefaultDescriptions) {
  EXPECT_TRUE(default_description(""));
  EXPECT_TRUE(default_description("MT25408 ConnectX Mellanox Technologies"));
  EXPECT_TRUE(default_description("Mellanox Technologies"));
  EXPECT_FALSE(default_description("node17 mlx5_0"));
  EXPECT_FALSE(default_description("MF0;leaf1:MQM8700/U1"));
}

}  // namespace
}  // namespace rdma::ib
