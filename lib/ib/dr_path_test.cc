// Directed routes to LIDs through the double's swept tables (hca1 LID 1,
// sw1 2, hca2 3, sw2 4, hca3 5, hca4 6), and a table with a hole.
#include "lib/ib/dr_path.h"

#include <gtest/gtest.h>

#include "lib/error.h"
#include "lib/ib/unicast_route.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/fabric/topology.h"
#include "lib/testing/test_data.h"

namespace rdma::ib {
namespace {

class DrPathTest : public ::testing::Test {
 protected:
  DrPathTest() : fake_(ibtest::load_topology(rdma::testdata::kNet)) { fake_.assign_lids(); }
  ibtest::FabricNode& dr_node(const char* id) { return fake_.nodes()[fake_.node(id)]; }

  ibtest::FakeFabric fake_;
  mad::Engine engine_{fake_, {100, 1, 8}};
};

TEST_F(DrPathTest, FollowsTheTablesFromTheLocalPort) {
  EXPECT_TRUE(directed_route_to(engine_, 1, 1, 1).empty());                   // the local port
  EXPECT_EQ(directed_route_to(engine_, 1, 1, 2), (std::vector<uint8_t>{1}));  // sw1 itself
  EXPECT_EQ(directed_route_to(engine_, 1, 1, 3), (std::vector<uint8_t>{1, 2}));
  std::vector<uint8_t> to_sw2 = directed_route_to(engine_, 1, 1, 4);
  ASSERT_EQ(to_sw2.size(), 2u);
  EXPECT_EQ(to_sw2[1], dr_node("sw1").lft[4]);
  std::vector<uint8_t> to_hca4 = directed_route_to(engine_, 1, 1, 6);
  EXPECT_EQ(to_hca4, (std::vector<uint8_t>{1, dr_node("sw1").lft[6], 2}));
}

TEST_F(DrPathTest, AHoleInATableNamesTheSwitch) {
  dr_node("sw2").lft[6] = kNoPort;
  try {
    directed_route_to(engine_, 1, 1, 6);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(
        std::string(e.what()).rfind("no route to lid 6: the table of the switch at dr 0,1,", 0), 0u)
        << e.what();
  }
}

}  // namespace
}  // namespace rdma::ib
