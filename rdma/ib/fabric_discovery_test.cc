// rdma --discovery lid|dr|sa through the whole program on the fabric
// double (the suite's fabric after an SM sweep): every fabric view the
// same whichever finds the fabric.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

using test::Result;

class DiscoveryModeCmd : public madtest::MadCmd {};

TEST_F(DiscoveryModeCmd, LidDiscoveryPrintsAsDirectedRoutes) {
  for (std::vector<std::string> view : {std::vector<std::string>{"fabric", "show"},
                                        {"fabric", "links", "all"},
                                        {"fabric", "topology"},
                                        {"-j", "fabric", "show"},
                                        {"-j", "fabric", "links"}}) {
    Result dr = run(view);
    std::vector<std::string> by_lid = {"--discovery", "lid"};
    by_lid.insert(by_lid.end(), view.begin(), view.end());
    Result lid = run(by_lid);
    EXPECT_EQ(lid.status, 0) << view[1] << ": " << lid.err;
    EXPECT_EQ(lid.err, "");
    EXPECT_FALSE(dr.out.empty());
    EXPECT_EQ(lid.out, dr.out) << view.back();
  }
}

TEST_F(DiscoveryModeCmd, SaIsTheAliasAndDrTheDefault) {
  Result sa = run({"--sa", "fabric", "show"});
  EXPECT_EQ(run({"--discovery", "sa", "fabric", "show"}).out, sa.out);
  EXPECT_EQ(run({"--sa", "--discovery", "dr", "fabric", "show"}).out, run({"fabric", "show"}).out);
}

TEST_F(DiscoveryModeCmd, BadModeAndPartialScanAreOneLine) {
  Result bad = run({"--discovery", "smp", "fabric", "show"});
  EXPECT_EQ(bad.status, 1);
  EXPECT_EQ(bad.out, "");
  EXPECT_EQ(bad.err, "invalid --discovery \"smp\" (expected lid, dr or sa)\n");
  Result partial = run({"--discovery", "lid", "fabric", "links", "hops", "1"});
  EXPECT_EQ(partial.status, 1);
  EXPECT_EQ(partial.err,
            "--discovery lid finds the whole fabric; a partial scan is by directed route\n");
}

}  // namespace
}  // namespace rdma
