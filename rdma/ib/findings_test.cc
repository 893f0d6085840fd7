// The exit statuses of the commands that report findings (Takes::Findings):
// 0 nothing found, 1 found, 2 failed (bad input included), as diff(1); the
// other commands keep iproute2's; a batch goes on past a line that found
// something and stops at one that failed. On the fabric double of
// tests/ibsim/net (rdma/ib/test_util.h).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

using test::Result;

class Findings : public madtest::MadCmd {
 protected:
  // Every port supports 4X QDR and the links train at it: nothing degraded.
  Findings() {
    for (auto& n : fabric_.nodes())
      for (auto& p : n.ports) {
        p.width_supported = ibtest::kWidth4x | ibtest::kWidth1x;
        p.speed_supported = 7;
        if (p.peer_node >= 0) p.speed_active = 4;
      }
  }
  void degrade() { fabric_.set_link_active(fabric_.node("sw2"), 1, ibtest::kWidth1x, 4); }
  std::string saved() {
    std::string p = ::testing::TempDir() + "rdma-findings-fabric.json";
    EXPECT_EQ(run({"fabric", "save", p}).status, 0);
    return p;
  }
};

TEST_F(Findings, LinksDegradedIsOneWhenItListsALink) {
  Result none = run({"fabric", "links", "degraded"});
  EXPECT_EQ(none.status, 0) << none.err;
  EXPECT_EQ(none.out, "");
  degrade();
  Result found = run({"fabric", "links", "degraded"});
  EXPECT_EQ(found.status, 1) << found.err;
  EXPECT_NE(found.out.find("could_be_width 4X"), std::string::npos) << found.out;
  EXPECT_EQ(found.err, "");
  // The plain listing is no finding: the same fabric, exit 0.
  EXPECT_EQ(run({"fabric", "links"}).status, 0);
  EXPECT_EQ(run({"fabric", "links", "all"}).status, 0);
}

TEST_F(Findings, LinksDownIsOneWhenAPortIsDown) {
  // The switches' ports 5-8 are not cabled: down.
  Result r = run({"fabric", "links", "down"});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.out.find(" port 5 lid 2 description \"sw1\" state DOWN"), std::string::npos) << r.out;
}

TEST_F(Findings, FailuresAreTwoAndBadInputToo) {
  struct Case {
    std::vector<std::string> args;
    std::string err;
  } cases[] = {
      {{"fabric", "errors", "lid", "9"}, "no node with LID 9 in the fabric\n"},
      {{"fabric", "errors", "bogus"},
       "unknown fabric errors argument \"bogus\" (lid, guid, dr, port, peer, switches, cas, "
       "routers, "
       "clear, counters, threshold, thresholds, window, save, since, data or details)\n"},
      {{"-c", "2", "fabric", "errors"}, "-c COUNT needs -w SECONDS\n"},
      {{"fabric", "check", "bogus"}, ""},
      {{"fabric", "diff"}, "missing FILE to compare the fabric with\n"},
      {{"fabric", "diff", "/nonexistent/x"}, ""},
      {{"fabric", "links", "degraded", "extra"}, "unexpected argument \"extra\"\n"},
      {{"fabric", "links", "down", "from", "/nonexistent/x"}, ""},
  };
  for (const Case& k : cases) {
    Result r = run(k.args);
    EXPECT_EQ(r.status, 2) << test::command_line(k.args) << ": " << r.err;
    if (!k.err.empty()) {
      EXPECT_EQ(r.err, k.err) << test::command_line(k.args);
    }
    EXPECT_NE(r.err, "") << test::command_line(k.args);
  }
}

TEST_F(Findings, OtherCommandsKeepOne) {
  // Not findings: the plain links listing, errors reset (a write), show.
  EXPECT_EQ(run({"fabric", "links", "sideways"}).status, 1);
  EXPECT_EQ(run({"fabric", "links", "from", "/nonexistent/x"}).status, 1);
  EXPECT_EQ(run({"fabric", "errors", "reset", "bogus"}).status, 1);
  EXPECT_EQ(run({"fabric", "errors", "reset", "lid", "9"}).status, 1);
  EXPECT_EQ(run({"fabric", "show", "bogus"}).status, 1);
  EXPECT_EQ(run({"fabric", "bogus"}).status, 1);
}

TEST_F(Findings, ACheckNamedTwiceIsBadInput) {
  Result r = run({"fabric", "check", "ids", "links", "ids"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "fabric check \"ids\" given twice\n");
  Result typo = run({"fabric", "check", "lnks"});
  EXPECT_EQ(typo.status, 2);
  EXPECT_EQ(
      typo.err,
      "unknown fabric check \"lnks\" (ids, links, sm, routes, credit, balance, errors, fattree, "
      "nodes or pkeys); did you mean \"links\"?\n");
}

TEST_F(Findings, CheckAndDiffSayWhatTheyFound) {
  std::string file = saved();
  EXPECT_EQ(run({"fabric", "diff", file}).status, 0);
  EXPECT_EQ(run({"fabric", "check", "ids", "from", file}).status, 0);
  degrade();
  Result r = run({"fabric", "diff", file});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.out, "");
  std::remove(file.c_str());
}

TEST_F(Findings, BatchGoesOnPastFindingsAndStopsAtAFailure) {
  degrade();
  const std::string lines =
      "fabric links degraded\n"
      "fabric show switches\n"
      "fabric errors lid 9\n"
      "fabric show cas\n";
  Result r = run({"-b", "-"}, lines);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "-:1: found something (exit status 1)\n"
            "-:3: no node with LID 9 in the fabric\n");
  EXPECT_NE(r.out.find("could_be_width"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"sw1\""), std::string::npos) << r.out;    // line 2 ran
  EXPECT_EQ(r.out.find("\"hca2\" "), std::string::npos) << r.out;  // line 4 did not

  Result forced = run({"-f", "-b", "-"}, lines);
  EXPECT_EQ(forced.status, 2);
  EXPECT_NE(forced.out.find("\"hca2\""), std::string::npos) << forced.out;

  // Findings only: the batch ran through and says so with 1.
  Result found = run({"-b", "-"}, "fabric links degraded\nfabric show switches\n");
  EXPECT_EQ(found.status, 1);
  EXPECT_EQ(found.err, "-:1: found something (exit status 1)\n");
  // A failure of a command that is no findings command: 1, as iproute2.
  Result plain = run({"-b", "-"}, "fabric show bogus\nfabric show\n");
  EXPECT_EQ(plain.status, 1);
  EXPECT_EQ(
      plain.err,
      "-:1: unknown fabric show argument \"bogus\" (switches, cas, hosts, routers or pkeys)\n");
}

}  // namespace
}  // namespace rdma
