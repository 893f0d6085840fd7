// PortState read again after discovery, on the fabric double
// (tests/ibsim/net, swept): every Active port asked once, a port that went
// down seen Down, a node reached by LID when its directed route fails, and
// a node that cannot be reached left out.
#include "lib/ib/port_states.h"

#include <gtest/gtest.h>

#include "lib/ib/discover.h"
#include "lib/mad/attrs.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/fabric/topology.h"
#include "lib/testing/test_data.h"

namespace rdma::ib {
namespace {

class PortStateRead : public ::testing::Test {
 protected:
  PortStateRead() : fake_(ibtest::load_topology(rdma::testdata::dir() + "/../ibsim/net")) {
    fake_.assign_lids();
    f_ = discover(engine_).fabric;
  }
  uint32_t index(const char* id) {
    return f_.index_of(fake_.nodes()[fake_.node(id)].node_guid).value();
  }

  ibtest::FakeFabric fake_;
  mad::Engine engine_{fake_, {100, 1, 16}};
  Fabric f_;
};

// The four CA ports and the switches' four linked ports each: Active; no
// port 0, no port that was down at discovery.
TEST_F(PortStateRead, EveryActivePortOnce) {
  PortStates s = read_port_states(engine_, f_, {});
  EXPECT_EQ(s.size(), 12u);
  for (const auto& [at, state] : s) {
    EXPECT_NE(at.second, 0);
    EXPECT_EQ(state, mad::kPortActive);
  }
  EXPECT_EQ(s.count({index("sw1"), 5}), 0u);  // never linked
  EXPECT_EQ(s.count({index("hca1"), 2}), 0u);
}

// hca3's link goes down after discovery: sw2 reports its port 1 Down; hca3
// answers by no route, so it is absent (not guessed).
TEST_F(PortStateRead, ALinkDownSinceDiscovery) {
  fake_.unlink(fake_.node("hca3"), 1);
  PortStates s = read_port_states(engine_, f_, {});
  ASSERT_EQ(s.count({index("sw2"), 1}), 1u);
  EXPECT_EQ(s.at({index("sw2"), 1}), ibtest::kDown);
  EXPECT_EQ(s.count({index("hca3"), 1}), 0u);
  EXPECT_EQ(s.at({index("sw2"), 2}), mad::kPortActive);
}

// Directed route SMPs to hca2 unanswered: asked again by its LID.
TEST_F(PortStateRead, ByLidWhenTheDirectedRouteFails) {
  fake_.drop({{fake_.node("hca2"), mad::kClassSmiDr, mad::kPortInfo.id}});
  PortStates s = read_port_states(engine_, f_, {});
  ASSERT_EQ(s.count({index("hca2"), 1}), 1u);
  EXPECT_EQ(s.at({index("hca2"), 1}), mad::kPortActive);
  EXPECT_EQ(s.size(), 12u);
}

// A selection: one node's one port; a port not Active at discovery is not
// asked.
TEST_F(PortStateRead, OnlyWhatIsSelected) {
  NodeSelect one;
  one.node = index("sw1");
  one.port = 3;
  PortStates s = read_port_states(engine_, f_, one);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s.begin()->first, std::make_pair(index("sw1"), uint8_t{3}));
  f_.nodes[index("sw1")].ports[3].info->state = ibtest::kInit;
  EXPECT_TRUE(read_port_states(engine_, f_, one).empty());
}

}  // namespace
}  // namespace rdma::ib
