// rdma port peer against the fabric double (tests/ibsim/net, swept), seen
// through hca1 port 1 (cabled to sw1 port 1): the peer by directed route,
// text and JSON; a port whose link is down; words that name no port.
#include <gtest/gtest.h>

#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

class PortPeerCmd : public madtest::MadCmd {};

TEST_F(PortPeerCmd, TheSwitchAtTheOtherEndOfTheCable) {
  test::Result r = run({"port", "peer"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "dev fabric0 type ca node_guid " + guid(node("hca1").node_guid) +
                       " port 1 port_guid " + guid(node("hca1").ports[1].guid) +
                       " lid 1 description \"hca1\" peer_type switch peer_node_guid " +
                       guid(node("sw1").node_guid) +
                       " peer_port 1 peer_lid 2 peer_description \"sw1\" width 4X speed 2.5 rate "
                       "10 generation SDR state ACTIVE physical_state LINK_UP\n");
  EXPECT_EQ(run({"port", "peer", "fabric0/1"}).out, r.out);
  EXPECT_EQ(run({"port", "peer", "fabric0"}).out, r.out);
  // The MADs: directed routes "0" and "0,1", nothing by LID.
  for (const mad::Mad& m : sent_) EXPECT_EQ(m.bytes[1], mad::kClassSmiDr);
  nlohmann::json j = json({"port", "peer"});
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["dev"], "fabric0");
  EXPECT_EQ(j[0]["port"], 1);
  EXPECT_EQ(j[0]["peer_description"], "sw1");
  EXPECT_EQ(j[0]["peer_port"], 1);
  EXPECT_EQ(j[0]["peer_lid"], 2);
  EXPECT_EQ(j[0]["state"], "ACTIVE");
}

TEST_F(PortPeerCmd, AWordThatNamesNoLocalPortIsRefusedWithTheChoices) {
  test::Result r = run({"port", "peer", "fabric0/2"});
  EXPECT_EQ(r.status, 1);  // bad input: iproute2's failure status
  EXPECT_EQ(r.err,
            "unknown local InfiniBand port \"fabric0/2\" (fabric0/1); did you mean "
            "\"fabric0/1\"?\n");
  EXPECT_TRUE(sent_.empty());
  EXPECT_EQ(run({"port", "peer", "fabric0/1", "extra"}).status, 1);
}

// A port whose link is down (here hca1 port 1 as the double reports it):
// a record with its state, no peer, exit 0; nothing sent past the port.
TEST_F(PortPeerCmd, ADownPortIsARecordWithoutAPeer) {
  node("hca1").ports[1].state = ibtest::kDown;
  test::Result r = run({"-j", "port", "peer"});
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["port"], 1);
  EXPECT_EQ(j[0]["state"], "DOWN");
  EXPECT_FALSE(j[0].contains("peer_node_guid"));
  EXPECT_FALSE(j[0].contains("width"));
  for (const mad::Mad& m : sent_) EXPECT_EQ(m.get(mad::hdr::kHopCount), 0u) << "hop count";
}

}  // namespace
}  // namespace rdma
