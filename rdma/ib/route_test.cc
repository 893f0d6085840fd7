// rdma route show / trace against the fabric double on the fabric suite's
// topology (tests/ibsim/fabric.net: three switch levels, parallel links).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>

#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

class RouteCmd : public madtest::MadCmd {
 protected:
  RouteCmd() : MadCmd("fabric.net") {}
  std::string lid_of(const char* node, int port = 0) {
    return std::to_string(fabric_.lid(fabric_.node(node), port));
  }
};

TEST_F(RouteCmd, ShowGivesEveryProgrammedLidWithWhatSitsThere) {
  for (const char* sw : {"s1", "s2", "s3"}) {
    const ibtest::FabricNode& n = fabric_.nodes()[fabric_.node(sw)];
    nlohmann::json j = json({"route", "show", "lid", lid_of(sw)});
    size_t programmed = 0;
    for (size_t lid = 1; lid < n.lft.size(); ++lid)
      if (n.lft[lid] != 0xff) ++programmed;
    ASSERT_EQ(j.size(), programmed) << sw;
    ASSERT_GT(programmed, 8u);
    for (const auto& e : j) {
      uint16_t lid = e["lid"];
      EXPECT_EQ(e["port"], n.lft.at(lid)) << sw << " lid " << lid;
      // The owner of the LID, as the double assigned it.
      bool found = false;
      for (const ibtest::FabricNode& o : fabric_.nodes())
        for (size_t p = 0; p < o.ports.size(); ++p)
          if (o.ports[p].lid == lid && (p == 0) == o.is_switch()) {
            found = true;
            EXPECT_EQ(e["node_guid"], guid(o.node_guid));
            EXPECT_EQ(e["description"], o.description);
            EXPECT_EQ(e["type"], o.is_switch() ? "switch" : "ca");
          }
      EXPECT_TRUE(found) << "lid " << lid;
    }
  }
}

TEST_F(RouteCmd, ShowOneLidAndARangeAsText) {
  std::string h4 = lid_of("h4", 1);
  const auto& s1 = fabric_.nodes()[fabric_.node("s1")];
  test::Result r = run({"route", "show", "lid", lid_of("s1"), "lid", h4});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "lid " + h4 + " port " + std::to_string(s1.lft[std::stoi(h4)]) +
                       " type ca node_guid " + guid(fabric_.nodes()[fabric_.node("h4")].node_guid) +
                       " port_guid " + guid(fabric_.nodes()[fabric_.node("h4")].ports[1].guid) +
                       " description \"h4\"\n");
  EXPECT_EQ(json({"route", "show", "lid", lid_of("s1"), "lids", "1-3"}).size(), 3u);
}

