// rdma fabric plan through the whole program, on the fabric double
// (tests/ibsim/plan-built.net as built, plan.net as designed): the words,
// the records, the exit statuses as diff(1), the plan written and read back.
#include <gtest/gtest.h>

#include <cstdio>

#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

class FabricPlanCmd : public madtest::MadCmd {
 protected:
  FabricPlanCmd() : MadCmd("plan-built.net") {}
  std::string tmp(const char* name) {
    std::string p = ::testing::TempDir() + "rdma-plan-cmd-" + name;
    files_.push_back(p);
    return p;
  }
  ~FabricPlanCmd() override {
    for (const std::string& f : files_) std::remove(f.c_str());
  }
  std::vector<std::string> files_;
};

TEST_F(FabricPlanCmd, FindingsOneALineThenTheSummaryExitOne) {
  test::Result r = run({"fabric", "plan", "check", madtest::ibsim_file("plan.net")});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.out.find("finding miswired severity error what \"\"h4\" port 1 goes to \"s1\" port "
                       "9, the plan says \"s1\" port 6\"\n"),
            std::string::npos)
      << r.out;
  std::string last = r.out.substr(r.out.rfind('\n', r.out.size() - 2) + 1);
  EXPECT_EQ(last, "summary: 10 cables planned, 4 as planned, 5 errors, 2 warnings, 0 notes\n");
  nlohmann::json j = nlohmann::json::parse(
      run({"-j", "fabric", "plan", "check", madtest::ibsim_file("plan.net")}).out);
  ASSERT_EQ(j.size(), 8u);
  EXPECT_EQ(j[7]["summary"]["errors"], 5);
  bool swapped = false;
  for (const auto& x : j)
    if (x.value("finding", "") == "swapped") {
      swapped = true;
      EXPECT_EQ(x["ports"][0], (nlohmann::json{{"node", "s2"}, {"port", 1}}));
      EXPECT_EQ(x["ports"].size(), 4u);
    }
  EXPECT_TRUE(swapped);
}

TEST_F(FabricPlanCmd, ThePlanWrittenIsTheFabricAsItIs) {
  for (const char* format : {"csv", "topology"}) {
    std::string file = tmp(format);
    test::Result w = run({"fabric", "plan", "write", file, format});
    ASSERT_EQ(w.status, 0) << w.err;
    EXPECT_EQ(w.out, "");
    test::Result r = run({"fabric", "plan", "check", file});
    EXPECT_EQ(r.status, 1) << r.err;  // the name two nodes have: ambiguous
    EXPECT_EQ(r.out.rfind("finding ambiguous severity error what \"the name \"h2\" is used by ", 0),
              0u)
        << r.out;
    EXPECT_NE(r.out.find("summary: 11 cables planned, 9 as planned, 1 error, 0 warnings, 0 notes"),
              std::string::npos)
        << format << ": " << r.out;
  }
}

TEST_F(FabricPlanCmd, TroubleIsExitTwoAndNothingOnStdout) {
  test::Result r = run({"fabric", "plan", "check", "/nonexistent/plan.csv"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "cannot read the cable plan \"/nonexistent/plan.csv\": No such file or directory\n");
  r = run({"fabric", "plan", "check"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("PLAN to check the fabric against"), std::string::npos) << r.err;
  r = run({"fabric", "plan", "check", madtest::ibsim_file("plan.net"), "extra"});
  EXPECT_EQ(r.status, 2) << r.err;
  r = run({"fabric", "plan", "frob"});
  EXPECT_NE(r.status, 0);
  EXPECT_EQ(r.err, "unknown fabric plan command \"frob\" (check or write)\n") << r.err;
  r = run({"fabric", "plan", "chek"});
  EXPECT_EQ(r.err,
            "unknown fabric plan command \"chek\" (check or write); did you mean \"check\"?\n");
}

// plan write finds nothing: it fails as iproute2's commands do (1), not as
// diff(1) (2), though plan check beside it does.
TEST_F(FabricPlanCmd, WriteFailsWithOne) {
  test::Result r = run({"fabric", "plan", "write", tmp("x"), "xml"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "unknown plan format \"xml\" (csv or topology)\n");
  r = run({"fabric", "plan", "write", tmp("x"), "topolgy"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err,
            "unknown plan format \"topolgy\" (csv or topology); did you mean \"topology\"?\n");
  r = run({"fabric", "plan", "write", "/nonexistent/plan.csv"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.find("cannot write \"/nonexistent/plan.csv\""), 0u) << r.err;
  r = run({"fabric", "plan", "write"});
  EXPECT_EQ(r.status, 1) << r.err;
}

TEST_F(FabricPlanCmd, SlurmTopologyTreeAndBlock) {
  test::Result r = run({"fabric", "topology", "slurm"});
  ASSERT_EQ(r.status, 0) << r.err;
  // Two leaves cabled to each other: no level above them. h2 twice (a
  // second node described so) is one host.
  EXPECT_EQ(r.out,
            "# Slurm topology.conf (topology/tree), written by rdma fabric topology slurm\n"
            "SwitchName=s1 Nodes=h[1-4]\n"
            "SwitchName=s2 Nodes=h[2,5-8]\n");
  r = run({"fabric", "topology", "slurm", "block"});
  EXPECT_EQ(r.out,
            "# Slurm topology.conf (topology/block), written by rdma fabric topology slurm\n"
            "BlockName=s1 Nodes=h[1-4]\n"
            "BlockName=s2 Nodes=h[2,5-8]\n");
  r = run({"fabric", "topology", "slurm", "star"});
  EXPECT_NE(r.status, 0);
  EXPECT_EQ(r.err, "unknown Slurm topology \"star\" (tree or block)\n");
  r = run({"-j", "fabric", "topology", "slurm"});
  EXPECT_NE(r.status, 0);
  EXPECT_EQ(r.out, "");
}

}  // namespace
}  // namespace rdma
