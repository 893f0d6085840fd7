#include "lib/dl/companion.h"

#include <gtest/gtest.h>

namespace rdma::dl {
namespace {

TEST(Companion, BesideThenRelativeThenInstalled) {
  EXPECT_EQ(
      companion_paths("/usr/bin/rdma", "rdma-dynamic", "../libexec/rdma/rdma-dynamic",
                      "/usr/libexec/rdma/rdma-dynamic"),
      (std::vector<std::string>{"/usr/bin/rdma-dynamic", "/usr/bin/../libexec/rdma/rdma-dynamic",
                                "/usr/libexec/rdma/rdma-dynamic"}));
}

TEST(Companion, UnknownSelfGivesTheInstalledPathOnly) {
  EXPECT_EQ(companion_paths("", "rdma-dynamic", "../libexec/rdma/rdma-dynamic", "/x/rdma-dynamic"),
            (std::vector<std::string>{"/x/rdma-dynamic"}));
  EXPECT_EQ(companion_paths("rdma", "rdma-dynamic", "", ""), (std::vector<std::string>{}));
}

TEST(Companion, RootDirectory) {
  EXPECT_EQ(companion_paths("/rdma", "rdma-dynamic", "", ""),
            (std::vector<std::string>{"/rdma-dynamic"}));
}

}  // namespace
}  // namespace rdma::dl
