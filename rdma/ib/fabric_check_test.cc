// rdma fabric check against the fabric double (tests/ibsim/net, swept):
// a healthy fabric, a duplicate LID, a hole in a table, a multicast entry
// to a down port and a multicast table that does not come, the words.
#include <gtest/gtest.h>

#include <cstdio>

#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

class FabricCheckCmd : public madtest::MadCmd {};

TEST_F(FabricCheckCmd, AHealthyFabricGivesTheSmAndTheSummary) {
  test::Result r = run({"fabric", "check"});
  ASSERT_EQ(r.status, 0) << r.err;
  // The master SM (on hca1, LID 1) is a note; the summary comes last.
  EXPECT_NE(r.out.find("check sm severity info what \"SM master, priority 0, GUID "),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("where \"hca1\" " + guid(node("hca1").node_guid) + " port 1 lid 1\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("severity error"), std::string::npos) << r.out;
  std::string last = r.out.substr(r.out.rfind('\n', r.out.size() - 2) + 1);
  EXPECT_EQ(
      last.rfind(
          "summary: 6 nodes checked (ids,links,sm,routes,credit,balance,errors,pkeys), 0 errors, ",
          0),
      0u)
      << last;
  nlohmann::json j = json({"fabric", "check", "sm"});
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["check"], "sm");
  EXPECT_EQ(j[0]["where"][0]["lid"], 1);
  EXPECT_EQ(j[0]["where"][0]["description"], "hca1");
  // JSON: the findings only (one shape); the summary is the text's.
}

TEST_F(FabricCheckCmd, AnErrorFindingExitsOne) {
  node("hca4").ports[1].lid = 3;  // hca2's
  test::Result r = run({"-j", "fabric", "check", "ids"});
  EXPECT_EQ(r.status, 1) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["check"], "ids");
  EXPECT_EQ(j[0]["severity"], "error");
  EXPECT_EQ(j[0]["what"], "duplicate LID 3 on 2 ports");
  ASSERT_EQ(j[0]["where"].size(), 2u);
  EXPECT_EQ(j[0]["where"][0]["port_guid"], guid(node("hca2").ports[1].guid));
}

TEST_F(FabricCheckCmd, AHoleInATableIsARouteError) {
  node("sw2").lft[5] = 0xff;  // hca3
  test::Result r = run({"fabric", "check", "routes", "credit"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out.substr(0, r.out.find('\n') + 1),
            "check routes severity error what \"LID 5 missing from the table\" where \"sw2\" " +
                guid(node("sw2").node_guid) + " lid 4; \"hca3\" " + guid(node("hca3").node_guid) +
                " port 1 lid 5\n");
}

TEST_F(FabricCheckCmd, ASavedFabricIsCheckedWithoutAMadForIdsAndLinks) {
  std::string file = ::testing::TempDir() + "rdma-fabric-check-saved";
  node("hca4").ports[1].lid = 3;  // hca2's
  ASSERT_EQ(run({"fabric", "save", file}).status, 0);
  node("hca4").ports[1].lid = 6;  // fixed since
  uint64_t sent = fabric_.stats().received[0x81];
  test::Result r = run({"fabric", "check", "ids", "links", "from", file});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("what \"duplicate LID 3 on 2 ports\""), std::string::npos) << r.out;
  EXPECT_EQ(fabric_.stats().received[0x81], sent);
  // The tables are read live (the saved fabric gives the directed routes).
  r = run({"fabric", "check", "routes", "from", file});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_GT(fabric_.stats().received[0x81], sent);
  std::remove(file.c_str());
}

