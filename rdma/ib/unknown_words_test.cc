// Every word the InfiniBand commands read by hand (not from a command
// table) that is none of its choices: one line that names the word, lists
// the choices and suggests the closest (rdma/words.h unknown_word), as the
// tables' levels do. A sample, one per parser.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

using madtest::MadCmd;

struct Slip {
  std::vector<std::string> args;
  std::string what;  // "unknown WHAT \"WORD\" (" begins the message
  std::string mean;  // the suggestion
};

TEST_F(MadCmd, EveryUnknownWordListsTheChoicesAndTheClosest) {
  const std::vector<Slip> slips = {
      {{"fabric", "errors", "countrs", "x"}, "fabric errors argument \"countrs\"", "counters"},
      {{"fabric", "errors", "counters", "symbol_erors"},
       "error counter \"symbol_erors\"",
       "symbol_errors"},
      {{"fabric", "errors", "threshold", "link_downd=3"},
       "error counter \"link_downd\"",
       "link_downed"},
      {{"fabric", "errors", "reset", "lid", "2", "prot", "1"},
       "fabric errors reset argument \"prot\"",
       "port"},
      {{"fabric", "check", "severity", "wraning"}, "severity \"wraning\"", "warning"},
      {{"fabric", "check", "linsk"}, "fabric check \"linsk\"", "links"},
      {{"fabric", "topology", "slurm", "blok"}, "Slurm topology \"blok\"", "block"},
      {{"fabric", "plan", "write", "/nonexistent/p", "topolgy"},
       "plan format \"topolgy\"",
       "topology"},
      {{"perf", "show", "lid", "2", "extnded"}, "perf argument \"extnded\"", "extended"},
      {{"port", "show", "lid", "2", "pkyes"}, "port show argument \"pkyes\"", "pkeys"},
      {{"port", "set", "lid", "2", "port", "1", "dissable"},
       "port set argument \"dissable\"",
       "disable"},
      {{"sm", "set", "lid", "1", "state", "mastr"}, "state \"mastr\"", "master"},
      {{"sm", "set", "lid", "1", "priorty", "3"}, "sm set argument \"priorty\"", "priority"},
      {{"sa", "show", "nodez"}, "record type \"nodez\"", "nodes"},
      {{"route", "show", "lid", "2", "mcats"}, "route show argument \"mcats\"", "mcast"},
      {{"mad", "get", "NodeInfo", "lid", "2", "mdo", "1"}, "mad get argument \"mdo\"", "mod"},
  };
  for (const Slip& s : slips) {
    std::string cmd;
    for (const std::string& w : s.args) cmd += w + " ";
    test::Result r = run(s.args);
    EXPECT_NE(r.status, 0) << cmd;
    EXPECT_EQ(r.out, "") << cmd;
    EXPECT_EQ(r.err.rfind("unknown " + s.what + " (", 0), 0u) << cmd << r.err;
    EXPECT_NE(r.err.find("; did you mean \"" + s.mean + "\"?\n"), std::string::npos)
        << cmd << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << cmd << r.err;
  }
}

// The choices are the words the parser takes: what it suggests is
// accepted.
TEST_F(MadCmd, TheSuggestedWordIsTaken) {
  EXPECT_EQ(run({"fabric", "errors", "counters", "symbol_errors"}).status, 0);
  EXPECT_EQ(run({"fabric", "errors", "threshold", "link_downed=3"}).status, 0);
  EXPECT_EQ(run({"perf", "show", "lid", "2", "extended"}).status, 0);
  EXPECT_EQ(run({"sa", "show", "nodes", "lid", "1"}).status, 0);
}

}  // namespace
}  // namespace rdma
