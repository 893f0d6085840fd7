// Slurm's topology.conf of generated fat trees (bench/fattree.py: two
// levels, tests/data/fattree-100.net; three, fattree-3level.net) against
// golden files in tests/data/golden/slurm (RDMA_WRITE_GOLDEN=1 rewrites
// them; read them before committing), and the hostlists.
#include "lib/ib/slurm_topology_conf.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "lib/ib/discover.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/fabric/topology.h"
#include "lib/testing/test_data.h"

namespace rdma::ib {
namespace {

std::string slurm_of(const char* net, SlurmFormat format) {
  ibtest::FakeFabric fake(ibtest::load_topology(rdma::testdata::dir() + "/" + net));
  fake.assign_lids();
  mad::Engine e(fake, {100, 1, 64});
  Fabric f = discover(e).fabric;
  char* buf = nullptr;
  size_t size = 0;
  std::FILE* out = open_memstream(&buf, &size);
  write_slurm_topology(f, format, out);
  std::fclose(out);
  std::string s(buf, size);
  std::free(buf);
  return s;
}

void expect_golden(const std::string& got, const char* name) {
  std::string path = rdma::testdata::dir() + "/golden/slurm/" + name;
  if (std::getenv("RDMA_WRITE_GOLDEN")) {
    std::ofstream(path) << got;
    return;
  }
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  std::stringstream want;
  want << in.rdbuf();
  EXPECT_EQ(got, want.str()) << path;
}

TEST(SlurmTopology, TwoLevelFatTreeTree) {
  expect_golden(slurm_of("fattree-100.net", SlurmFormat::Tree), "fattree-100.tree.conf");
}

TEST(SlurmTopology, TwoLevelFatTreeBlock) {
  expect_golden(slurm_of("fattree-100.net", SlurmFormat::Block), "fattree-100.block.conf");
}

TEST(SlurmTopology, ThreeLevelFatTreeTree) {
  std::string s = slurm_of("fattree-3level.net", SlurmFormat::Tree);
  expect_golden(s, "fattree-3level.tree.conf");
  // Leaves, aggregation, core: every switch once.
  EXPECT_NE(s.find("SwitchName=core-000 Switches=agg-"), std::string::npos) << s;
  EXPECT_NE(s.find("SwitchName=agg-00-00 Switches=leaf-"), std::string::npos) << s;
}

TEST(SlurmTopology, ThreeLevelFatTreeBlock) {
  expect_golden(slurm_of("fattree-3level.net", SlurmFormat::Block), "fattree-3level.block.conf");
}

TEST(SlurmTopology, HostlistsAreSlurmsRanges) {
  EXPECT_EQ(slurm_hostlist({"h3", "h1", "h2", "h7", "login", "h1"}), "h[1-3,7],login");
  EXPECT_EQ(slurm_hostlist({"n009", "n010", "n011", "n1"}), "n1,n[009-011]");
  EXPECT_EQ(slurm_hostlist({"a"}), "a");
  EXPECT_EQ(slurm_hostlist({"x5"}), "x5");
  EXPECT_EQ(slurm_hostlist({}), "");
}

}  // namespace
}  // namespace rdma::ib
