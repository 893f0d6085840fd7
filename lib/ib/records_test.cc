// The fabric views' records of a discovered fabric (the suite's, swept:
// hca1 LID 1, sw1 2, hca2 3, sw2 4, hca3 5, hca4 6).
#include "lib/ib/records.h"

#include <gtest/gtest.h>

#include "lib/ib/discover.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/fabric/topology.h"
#include "lib/testing/test_data.h"

namespace rdma::ib {
namespace {

std::string text(const view::Record& r) {
  std::string s;
  for (const view::Field& f : r) s += f.text;
  return s;
}

class Records : public ::testing::Test {
 protected:
  Records() : fake_(ibtest::load_topology(rdma::testdata::dir() + "/../ibsim/net")) {
    fake_.assign_lids();
    mad::Engine e(fake_, {100, 1, 8});
    f_ = discover(e).fabric;
  }
  uint32_t index(const char* id) {
    return f_.index_of(fake_.nodes()[fake_.node(id)].node_guid).value();
  }

  ibtest::FakeFabric fake_;
  Fabric f_;
};

TEST_F(Records, ANodeAndItsDetails) {
  view::Record r;
  node_record(f_.nodes[index("sw1")], 0, r);
  EXPECT_EQ(text(r),
            "type switch node_guid 0x0000000000200000 lids 2 ports 8 description \"sw1\" ");
  r.clear();
  node_record(f_.nodes[index("sw2")], 1, r);
  EXPECT_NE(text(r).find(" route dr 0,1,3 "), std::string::npos) << text(r);
  EXPECT_NE(text(r).find(" port_guid "), std::string::npos);
}

// A link's record starts with the host's end; between switches, the lower
// node GUID's.
TEST_F(Records, TheHostEndComesFirst) {
  PortRef h{index("hca2"), 1}, s{index("sw1"), 2};
  EXPECT_TRUE(end_first(f_, h, s));
  EXPECT_FALSE(end_first(f_, s, h));
  PortRef a{index("sw1"), 3}, b{index("sw2"), 3};
  EXPECT_EQ(end_first(f_, a, b), f_.nodes[a.node].info.node_guid < f_.nodes[b.node].info.node_guid);
  EXPECT_NE(end_first(f_, a, b), end_first(f_, b, a));
}

TEST_F(Records, ALinkFromOneEndWithItsPeer) {
  uint32_t hca2 = index("hca2");
  view::Record r;
  port_record(f_, {hca2, 1}, 0, r);
  EXPECT_EQ(text(r),
            "type ca node_guid 0x0000000000100003 port 1 port_guid 0x0000000000100004 lid 3 "
            "description \"hca2\" peer_type switch peer_node_guid 0x0000000000200000 peer_port 2 "
            "peer_lid 2 peer_description "
            "\"sw1\" width 4X speed "
            "2.5 rate 10 generation SDR state ACTIVE physical_state LINK_UP ");
  EXPECT_EQ(port_lid(f_, {index("sw1"), 5}), 2);  // a switch port: the switch's LID
  EXPECT_EQ(port_lid(f_, {hca2, 2}), 0);          // not reached
  r.clear();
  port_record(f_, {index("sw1"), 7}, 1, r);  // down, no peer
  EXPECT_NE(text(r).find("state DOWN physical_state POLLING width_supported "), std::string::npos)
      << text(r);
  EXPECT_EQ(text(r).find("peer_"), std::string::npos);
  // A down port's width and speed mean nothing: none shown.
  EXPECT_EQ(text(r).find(" width "), std::string::npos) << text(r);
  EXPECT_EQ(text(r).find(" speed "), std::string::npos) << text(r);
}

// -d: each end's own HOQLife and VLStallCount (iblinkinfo -p), the peer's
// under peer_; not without -d, and not where they are unknown (a file
// saved before them).
TEST_F(Records, EachEndsHoqLifeAndVlStallCountWithDetails) {
  PortRef h{index("hca2"), 1}, s{index("sw1"), 2};
  f_.nodes[h.node].ports[1].info->hoq_life = 0;
  f_.nodes[h.node].ports[1].info->vl_stall_count = 7;
  f_.nodes[s.node].ports[2].info->hoq_life = 16;
  f_.nodes[s.node].ports[2].info->vl_stall_count = 6;
  view::Record r;
  port_record(f_, h, 1, r);
  EXPECT_NE(text(r).find(" mtu 2048 hoq_life 0 vl_stall_count 7 peer_hoq_life 16 "
                         "peer_vl_stall_count 6 "),
            std::string::npos)
      << text(r);
  r.clear();
  port_record(f_, h, 0, r);
  EXPECT_EQ(text(r).find("hoq_life"), std::string::npos) << text(r);
  f_.nodes[s.node].ports[2].info->hoq_life.reset();
  f_.nodes[s.node].ports[2].info->vl_stall_count.reset();
  r.clear();
  port_record(f_, h, 1, r);
  EXPECT_NE(text(r).find(" hoq_life 0 vl_stall_count 7 "), std::string::npos) << text(r);
  EXPECT_EQ(text(r).find("peer_hoq_life"), std::string::npos) << text(r);
}

TEST(LinkTexts, WidthAndSpeed) {
  PortInfo p;
  p.width_active = 2;
  p.speed_active = 4;
  EXPECT_EQ(width_text(p), "4X");
  EXPECT_EQ(speed_text(p), "10.0");
  p.speed_ext_active = 1;
  EXPECT_EQ(speed_text(p), "14.0625");
  p.speed_ext_active = 2;  // EDR: LinkSpeedActive still says QDR
  EXPECT_EQ(speed_text(p), "25.78125");
  EXPECT_EQ(link_generation(p), mad::Generation::Edr);
}

}  // namespace
}  // namespace rdma::ib
