// Forwarding tables read from the fabric double (the suite's fabric, swept:
// hca1 LID 1, sw1 2, hca2 3, sw2 4, hca3 5, hca4 6), what sits at each LID,
// and traces through the tables, healthy and broken.
#include "lib/ib/unicast_route.h"

#include <gtest/gtest.h>

#include "lib/error.h"
#include "lib/ib/discover.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/fabric/topology.h"
#include "lib/testing/test_data.h"

namespace rdma::ib {
namespace {

class Route : public ::testing::Test {
 protected:
  Route() : fake_(ibtest::load_topology(rdma::testdata::dir() + "/../ibsim/net")) {
    fake_.assign_lids();
  }
  ibtest::FabricNode& node(const char* id) { return fake_.nodes()[fake_.node(id)]; }
  Fabric discovered() { return discover(engine_).fabric; }
  uint32_t index(const Fabric& f, const char* id) { return f.index_of(node(id).node_guid).value(); }

  ibtest::FakeFabric fake_;
  mad::Engine engine_{fake_, {100, 1, 8}};
};

TEST_F(Route, ReadLftGivesTheSwitchsTableInRange) {
  Lft t = read_lft(engine_, {false, 2, {}}, 0, 0xbfff);
  EXPECT_EQ(t.first, 0);
  ASSERT_EQ(t.ports.size(), size_t{t.top} + 1);
  for (uint16_t lid = 1; lid <= 6; ++lid) EXPECT_EQ(t.ports[lid], node("sw1").lft.at(lid)) << lid;
  Lft part = read_lft(engine_, {false, 2, {}}, 3, 4);
  EXPECT_EQ(part.first, 3);
  EXPECT_EQ(part.ports, (std::vector<uint8_t>{node("sw1").lft[3], node("sw1").lft[4]}));
  EXPECT_EQ(lft_port(engine_, {false, 4, {}}, 5), node("sw2").lft[5]);
  try {
    read_lft(engine_, {false, 3, {}}, 0, 10);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "lid 3 is not a switch; only switches forward by LID");
  }
}

TEST_F(Route, ReadMftGivesEachMlidsPorts) {
  node("sw1").mft[0xc001] = (1u << 1) | (1u << 3);
  Mft t = read_mft(engine_, {false, 2, {}}, 0xc000, 0xc001);
  EXPECT_EQ(t.first, 0xc000);
  ASSERT_EQ(t.masks.size(), 2u);
  EXPECT_TRUE(t.masks[1][1]);
  EXPECT_TRUE(t.masks[1][3]);
  EXPECT_EQ(t.masks[1].count(), 2u);
}

TEST_F(Route, LidOwnersAreSwitchPort0AndCaPorts) {
  Fabric f = discovered();
  std::map<uint16_t, PortRef> o = lid_owners(f);
  ASSERT_EQ(o.size(), 6u);
  EXPECT_EQ(o.at(2), (PortRef{index(f, "sw1"), 0}));
  EXPECT_EQ(o.at(5), (PortRef{index(f, "hca3"), 1}));
}

TEST_F(Route, TraceFollowsTheTables) {
  Fabric f = discovered();
  auto lookup = [&](uint32_t n, uint16_t lid) {
    return lft_port(engine_, {true, 0, f.nodes[n].path}, lid);
  };
  std::vector<Hop> hops = trace(f, {0, 1}, 5, lookup);  // hca1 to hca3
  ASSERT_EQ(hops.size(), 4u);
  EXPECT_EQ(hops[0].node, (PortRef{index(f, "hca1"), 1}));
  EXPECT_EQ(hops[0].out_port, 1);
  EXPECT_EQ(hops[1].node.node, index(f, "sw1"));
  EXPECT_EQ(hops[1].in_port, 1);
  EXPECT_EQ(hops[2].node.node, index(f, "sw2"));
  EXPECT_EQ(hops[2].out_port, 1);
  EXPECT_EQ(hops[3].node, (PortRef{index(f, "hca3"), 1}));
  EXPECT_EQ(hops[3].in_port, 1);
  EXPECT_EQ(hops[3].out_port, 0);
  EXPECT_THROW(trace(f, {0, 1}, 9, lookup), Error);  // nobody's LID
}

TEST_F(Route, ATraceNamesAHoleAndALoop) {
  Fabric f = discovered();
  uint32_t sw1 = index(f, "sw1"), sw2 = index(f, "sw2");
  auto hole = [&](uint32_t n, uint16_t lid) -> uint8_t {
    return n == sw2 ? kNoPort : lft_port(engine_, {true, 0, f.nodes[n].path}, lid);
  };
  try {
    trace(f, {0, 1}, 5, hole);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("hole in the forwarding tables: switch "),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("(\"sw2\") has no route to LID 5"), std::string::npos)
        << e.what();
  }
  // sw1 sends LID 5 to sw2 and sw2 sends it back.
  auto loop = [&](uint32_t n, uint16_t) -> uint8_t { return n == sw1 ? 3 : 3; };
  try {
    trace(f, {0, 1}, 5, loop);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("loop in the forwarding tables: LID 5 comes back to"),
              std::string::npos)
        << e.what();
  }
}

