// rdma route show all and route users against the fabric double on the
// fabric suite's topology (tests/ibsim/fabric.net: three switches, parallel
// links between s1 and s2, h3 on both).
#include <gtest/gtest.h>

#include <set>

#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

class RouteAllCmd : public madtest::MadCmd {
 protected:
  RouteAllCmd() : MadCmd("fabric.net") {}
  // The descriptions of the CA ports whose LIDs sw's table sends out of port.
  std::multiset<std::string> routed(const char* sw, int port) {
    std::multiset<std::string> out;
    const ibtest::FabricNode& s = node(sw);
    for (const ibtest::FabricNode& n : fabric_.nodes())
      for (size_t p = 1; p < n.ports.size(); ++p)
        if (!n.is_switch() && n.ports[p].lid && s.lft.at(n.ports[p].lid) == port)
          out.insert(n.description);
    return out;
  }
  std::multiset<std::string> users(const nlohmann::json& j, const char* direction) {
    std::multiset<std::string> out;
    for (const auto& e : j)
      if (e["direction"] == direction) out.insert(e["description"].get<std::string>());
    return out;
  }
};

TEST_F(RouteAllCmd, ShowAllGivesEverySwitchsProgrammedEntries) {
  nlohmann::json j = json({"route", "show", "all"});
  size_t programmed = 0;
  for (const char* sw : {"s1", "s2", "s3"}) {
    const ibtest::FabricNode& n = node(sw);
    for (size_t lid = 0; lid < n.lft.size(); ++lid)
      if (n.lft[lid] != 0xff) ++programmed;
  }
  ASSERT_EQ(j.size(), programmed);
  for (const auto& e : j) {
    const ibtest::FabricNode& n = node(e["switch_description"].get<std::string>().c_str());
    EXPECT_EQ(e["switch_guid"], guid(n.node_guid));
    EXPECT_EQ(e["switch_lid"], n.ports[0].lid);
    EXPECT_EQ(e["port"], n.lft.at(e["lid"].get<size_t>()));
    EXPECT_TRUE(e.contains("node_guid")) << e;
  }
  // The same entries as route show, switch by switch; a LID range.
  std::string s2 = std::to_string(node("s2").ports[0].lid);
  nlohmann::json one = json({"route", "show", "lid", s2});
  size_t in_s2 = 0;
  for (const auto& e : j) in_s2 += e["switch_description"] == "s2";
  EXPECT_EQ(in_s2, one.size());
  nlohmann::json part = json({"route", "show", "all", "lids", "1-2"});
  EXPECT_EQ(part.size(), 6u);  // two LIDs in each of three tables
}

// dump_mfts: every switch's multicast table, each MLID after its switch,
// the ports as the switch holds them; a range of MLIDs; MLIDs only.
TEST_F(RouteAllCmd, ShowAllMcastGivesEverySwitchsMlids) {
  ibtest::FabricNode& s2 = fabric_.nodes()[fabric_.node("s2")];
  s2.mft[0xc021] = 0b110;
  nlohmann::json j = json({"route", "show", "all", "mcast"});
  size_t mlids = 0;
  for (const char* sw : {"s1", "s2", "s3"}) mlids += node(sw).mft.size();
  ASSERT_EQ(mlids, 4u);
  ASSERT_EQ(j.size(), mlids);
  for (const auto& e : j) {
    const ibtest::FabricNode& n = node(e["switch_description"].get<std::string>().c_str());
    EXPECT_EQ(e["switch_guid"], guid(n.node_guid));
    EXPECT_EQ(e["switch_lid"], n.ports[0].lid);
    uint16_t mlid = static_cast<uint16_t>(std::stoul(e["mlid"].get<std::string>(), nullptr, 16));
    std::vector<int> want;
    for (int p = 0; p <= n.num_ports(); ++p)
      if (n.mft.at(mlid) >> p & 1) want.push_back(p);
    EXPECT_EQ(e["ports"].get<std::vector<int>>(), want) << e;
  }
  nlohmann::json part = json({"route", "show", "all", "mcast", "lids", "0xc001-0xc3ff"});
  ASSERT_EQ(part.size(), 1u);
  EXPECT_EQ(part[0]["switch_description"], "s2");
  EXPECT_EQ(part[0]["mlid"], "0xc021");
  test::Result r = run({"route", "show", "all", "mcast", "lid", "5"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "invalid multicast LID \"5\" (expected 0xc000-0xfffe)\n");
}

TEST_F(RouteAllCmd, UsersOfALinkBetweenSwitchesBothWays) {
  std::string s1 = std::to_string(node("s1").ports[0].lid);
  for (int port : {3, 4}) {
    nlohmann::json j = json({"route", "users", "lid", s1, "port", std::to_string(port)});
    EXPECT_EQ(users(j, "out"), routed("s1", port)) << port;
    // s2's end of the link is the same port number (s1[3]-s2[3], s1[4]-s2[4]).
    EXPECT_EQ(users(j, "in"), routed("s2", port)) << port;
    EXPECT_FALSE(users(j, "out").empty() && users(j, "in").empty()) << port;
  }
}

TEST_F(RouteAllCmd, UsersOfAPortToACa) {
  std::string s1 = std::to_string(node("s1").ports[0].lid);
  nlohmann::json j = json({"route", "users", "lid", s1, "port", "1"});
  EXPECT_EQ(users(j, "out"), (std::multiset<std::string>{"h1"}));
  // h1 sends every other end node's LID through it (h3 has two ports).
  EXPECT_EQ(users(j, "in"), (std::multiset<std::string>{"h2", "h3", "h3", "h4", "h5"}));
  test::Result r = run({"route", "users", "lid", s1, "port", "7"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("port 7 of switch"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("has no link"), std::string::npos) << r.err;
  r = run({"route", "users", "lid", s1});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("missing \"port N\""), std::string::npos) << r.err;
}

}  // namespace
}  // namespace rdma
