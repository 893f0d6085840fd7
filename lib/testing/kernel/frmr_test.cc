// The 7.0 FRMR pool commands of the test kernel: the reply layout of
// nldev_frmr_pools_get_dumpit (flagged key nest, unflagged table and entry
// nests), the split of long tables, and their absence on 6.1 and 6.12.
#include <gtest/gtest.h>

#include <memory>

#include "lib/testing/kernel/fixture.h"
#include "lib/testing/kernel/test_helpers.h"

namespace rdma::testkernel {
namespace {

using namespace testing;
using L = std::vector<std::pair<uint16_t, size_t>>;

constexpr auto k70 = KernelVersion::k7_0;

std::function<void(nlmsghdr*)> frmr_dev_index(uint32_t i) {
  return [i](nlmsghdr* nlh) { mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, i); };
}

TestKernel* with_pools(size_t n) {
  auto* k = new TestKernel(Options{.version = k70}, vm_fixture(k70));
  k->state.devices[0].frmr = FrmrPools{};
  for (size_t i = 0; i < n; ++i) {
    FrmrPool p;
    p.vendor_key = i;
    p.num_dma_blocks = 8;
    p.kernel_vendor_key = i == 0 ? 3 : 0;
    k->state.devices[0].frmr->pools.push_back(p);
  }
  return k;
}

TEST(TestKernelFrmr, DumpLayout) {
  std::unique_ptr<TestKernel> k(with_pools(2));
  auto r = roundtrip(*k, request(nldev::kCmdFrmrPoolsGet, NLM_F_DUMP, 1, frmr_dev_index(0)));
  ASSERT_EQ(r.size(), 2u);  // the pools, then NLMSG_DONE on its own
  auto m = messages(r[0]);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0]->nlmsg_type, nldev::msg_type(nldev::kCmdFrmrPoolsGet));
  EXPECT_TRUE(m[0]->nlmsg_flags & NLM_F_MULTI);
  auto top = attrs(m[0]);
  ASSERT_EQ(top.size(), 3u);
  EXPECT_EQ(top[0].type, RDMA_NLDEV_ATTR_DEV_INDEX);
  EXPECT_EQ(top[1].type, RDMA_NLDEV_ATTR_DEV_NAME);
  EXPECT_EQ(top[2].type, nldev::kAttrFrmrPools);
  EXPECT_FALSE(top[2].nested_flag);
  auto entries = nested(top[2]);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].type, nldev::kAttrFrmrPoolEntry);
  EXPECT_FALSE(entries[0].nested_flag);
  auto e = nested(entries[0]);
  EXPECT_EQ(layout(e), (L{{nldev::kAttrFrmrPoolKey, 52},
                          {nldev::kAttrFrmrPoolQueueHandles, 4},
                          {nldev::kAttrFrmrPoolMaxInUse, 8},
                          {nldev::kAttrFrmrPoolInUse, 8},
                          {nldev::kAttrFrmrPoolPinnedHandles, 4}}));
  EXPECT_TRUE(e[0].nested_flag);
  EXPECT_EQ(layout(nested(e[0])), (L{{nldev::kAttrFrmrPoolKeyAts, 1},
                                     {nldev::kAttrFrmrPoolKeyAccessFlags, 4},
                                     {nldev::kAttrFrmrPoolKeyVendorKey, 8},
                                     {nldev::kAttrFrmrPoolKeyNumDmaBlocks, 8},
                                     {nldev::kAttrFrmrPoolKeyKernelVendorKey, 8}}));
  // KERNEL_VENDOR_KEY only for kernel-internal pools.
  EXPECT_EQ(nested(nested(entries[1])[0]).size(), 4u);
  EXPECT_EQ(messages(r[1])[0]->nlmsg_type, NLMSG_DONE);
}

TEST(TestKernelFrmr, LongTablesSplitAcrossMessages) {
  std::unique_ptr<TestKernel> k(with_pools(500));
  auto r = roundtrip(*k, request(nldev::kCmdFrmrPoolsGet, NLM_F_DUMP, 1, frmr_dev_index(0)));
  size_t pools = 0, parts = 0;
  for (const auto& d : r)
    for (const nlmsghdr* nlh : messages(d)) {
      if (nlh->nlmsg_type == NLMSG_DONE) continue;
      ++parts;
      pools += nested(attrs(nlh)[2]).size();
    }
  EXPECT_EQ(pools, 500u);
  EXPECT_GT(parts, 1u);
}

TEST(TestKernelFrmr, DumpNeedsADeviceAndSetNeedsAdmin) {
  std::unique_ptr<TestKernel> k(with_pools(1));
  auto r = roundtrip(*k, request(nldev::kCmdFrmrPoolsGet, NLM_F_DUMP, 1));
  EXPECT_EQ(error_of(messages(r.at(0))[0]), -EINVAL);
  // No doit.
  r = roundtrip(*k, request(nldev::kCmdFrmrPoolsGet, NLM_F_ACK, 2, frmr_dev_index(0)));
  EXPECT_EQ(error_of(messages(r.at(0))[0]), -EINVAL);
  k->opts.net_admin = false;
  r = roundtrip(*k, request(nldev::kCmdFrmrPoolsSet, NLM_F_ACK, 3, [](nlmsghdr* nlh) {
    mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 0);
    mnl_attr_put_u32(nlh, nldev::kAttrFrmrPoolsAgingPeriod, 5);
  }));
  EXPECT_EQ(error_of(messages(r.at(0))[0]), -EPERM);
}

// nla_parse_nested is strict: a key nest without NLA_F_NESTED is refused.
TEST(TestKernelFrmr, PinnedKeyNestNeedsTheFlag) {
  std::unique_ptr<TestKernel> k(with_pools(1));
  auto r = roundtrip(*k, request(nldev::kCmdFrmrPoolsSet, NLM_F_ACK, 1, [](nlmsghdr* nlh) {
    mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 0);
    mnl_attr_put_u32(nlh, nldev::kAttrFrmrPoolPinnedHandles, 4);
    nlattr* key = mnl_attr_nest_start(nlh, nldev::kAttrFrmrPoolKey);
    key->nla_type &= NLA_TYPE_MASK;
    mnl_attr_put_u64(nlh, nldev::kAttrFrmrPoolKeyNumDmaBlocks, 8);
    mnl_attr_nest_end(nlh, key);
  }));
  EXPECT_EQ(error_of(messages(r.at(0))[0]), -EINVAL);
  EXPECT_EQ(k->state.devices[0].frmr->pools.size(), 1u);
}

TEST(TestKernelFrmr, UnknownBefore70) {
  for (KernelVersion v : {KernelVersion::k6_1, KernelVersion::k6_12}) {
    TestKernel k(v);
    auto r = roundtrip(k, request(nldev::kCmdFrmrPoolsGet, NLM_F_DUMP, 1, frmr_dev_index(0)));
    EXPECT_EQ(error_of(messages(r.at(0))[0]), -EINVAL);
    r = roundtrip(k, request(nldev::kCmdFrmrPoolsSet, NLM_F_ACK, 2, frmr_dev_index(0)));
    EXPECT_EQ(error_of(messages(r.at(0))[0]), -EINVAL);
  }
}

}  // namespace
}  // namespace rdma::testkernel