TEST_F(RouteCmd, ShowRefusesBadInput) {
  test::Result r = run({"route", "show", "lid", lid_of("h1", 1)});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "lid " + lid_of("h1", 1) + " is not a switch; only switches forward by LID\n");
  r = run({"route", "show", "lid", lid_of("s1"), "lids", "9-3"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("invalid LID range \"9-3\""), std::string::npos) << r.err;
  r = run({"route", "show"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("missing switch"), std::string::npos) << r.err;
}

// all-entries (ibroute -a, dump_fts -a): the LIDs the table sends nowhere
// too, with what sits there (here a CA the switch cannot reach).
TEST_F(RouteCmd, AllEntriesListsTheLidsSentNowhere) {
  ibtest::FabricNode& s2 = fabric_.nodes()[fabric_.node("s2")];
  uint16_t dlid = fabric_.lid(fabric_.node("h5"), 1);
  s2.lft[dlid] = 0xff;
  nlohmann::json some = json({"route", "show", "lid", lid_of("s2")});
  nlohmann::json every = json({"route", "show", "lid", lid_of("s2"), "all-entries"});
  ASSERT_EQ(every.size(), s2.lft.size());  // LID 0 to LinearFDBTop
  size_t nowhere = 0;
  for (const auto& e : every) {
    uint16_t lid = e["lid"];
    EXPECT_EQ(e["port"], s2.lft.at(lid)) << lid;
    if (e["port"] == 0xff) ++nowhere;
  }
  EXPECT_EQ(some.size() + nowhere, every.size());
  EXPECT_GE(nowhere, 2u);  // LID 0 and h5's
  EXPECT_EQ(every[0]["lid"], 0);
  EXPECT_FALSE(every[0].contains("node_guid"));  // no port has LID 0
  EXPECT_EQ(every[dlid]["port"], 0xff);
  EXPECT_EQ(every[dlid]["description"], "h5");
  test::Result r = run({"route", "show", "lid", lid_of("s2"), "lid", std::to_string(dlid)});
  EXPECT_EQ(r.out, "");
  r = run({"route", "show", "lid", lid_of("s2"), "all-entries", "lid", std::to_string(dlid)});
  EXPECT_EQ(r.out.rfind("lid " + std::to_string(dlid) + " port 255 type ca ", 0), 0u) << r.out;
  // Every switch's table (dump_fts -a): s2's entry among them.
  size_t all = 0;
  for (const auto& e : json({"route", "show", "all", "all-entries"})) {
    ++all;
    if (e["switch_guid"] == guid(s2.node_guid) && e["lid"] == dlid) {
      EXPECT_EQ(e["port"], 0xff);
    }
  }
  size_t want = 0;
  for (const char* sw : {"s1", "s2", "s3"}) want += fabric_.nodes()[fabric_.node(sw)].lft.size();
  EXPECT_EQ(all, want);
  r = run({"route", "show", "lid", lid_of("s2"), "mcast", "all-entries"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "\"all-entries\" is for the unicast table, not with \"mcast\"\n");
}

TEST_F(RouteCmd, TraceFollowsTheTables) {
  // h1 (on s1) to h5 (behind s2 and s3).
  nlohmann::json j = json({"route", "trace", "lid", lid_of("h5", 1)});
  ASSERT_EQ(j.size(), 5u);
  std::vector<std::string> names;
  for (const auto& h : j) names.push_back(h["description"]);
  EXPECT_EQ(names, (std::vector<std::string>{"h1", "s1", "s2", "s3", "h5"}));
  EXPECT_EQ(j[0]["in_port"], 0);
  EXPECT_EQ(j[0]["out_port"], 1);
  EXPECT_EQ(j[0]["node_guid"], guid(fabric_.nodes()[fabric_.node("h1")].node_guid));
  uint16_t dlid = fabric_.lid(fabric_.node("h5"), 1);
  for (int i = 1; i <= 3; ++i) {
    const auto& sw = fabric_.nodes()[fabric_.node(names[i])];
    EXPECT_EQ(j[i]["out_port"], sw.lft[dlid]) << names[i];
    // Came in by the port the previous hop's link ends on.
    const auto& prev = fabric_.nodes()[fabric_.node(names[i - 1])];
    EXPECT_EQ(j[i]["in_port"], prev.ports[j[i - 1]["out_port"].get<int>()].peer_port);
  }
  EXPECT_EQ(j[4]["in_port"], 1);  // h5 port 1 on s3 port 2
  EXPECT_EQ(j[4]["out_port"], 0);
  // Two targets: from h4 to h2; the same with the source spelled out.
  nlohmann::json k = json({"route", "trace", "lid", lid_of("h4", 1), "lid", lid_of("h2", 1)});
  ASSERT_EQ(k.size(), 4u);
  EXPECT_EQ(k[0]["description"], "h4");
  EXPECT_EQ(k[3]["description"], "h2");
  EXPECT_EQ(json({"route", "trace", "lid", lid_of("h1", 1), "lid", lid_of("h5", 1)}), j);
}

// `from FILE`: the saved fabric instead of a discovery (no NodeInfo sent),
// the tables read live: the same hops. A file saved from another port is
// refused (its routes start there).
TEST_F(RouteCmd, TraceFromASavedFabricReadsOnlyTheTables) {
  std::string file = ::testing::TempDir() + "rdma-route-trace-saved";
  ASSERT_EQ(run({"fabric", "save", file}).status, 0);
  // Directed-route SMPs each costs: a discovery and the tables, or the
  // tables alone.
  uint64_t before = fabric_.stats().received[0x81];
  nlohmann::json live = json({"route", "trace", "lid", lid_of("h5", 1)});
  uint64_t live_smps = fabric_.stats().received[0x81] - before;
  before = fabric_.stats().received[0x81];
  nlohmann::json saved = json({"route", "trace", "lid", lid_of("h5", 1), "from", file});
  uint64_t saved_smps = fabric_.stats().received[0x81] - before;
  EXPECT_EQ(saved, live);
  EXPECT_GT(saved_smps, 0u);
  EXPECT_LT(saved_smps * 4, live_smps);
  EXPECT_EQ(json({"route", "trace", "name", "h4", "name", "h2", "from", file}),
            json({"route", "trace", "lid", lid_of("h4", 1), "lid", lid_of("h2", 1)}));
  // The local port's GUID in the file made another's.
  std::ifstream in(file);
  std::string text((std::istreambuf_iterator<char>(in)), {});
  std::string local = std::to_string(fabric_.local_port().port_guid);
  size_t at = text.find("[1," + local + ",");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, local.size() + 4, "[1,12345,");
  std::ofstream(file) << text;
  test::Result r = run({"route", "trace", "lid", lid_of("h5", 1), "from", file});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("was saved from port 0x0000000000003039, not this one"), std::string::npos)
      << r.err;
  std::remove(file.c_str());
}

