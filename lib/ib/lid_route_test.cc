// lid_route on the fabric double (lib/testing/fabric/client.h): hca1 LID
// 1 (the client's), sw1 LID 2 on hca1's port 1, hca2 LID 3 on sw1's port
// 2, sw2 LID 4 on sw1's port 3. The LIDs asked for are set on the far
// port first, so a LID read from that port's PortInfo is told apart from
// one the route's words or the SM's order could give.
#include "lib/ib/lid_route.h"

#include <gtest/gtest.h>

#include <numeric>
#include <string>

#include "lib/error.h"
#include "lib/mad/field.h"
#include "lib/testing/fabric/client.h"

namespace rdma::ib {
namespace {

class LidRouteTest : public ::testing::Test {
 protected:
  // Requests the fabric has received so far, all classes.
  uint64_t requests() {
    const auto& r = f_.fabric().stats().received;
    return std::accumulate(std::begin(r), std::end(r), uint64_t{0});
  }
  // lid_route's error for route, or "" when it resolved.
  std::string error_of(const mad::Route& route) {
    try {
      lid_route(f_.client(), route, "its PMA is reached by LID");
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  }
  ibtest::FabricPort& port(const char* node, int p) { return f_.node(node).ports[p]; }
  int index(const char* node) { return f_.fabric().node(node); }

  ibtest::FabricClient f_;
};

// A LID-routed target is already what GMPs need: given back unchanged,
// nothing sent.
TEST_F(LidRouteTest, ALidTargetPassesThrough) {
  uint64_t before = requests();
  mad::Route r = lid_route(f_.client(), ibtest::FabricClient::lid_route(3), "unused");
  EXPECT_FALSE(r.directed);
  EXPECT_EQ(r.lid, 3);
  EXPECT_TRUE(r.path.empty());
  EXPECT_EQ(requests(), before);
}

// dr 0,1,2 ends at hca2's port 1: its LID, read by one directed SMP that
// reached hca2.
TEST_F(LidRouteTest, DirectedRouteGivesItsPortsLid) {
  port("hca2", 1).lid = 0x123;
  uint64_t before = requests();
  uint64_t dr_before = f_.fabric().stats().received[mad::kClassSmiDr];
  mad::Route r = lid_route(f_.client(), {true, 0, {1, 2}}, "its PMA is reached by LID");
  EXPECT_FALSE(r.directed);
  EXPECT_EQ(r.lid, 0x123);
  EXPECT_TRUE(r.path.empty());
  EXPECT_EQ(requests() - before, 1u);
  EXPECT_EQ(f_.fabric().stats().received[mad::kClassSmiDr] - dr_before, 1u);
  EXPECT_EQ(f_.fabric().last_delivery().node, index("hca2"));
}

// A route ending at a switch: its port 0's LID (dr 0,1 is sw1).
TEST_F(LidRouteTest, DirectedRouteToASwitchGivesPortZerosLid) {
  port("sw1", 0).lid = 0x234;
  mad::Route r = lid_route(f_.client(), {true, 0, {1}}, "its PMA is reached by LID");
  EXPECT_FALSE(r.directed);
  EXPECT_EQ(r.lid, 0x234);
  EXPECT_EQ(f_.fabric().last_delivery().node, index("sw1"));
}

// dr lid 2 0,3 (LID-routed to sw1, then directed out of its port 3) ends
// at sw2: sw2's LID, not the 2 the route starts from.
TEST_F(LidRouteTest, CombinedRouteGivesItsEndsLid) {
  port("sw2", 0).lid = 0x345;
  mad::Route r = lid_route(f_.client(), {true, 2, {3}}, "its PMA is reached by LID");
  EXPECT_FALSE(r.directed);
  EXPECT_EQ(r.lid, 0x345);
  EXPECT_TRUE(r.path.empty());
  EXPECT_EQ(f_.fabric().last_delivery().node, index("sw2"));
}

// A port the SM has given no LID: the route named, why a LID is needed.
TEST_F(LidRouteTest, NoLidIsAnError) {
  port("hca2", 1).lid = 0;
  EXPECT_EQ(error_of({true, 0, {1, 2}}),
            "dr 0,1,2 has no LID (no subnet manager has assigned one): its PMA is reached by "
            "LID");
  // A switch's port 0 as well, through a combined route.
  port("sw2", 0).lid = 0;
  EXPECT_EQ(error_of({true, 2, {3}}),
            "dr lid 2 0,3 has no LID (no subnet manager has assigned one): its PMA is reached "
            "by LID");
}

// A port with a LID that is not Active carries no GMPs: its state named.
TEST_F(LidRouteTest, APortNotActiveIsAnError) {
  port("hca2", 1).state = ibtest::kInit;
  EXPECT_EQ(error_of({true, 0, {1, 2}}), "dr 0,1,2 is INIT, not ACTIVE: its PMA is reached by LID");
  port("hca2", 1).state = ibtest::kArmed;
  EXPECT_EQ(error_of({true, 0, {1, 2}}),
            "dr 0,1,2 is ARMED, not ACTIVE: its PMA is reached by LID");
  // Active again: resolved, so the errors above came from the state.
  port("hca2", 1).state = ibtest::kActive;
  EXPECT_EQ(error_of({true, 0, {1, 2}}), "");
}

}  // namespace
}  // namespace rdma::ib
