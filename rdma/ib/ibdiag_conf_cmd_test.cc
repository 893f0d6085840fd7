// ibdiag.conf (--config FILE here; the site's file in main) as the diags
// read it: CA/Port choose the local port, timeout and m_key are defaults,
// and the options on the line win; also for each line of a batch.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

class IbdiagConfCmd : public madtest::MadCmd {
 protected:
  IbdiagConfCmd() : conf_(::testing::TempDir() + "ibdiag_conf_cmd.conf") {
    std::ofstream(conf_)
        << "# as a site writes it\nCA=fabric0\nPort=1\ntimeout=77\nMLX_EPI=false\n";
  }
  ~IbdiagConfCmd() override { std::remove(conf_.c_str()); }
  std::string conf_;
};

TEST_F(IbdiagConfCmd, CaAndPortAreTheLocalPortUnlessTheLineSaysVia) {
  test::Result r = run({"-d", "--config", conf_, "node", "show", "lid", "1"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(via_, "fabric0/1");
  EXPECT_NE(r.err.find("ibdiag.conf: " + conf_ + ": via fabric0/1 timeout 77 ms\n"),
            std::string::npos)
      << r.err;
  r = run({"-d", "--config", conf_, "--timeout", "5", "node", "show", "lid", "1", "via", "ib9/2"});
  EXPECT_EQ(via_, "ib9/2");
  // The line's --timeout won: only the port is said to come from the file.
  EXPECT_NE(r.err.find("ibdiag.conf: " + conf_ + ": via fabric0/1\n"), std::string::npos) << r.err;
  // Without the file: the first active port (via "").
  ASSERT_EQ(run({"node", "show", "lid", "1"}).status, 0);
  EXPECT_EQ(via_, "");
}

TEST_F(IbdiagConfCmd, EachBatchLineTakesTheFilesPort) {
  test::Result r = run({"--config", conf_, "-b", "-"}, "node show lid 1\n");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(via_, "fabric0/1");
}

TEST_F(IbdiagConfCmd, ANamedFileThatIsNotThereIsAnErrorAndABadValueAWarning) {
  test::Result r = run({"--config", conf_ + ".none", "node", "show", "lid", "1"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "cannot read the diagnostics config \"" + conf_ +
                       ".none\": No such file or directory\n");
  std::ofstream(conf_) << "timeout=soon\n";
  r = run({"--config", conf_, "node", "show", "lid", "1"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, conf_ + ":1: timeout \"soon\" is not a number (0 to 3600000): not used\n");
}

}  // namespace
}  // namespace rdma
