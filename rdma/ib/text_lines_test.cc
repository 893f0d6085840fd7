// The InfiniBand views' text on the fabric double: no line ends in a blank
// (Takes::OwnText), in every view, one-line (-o) and a field a line (-d)
// alike; netlink views keep iproute2's line ends (the golden suites).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

using madtest::MadCmd;

// The lines of text that end in a blank, numbered from 1.
std::string lines_ending_in_a_blank(const std::string& text) {
  std::string bad;
  size_t n = 0, b = 0;
  while (b < text.size()) {
    size_t e = text.find('\n', b);
    if (e == std::string::npos) e = text.size();
    ++n;
    if (e > b && (text[e - 1] == ' ' || text[e - 1] == '\t'))
      bad += std::to_string(n) + ": \"" + text.substr(b, e - b) + "\"\n";
    b = e + 1;
  }
  return bad;
}

TEST_F(MadCmd, NoInfinibandLineEndsInABlank) {
  const std::vector<std::vector<std::string>> views = {
      {"node", "show", "lid", "2"},
      {"-d", "node", "show", "lid", "2"},
      {"port", "show", "lid", "2", "port", "3"},
      {"-d", "port", "show", "lid", "3"},
      {"-o", "-d", "port", "show", "lid", "3"},
      {"port", "show", "lid", "2", "pkeys"},
      {"perf", "show", "lid", "2", "port", "3"},
      {"-d", "perf", "show", "lid", "3"},
      {"perf", "show", "lid", "3", "extended"},
      {"sm", "show"},
      {"mad", "get", "NodeInfo", "lid", "2"},
      {"-d", "mad", "get", "PortInfo", "lid", "2", "port", "1"},
      {"fabric", "show"},
      {"fabric", "links", "all"},
      {"fabric", "links", "degraded"},
      {"fabric", "links", "node", "sw1"},
      {"fabric", "errors"},
      {"-d", "fabric", "errors"},
      {"fabric", "check"},
      {"-d", "fabric", "check"},
      {"fabric", "topology"},
      {"route", "show", "lid", "2"},
      {"route", "trace", "lid", "5"},
      {"sa", "show", "nodes", "lid", "1"},
      {"sa", "show", "ports"},
  };
  for (const std::vector<std::string>& args : views) {
    std::string cmd;
    for (const std::string& w : args) cmd += w + " ";
    test::Result r = run(args);
    EXPECT_LE(r.status, 1) << cmd << r.err;
    EXPECT_FALSE(r.out.empty()) << cmd;
    EXPECT_EQ(lines_ending_in_a_blank(r.out), "") << cmd;
  }
}

// In a batch the printer is shared: a line of an object iproute2 has after
// an InfiniBand one is written with iproute2's line ends again (here the
// help's usage, which the printer does not write, and an IB view after it).
TEST_F(MadCmd, ABatchTrimsTheInfinibandLinesOnly) {
  test::Result r = run({"-b", "-"}, "node show lid 2\nfabric show\n");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_ending_in_a_blank(r.out), "");
  EXPECT_NE(r.out.find("description \"sw1\"\n"), std::string::npos) << r.out;
}

// -p without -j is accepted and changes nothing, as in iproute2's rdma,
// whose -p is "pretty JSON" only (rdma(8) says so).
TEST_F(MadCmd, PrettyWithoutJsonChangesNothing) {
  test::Result plain = run({"node", "show", "lid", "2"});
  test::Result pretty = run({"-p", "node", "show", "lid", "2"});
  EXPECT_EQ(pretty.status, 0) << pretty.err;
  EXPECT_EQ(pretty.err, "");
  EXPECT_EQ(pretty.out, plain.out);
}

}  // namespace
}  // namespace rdma
