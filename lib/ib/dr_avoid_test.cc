// Routes around changed ports and the far-first order, on the suite's
// fabric (tests/ibsim/net: hca1 - sw1, sw1 = sw2 by ports 3 and 4).
#include "lib/ib/dr_avoid.h"

#include <gtest/gtest.h>

#include "lib/ib/discover.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/test_data.h"

namespace rdma::ib {
namespace {

Fabric discover_dr_avoid_net() {
  ibtest::FakeFabric f(ibtest::load_topology(testdata::kNet));
  f.assign_lids();
  mad::Engine e(f, {100, 2, 8});
  return discover(e).fabric;
}

uint32_t dr_avoid_index(const Fabric& f, const char* desc) {
  for (uint32_t i = 0; i < f.nodes.size(); ++i)
    if (f.nodes[i].description == desc) return i;
  ADD_FAILURE() << desc;
  return 0;
}

TEST(DrAvoid, ShortestRouteAndTheWayAroundACutPort) {
  Fabric f = discover_dr_avoid_net();
  uint32_t sw2 = dr_avoid_index(f, "sw2"), sw1 = dr_avoid_index(f, "sw1");
  EXPECT_EQ(dr_path_avoiding(f, 1, sw2, {}), (std::vector<uint8_t>{1, 3}));
  EXPECT_EQ(dr_path_avoiding(f, 1, sw2, {{sw2, 3}}), (std::vector<uint8_t>{1, 4}));
  EXPECT_EQ(dr_path_avoiding(f, 1, sw2, {{sw1, 3}, {sw1, 4}}), std::nullopt);
  EXPECT_EQ(dr_path_avoiding(f, 1, 0, {{0, 1}}), (std::vector<uint8_t>{}));  // the local node
  uint32_t hca4 = dr_avoid_index(f, "hca4");
  EXPECT_EQ(dr_path_avoiding(f, 1, hca4, {}), (std::vector<uint8_t>{1, 3, 2}));
}

TEST(DrAvoid, FarLinksFirstFromTheirNearerSwitchEnd) {
  Fabric f = discover_dr_avoid_net();
  std::vector<PortRef> ends = far_first_link_ends(f, 1);
  ASSERT_EQ(ends.size(), 6u);
  std::vector<int> hops = hops_from_local(f, 1);
  for (size_t i = 1; i < ends.size(); ++i) EXPECT_GE(hops[ends[i - 1].node], hops[ends[i].node]);
  EXPECT_EQ(ends.back(), (PortRef{0, 1}));  // the local port last
  for (const PortRef& e : ends)
    EXPECT_TRUE(f.nodes[e.node].is_switch() || e.node == 0) << f.nodes[e.node].description;
}

}  // namespace
}  // namespace rdma::ib
