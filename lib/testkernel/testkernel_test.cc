#include "lib/testkernel/testkernel.h"

#include <gtest/gtest.h>

namespace rdma::testkernel {
namespace {

TEST(TestKernelSmoke, Constructs) {
  TestKernel k;
  EXPECT_EQ(k.state.devices.size(), 2u);
}

}  // namespace
}  // namespace rdma::testkernel
