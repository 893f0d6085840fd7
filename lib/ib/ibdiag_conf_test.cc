#include "lib/ib/ibdiag_conf.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "lib/error.h"

namespace rdma::ib {
namespace {

// Debian's file as infiniband-diags ships it: every setting commented out.
TEST(IbdiagConf, DebiansCommentedFileSetsNothing) {
  IbdiagConf c = parse_ibdiag_conf(
      "# Define different defaults for all infiniband-diag tools.\n"
      "#CA=mlx4_0\n#Port=1\n#timeout=50\n#MLX_EPI=false\n#m_key=0x00\n#sa_key=0x00\n",
      "ibdiag.conf");
  EXPECT_FALSE(c.ca);
  EXPECT_FALSE(c.port);
  EXPECT_FALSE(c.timeout_ms);
  EXPECT_FALSE(c.mkey);
  EXPECT_TRUE(c.unused.empty());
  EXPECT_TRUE(c.warnings.empty());
}

TEST(IbdiagConf, TheSettingsRdmaUsesAndTheOnesItDoesNot) {
  IbdiagConf c = parse_ibdiag_conf(
      "CA=mlx5_1\nPort=2\ntimeout=0x32\nm_key=0x1234\nMLX_EPI=false\nsa_key=1\nsa_key=2\n"
      "Colour=blue\nno equals sign here\n",
      "f");
  EXPECT_EQ(c.ca, "mlx5_1");
  EXPECT_EQ(c.port, 2u);
  EXPECT_EQ(c.timeout_ms, 50u);  // strtoul(s, NULL, 0): hex as the diags read it
  EXPECT_EQ(c.mkey, 0x1234u);
  EXPECT_EQ(c.unused, (std::vector<std::string>{"MLX_EPI", "sa_key"}));
  EXPECT_TRUE(c.warnings.empty());
}

TEST(IbdiagConf, AValueThatIsNoNumberIsAWarningNamingTheLine) {
  IbdiagConf c = parse_ibdiag_conf("timeout=soon\nPort=300\ntimeout=0\n", "site.conf");
  EXPECT_FALSE(c.timeout_ms);
  EXPECT_FALSE(c.port);
  EXPECT_EQ(c.warnings,
            (std::vector<std::string>{
                "site.conf:1: timeout \"soon\" is not a number (0 to 3600000): not used",
                "site.conf:2: Port \"300\" is not a number (0 to 254): not used",
                "site.conf:3: timeout 0 is no timeout: not used"}));
}

TEST(IbdiagConf, AMissingFileIsNothingUnlessNamed) {
  std::string path = ::testing::TempDir() + "no-such-ibdiag.conf";
  std::remove(path.c_str());
  EXPECT_FALSE(read_ibdiag_conf(path).ca);
  EXPECT_THROW(read_ibdiag_conf(path, true), Error);
  std::ofstream(path) << "CA=rxe0\n";
  EXPECT_EQ(read_ibdiag_conf(path, true).ca, "rxe0");
  std::remove(path.c_str());
}

}  // namespace
}  // namespace rdma::ib