// ibtracert -m: the walk through the MFTs. The double's broadcast group
// 0xc000 spans sw1 and sw2 (the ISL sw1:3-sw2:3 in it), every CA a member.
TEST_F(Route, TraceMcastFollowsTheMfts) {
  Fabric f = discovered();
  int lookups = 0;
  auto lookup = [&](uint32_t n, uint16_t mlid) {
    ++lookups;
    Mft t = read_mft(engine_, {true, 0, f.nodes[n].path}, mlid, mlid);
    return t.masks.empty() ? std::bitset<256>() : t.masks[0];
  };
  uint32_t hca1 = index(f, "hca1");
  std::vector<Hop> hops = trace_mcast(f, {hca1, 1}, 5, 0xc000, lookup);  // hca1 to hca3
  ASSERT_EQ(hops.size(), 4u);
  EXPECT_EQ(hops[0].node, (PortRef{hca1, 1}));
  EXPECT_EQ(hops[0].in_port, 0);
  EXPECT_EQ(hops[0].out_port, 1);
  EXPECT_EQ(hops[1].node, (PortRef{index(f, "sw1"), 0}));
  EXPECT_EQ(hops[1].in_port, 1);
  EXPECT_TRUE(node("sw1").mft.at(0xc000) >> hops[1].out_port & 1);
  EXPECT_EQ(hops[2].node, (PortRef{index(f, "sw2"), 0}));
  EXPECT_EQ(hops[2].out_port, 1);
  EXPECT_EQ(hops[3].node, (PortRef{index(f, "hca3"), 1}));
  EXPECT_EQ(hops[3].in_port, 1);
  EXPECT_EQ(hops[3].out_port, 0);
  EXPECT_EQ(lookups, 2);

  // The unicast trace agrees on the switches when the tables do.
  std::vector<Hop> uni = trace(f, {hca1, 1}, 5, [&](uint32_t n, uint16_t lid) {
    return lft_port(engine_, {true, 0, f.nodes[n].path}, lid);
  });
  ASSERT_EQ(uni.size(), 4u);
  EXPECT_EQ(uni[2].node, hops[2].node);
}

TEST_F(Route, TraceMcastFailsWhereTheGroupStops) {
  Fabric f = discovered();
  // sw2 forwards the group nowhere but back: hca3 is out of reach.
  std::map<uint32_t, std::bitset<256>> masks;
  masks[index(f, "sw1")] = std::bitset<256>((1u << 1) | (1u << 2) | (1u << 3) | (1u << 4));
  masks[index(f, "sw2")] = std::bitset<256>((1u << 3) | (1u << 4));
  auto lookup = [&](uint32_t n, uint16_t) { return masks[n]; };
  try {
    trace_mcast(f, {index(f, "hca1"), 1}, 5, 0xc001, lookup);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "no multicast route for MLID 0xc001 to LID 5: the tables of the 2 switches the "
                 "group reaches do not lead there");
  }
  // sw1 forwards it only back to hca1: one switch, said in the singular.
  auto only_back = [&](uint32_t, uint16_t) { return std::bitset<256>(1u << 1); };
  try {
    trace_mcast(f, {index(f, "hca1"), 1}, 5, 0xc001, only_back);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "no multicast route for MLID 0xc001 to LID 5: the table of the one switch the "
                 "group reaches does not lead there");
  }
  // From a switch: sw1 to hca2 is one hop out of port 2.
  std::vector<Hop> hops = trace_mcast(f, {index(f, "sw1"), 0}, 3, 0xc001, lookup);
  ASSERT_EQ(hops.size(), 2u);
  EXPECT_EQ(hops[0].out_port, 2);
  EXPECT_EQ(hops[1].node, (PortRef{index(f, "hca2"), 1}));
}

}  // namespace
}  // namespace rdma::ib