TEST_F(FabricCheckCmd, TheMulticastTablesAreCheckedWithTheRoutes) {
  test::Result r = run({"fabric", "check", "routes"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("check routes severity info what \"multicast: 1 MLID in use (0xc000 on 2 "
                       "switches)\"\n"),
            std::string::npos)
      << r.out;
  node("sw2").mft[0xc000] |= 1u << 6;  // unconnected
  r = run({"fabric", "check", "routes"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("check routes severity error what \"MLID 0xc000 sent to port 6, which has "
                       "no link (DOWN)\" where \"sw2\" " +
                       guid(node("sw2").node_guid) + " port 6 lid 4\n"),
            std::string::npos)
      << r.out;
  // A table that does not come: a warning, exit 1, nothing judged.
  node("sw2").mft[0xc000] &= ~(uint64_t{1} << 6);
  fabric_.drop({{fabric_.node("sw1"), -1, 0x1b}});
  r = run({"--timeout", "5", "--retries", "1", "fabric", "check", "routes"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("warning: no multicast forwarding table from switch " +
                       guid(node("sw1").node_guid) + " (\"sw1\"): "),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.out.find("severity error"), std::string::npos) << r.out;
}

// The error counters over threshold are a check of their own, in the
// default set: the fabric is not healthy while `fabric errors` lists ports.
TEST_F(FabricCheckCmd, ErrorCountersOverThresholdAreErrors) {
  fabric_.set_counter(fabric_.node("sw1"), 3, "SymbolErrorCounter", 17);
  test::Result r = run({"fabric", "check"});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.out.find("check errors severity error what \"error counters over threshold\" "
                       "detail \"symbol_errors 17\" where \"sw1\" " +
                       guid(node("sw1").node_guid) + " port 3 lid 2\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("), 1 error, "), std::string::npos) << r.out;
  r = run({"fabric", "check", "ids", "links"});  // not asked for: not swept
  EXPECT_EQ(r.status, 0) << r.out;
}

// Findings of one kind: one text line with the count and the first place;
// -d and JSON list every one.
TEST_F(FabricCheckCmd, FindingsOfOneKindAreOneLineWithACount) {
  fabric_.set_counter(fabric_.node("sw1"), 3, "SymbolErrorCounter", 17);
  fabric_.set_counter(fabric_.node("sw2"), 1, "LinkDownedCounter", 2);
  fabric_.set_counter(fabric_.node("hca4"), 1, "PortRcvErrors", 5);
  test::Result r = run({"fabric", "check", "errors"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out.substr(0, r.out.find('\n') + 1),
            "check errors severity error what \"error counters over threshold\" count 3 first "
            "\"sw1\" " +
                guid(node("sw1").node_guid) + " port 3 lid 2\n");
  r = run({"-d", "fabric", "check", "errors"});
  EXPECT_NE(r.out.find("detail \"link_downed 2\" where \"sw2\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("detail \"rcv_errors 5\" where \"hca4\""), std::string::npos) << r.out;
  nlohmann::json j = nlohmann::json::parse(run({"-j", "fabric", "check", "errors"}).out);
  EXPECT_EQ(j.size(), 3u);  // every finding, no summary
}

TEST_F(FabricCheckCmd, SeverityFilters) {
  fabric_.set_counter(fabric_.node("sw1"), 3, "SymbolErrorCounter", 17);
  test::Result r = run({"fabric", "check", "sm", "errors", "severity", "error"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out.find("severity info"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("severity error"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 error, 0 warnings, 0 notes"), std::string::npos) << r.out;
  r = run({"fabric", "check", "sm", "severity", "w"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out.find("severity info"), std::string::npos) << r.out;
  r = run({"fabric", "check", "severity", "fatal"});
  EXPECT_EQ(r.err, "unknown severity \"fatal\" (error, warning or info)\n");
  r = run({"fabric", "check", "severity"});
  EXPECT_EQ(r.err, "missing LEVEL after \"severity\" (error, warning or info)\n");
}

// `since FILE`: a link both ends had Active in the saved fabric and that is
// down now (one of the two parallel links cut) is an error.
TEST_F(FabricCheckCmd, ALinkDownSinceASavedFabricIsAnError) {
  std::string file = ::testing::TempDir() + "rdma-fabric-check-since";
  ASSERT_EQ(run({"fabric", "save", file}).status, 0);
  test::Result r = run({"fabric", "check", "links", "since", file});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  fabric_.unlink(fabric_.node("sw1"), 4);
  r = run({"fabric", "check", "links"});  // the live fabric alone has no such link
  EXPECT_EQ(r.status, 0) << r.out;
  r = run({"fabric", "check", "links", "since", file});
  std::remove(file.c_str());
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("check links severity error what \"link up in the saved fabric is down\" "
                       "where \"sw1\" " +
                       guid(node("sw1").node_guid) + " port 4 lid 2; \"sw2\" " +
                       guid(node("sw2").node_guid) + " port 4 lid 4\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(run({"fabric", "check", "since", file}).err.rfind("cannot ", 0), 0u);
}

TEST_F(FabricCheckCmd, RefusesACheckGivenTwice) {
  test::Result r = run({"fabric", "check", "ids", "i"});
  EXPECT_EQ(r.status, 2);  // bad input to a findings command
  EXPECT_EQ(r.err, "fabric check \"ids\" given twice\n");
}

TEST_F(FabricCheckCmd, RefusesAnUnknownCheck) {
  test::Result r = run({"fabric", "check", "speed"});
  EXPECT_EQ(r.status, 2);  // bad input to a findings command
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("unknown fabric check \"speed\" (ids, links, sm, routes, credit, balance, "
                       "errors, fattree, nodes or pkeys)"),
            std::string::npos)
      << r.err;
  // A check named twice (even abbreviated) is a mistake, not a wish to run it twice.
  r = run({"fabric", "check", "ids", "i"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("fabric check \"ids\" given twice"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace rdma