TEST_F(RouteCmd, TraceNamesTheSwitchWithAHoleOrALoop) {
  uint16_t dlid = fabric_.lid(fabric_.node("h5"), 1);
  auto& s2 = fabric_.nodes()[fabric_.node("s2")];
  uint8_t saved = s2.lft[dlid];
  s2.lft[dlid] = 0xff;
  test::Result r = run({"route", "trace", "lid", std::to_string(dlid)});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "hole in the forwarding tables: switch " + guid(s2.node_guid) +
                       " (\"s2\") has no route to LID " + std::to_string(dlid) + "\n");
  s2.lft[dlid] = 3;  // back to s1, which sends it to s2 again
  r = run({"route", "trace", "lid", std::to_string(dlid)});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("loop in the forwarding tables: LID " + std::to_string(dlid) +
                       " comes back to switch "),
            std::string::npos)
      << r.err;
  s2.lft[dlid] = saved;
  EXPECT_EQ(run({"route", "trace", "lid", std::to_string(dlid)}).status, 0);
}

TEST_F(RouteCmd, McastGivesEachMlidsPortsAsTheSwitchHoldsThem) {
  // The broadcast group spans every switch: s1 reaches h1, h2, h3 (port 2)
  // and s2 over one of the parallel links.
  for (const char* sw : {"s1", "s2", "s3"}) {
    const ibtest::FabricNode& n = fabric_.nodes()[fabric_.node(sw)];
    ASSERT_EQ(n.mft.size(), 1u) << sw;
    nlohmann::json j = json({"route", "show", "lid", lid_of(sw), "mcast"});
    ASSERT_EQ(j.size(), 1u) << sw;
    EXPECT_EQ(j[0]["mlid"], "0xc000");
    std::vector<int> want;
    for (int p = 0; p <= n.num_ports(); ++p)
      if (n.mft.at(0xc000) >> p & 1) want.push_back(p);
    EXPECT_EQ(j[0]["ports"].get<std::vector<int>>(), want) << sw;
  }
  // s1: h1, h2, h3's second port and the first of its two links to s2.
  EXPECT_EQ(fabric_.nodes()[fabric_.node("s1")].mft.at(0xc000), 0b101110u);
}

TEST_F(RouteCmd, McastReadsEverySixteenPortsAndEveryBlock) {
  // A 40-port mask on a switch of 8 ports is cut to its ports; MLIDs in
  // the second block; a range.
  ibtest::FabricNode& s2 = fabric_.nodes()[fabric_.node("s2")];
  s2.mft[0xc021] = 0b1000000110;
  s2.mft[0xc3ff] = 1;
  test::Result r = run({"route", "show", "lid", lid_of("s2"), "mcast", "lids", "0xc001-0xc3ff"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "mlid 0xc021 ports 1,2\nmlid 0xc3ff ports 0\n");
  r = run({"route", "show", "lid", lid_of("s2"), "mcast", "lid", "0xc021"});
  EXPECT_EQ(r.out, "mlid 0xc021 ports 1,2\n");
  r = run({"route", "show", "lid", lid_of("s2"), "mcast", "lid", "5"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "invalid multicast LID \"5\" (expected 0xc000-0xfffe)\n");
  r = run({"route", "show", "lid", lid_of("h1", 1), "mcast"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("is not a switch"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace rdma
