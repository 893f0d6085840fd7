// Statistic commands of the test kernel: port counters, QP counter modes,
// manual binding, optional counters, MR statistics.
#include <gtest/gtest.h>

#include "lib/testing/kernel/fixture.h"
#include "lib/testing/kernel/test_helpers.h"
#include "lib/testing/kernel/testkernel.h"

namespace rdma::testkernel {
namespace {

using namespace testing;
using L = std::vector<std::pair<uint16_t, size_t>>;

auto u32s(std::vector<std::pair<uint16_t, uint32_t>> v) {
  return [v](nlmsghdr* n) {
    for (auto [t, x] : v) mnl_attr_put_u32(n, t, x);
  };
}

// The error of the NLMSG_ERROR among the replies (0 for a bare reply).
int err_of(const std::vector<Bytes>& r) {
  for (const Bytes& d : r)
    for (const nlmsghdr* m : messages(d))
      if (m->nlmsg_type == NLMSG_ERROR) return error_of(m);
  return 0;
}

TEST(TestKernelStat, PortCounters) {
  TestKernel k(KernelVersion::k6_1);
  k.state.devices[0].ports[0].hw_counters->at(0).value = 12345;
  auto r = roundtrip(
      k, request(RDMA_NLDEV_CMD_STAT_GET, 0, 1,
                 u32s({{RDMA_NLDEV_ATTR_DEV_INDEX, 0}, {RDMA_NLDEV_ATTR_PORT_INDEX, 1}})));
  auto m = messages(r.at(0));
  EXPECT_EQ(m[0]->nlmsg_type, nldev::msg_type(RDMA_NLDEV_CMD_STAT_GET));
  auto a = attrs(m[0]);
  ASSERT_EQ(a.size(), 4u);
  EXPECT_EQ(a[3].type, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
  EXPECT_TRUE(a[3].nested_flag);
  auto entries = nested(a[3]);
  ASSERT_EQ(entries.size(), 15u);
  EXPECT_TRUE(entries[0].nested_flag);
  EXPECT_EQ(layout(nested(entries[0])), (L{{RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, 10},
                                           {RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, 8}}));
  EXPECT_EQ(nested(entries[0])[1].u64(), 12345u);
  // No port 2; a device without counters is EINVAL too.
  r = roundtrip(k,
                request(RDMA_NLDEV_CMD_STAT_GET, 0, 1,
                        u32s({{RDMA_NLDEV_ATTR_DEV_INDEX, 0}, {RDMA_NLDEV_ATTR_PORT_INDEX, 2}})));
  EXPECT_EQ(err_of(r), -EINVAL);
}

TEST(TestKernelStat, AutoModeOnRxe) {
  TestKernel k(KernelVersion::k6_12);
  auto set = roundtrip(k, request(RDMA_NLDEV_CMD_STAT_SET, NLM_F_ACK, 1,
                                  u32s({{RDMA_NLDEV_ATTR_DEV_INDEX, 0},
                                        {RDMA_NLDEV_ATTR_PORT_INDEX, 1},
                                        {RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP},
                                        {RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_AUTO},
                                        {RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK, 1}})));
  ASSERT_EQ(set.size(), 2u);
  auto m = messages(set[0]);
  EXPECT_EQ(m[0]->nlmsg_type, nldev::msg_type(RDMA_NLDEV_CMD_STAT_SET));
  EXPECT_EQ(layout(attrs(m[0])), (L{{RDMA_NLDEV_ATTR_DEV_INDEX, 4},
                                    {RDMA_NLDEV_ATTR_DEV_NAME, 5},
                                    {RDMA_NLDEV_ATTR_PORT_INDEX, 4}}));
  auto get = roundtrip(k, request(RDMA_NLDEV_CMD_STAT_GET, 0, 2,
                                  u32s({{RDMA_NLDEV_ATTR_DEV_INDEX, 0},
                                        {RDMA_NLDEV_ATTR_PORT_INDEX, 1},
                                        {RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP},
                                        {RDMA_NLDEV_ATTR_STAT_MODE, 0}})));
  auto a = attrs(messages(get.at(0))[0]);
  ASSERT_EQ(a.size(), 5u);
  EXPECT_EQ(a[3].u32(), static_cast<uint32_t>(RDMA_COUNTER_MODE_AUTO));
  EXPECT_EQ(a[4].type, RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK);
  EXPECT_EQ(a[4].u32(), 1u);
  // rxe has no counter_alloc_stats: binding by hand fails with ENOMEM.
  k.state.devices[0].ports[0].counter_mode = 0;
  k.state.devices[0].ports[0].counter_mask = 0;
  Qp qp;
  qp.id = qp.qp_num = 17;
  qp.port = 1;
  qp.owner.pid = 10;
  k.state.devices[0].qps.items.push_back(qp);
  auto bind = roundtrip(k, request(RDMA_NLDEV_CMD_STAT_SET, 0, 3,
                                   u32s({{RDMA_NLDEV_ATTR_DEV_INDEX, 0},
                                         {RDMA_NLDEV_ATTR_PORT_INDEX, 1},
                                         {RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP},
                                         {RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_MANUAL},
                                         {RDMA_NLDEV_ATTR_RES_LQPN, 17}})));
  EXPECT_EQ(err_of(bind), -ENOMEM);
}

class ManualCounters : public ::testing::Test {
 protected:
  void SetUp() override {
    Device ib = make_ib("mlx5_0", 1, 1);
    for (uint32_t n : {0x20u, 0x21u}) {
      Qp qp;
      qp.id = qp.qp_num = n;
      qp.port = 1;
      qp.owner.pid = 55;
      ib.qps.items.push_back(qp);
    }
    index = k.register_device(ib).index;
  }
  std::vector<Bytes> bind(uint32_t qpn, std::optional<uint32_t> cntn = {}) {
    std::vector<std::pair<uint16_t, uint32_t>> a = {
        {RDMA_NLDEV_ATTR_DEV_INDEX, index},
        {RDMA_NLDEV_ATTR_PORT_INDEX, 1},
        {RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP},
        {RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_MANUAL},
        {RDMA_NLDEV_ATTR_RES_LQPN, qpn}};
    if (cntn) a.push_back({RDMA_NLDEV_ATTR_STAT_COUNTER_ID, *cntn});
    return roundtrip(k, request(RDMA_NLDEV_CMD_STAT_SET, 0, 1, u32s(a)));
  }
  std::vector<Bytes> unbind(uint32_t qpn, uint32_t cntn) {
    return roundtrip(k, request(RDMA_NLDEV_CMD_STAT_DEL, 0, 1,
                                u32s({{RDMA_NLDEV_ATTR_DEV_INDEX, index},
                                      {RDMA_NLDEV_ATTR_PORT_INDEX, 1},
                                      {RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP},
                                      {RDMA_NLDEV_ATTR_STAT_COUNTER_ID, cntn},
                                      {RDMA_NLDEV_ATTR_RES_LQPN, qpn}})));
  }
  TestKernel k{KernelVersion::k6_12};
  uint32_t index = 0;
};

TEST_F(ManualCounters, BindShowUnbind) {
  auto r = bind(0x20);
  auto a = attrs(messages(r.at(0))[0]);
  EXPECT_EQ(layout(a), (L{{RDMA_NLDEV_ATTR_DEV_INDEX, 4},
                          {RDMA_NLDEV_ATTR_DEV_NAME, 7},
                          {RDMA_NLDEV_ATTR_PORT_INDEX, 4},
                          {RDMA_NLDEV_ATTR_STAT_COUNTER_ID, 4},
                          {RDMA_NLDEV_ATTR_RES_LQPN, 4}}));
  EXPECT_EQ(a[3].u32(), 0u);
  EXPECT_EQ(err_of(bind(0x21, 0)), 0);
  EXPECT_EQ(err_of(bind(0x21, 0)), -EINVAL);  // already bound
  EXPECT_EQ(err_of(bind(0x99)), -ENOENT);

  auto d = roundtrip(k, request(RDMA_NLDEV_CMD_STAT_GET, NLM_F_DUMP, 2,
                                u32s({{RDMA_NLDEV_ATTR_DEV_INDEX, index},
                                      {RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP}})));
  ASSERT_EQ(d.size(), 2u);
  auto table = attrs(messages(d[0])[0]).at(2);
  EXPECT_EQ(table.type, RDMA_NLDEV_ATTR_STAT_COUNTER);
  auto entry = nested(nested(table).at(0));
  EXPECT_EQ(layout(entry), (L{{RDMA_NLDEV_ATTR_PORT_INDEX, 4},
                              {RDMA_NLDEV_ATTR_STAT_COUNTER_ID, 4},
                              {RDMA_NLDEV_ATTR_STAT_MODE, 4},
                              {RDMA_NLDEV_ATTR_RES_QP, 24},
                              {RDMA_NLDEV_ATTR_STAT_HWCOUNTERS, entry[4].len()}}));
  EXPECT_EQ(nested(entry[4]).size(), 3u);  // the disabled optional one is left out

  // Auto mode cannot be set while QPs are bound.
  auto busy = roundtrip(k, request(RDMA_NLDEV_CMD_STAT_SET, 0, 3,
                                   u32s({{RDMA_NLDEV_ATTR_DEV_INDEX, index},
                                         {RDMA_NLDEV_ATTR_PORT_INDEX, 1},
                                         {RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP},
                                         {RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_AUTO},
                                         {RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK, 1}})));
  auto m = messages(busy.at(0));
  EXPECT_EQ(error_of(m[0]), -EBUSY);
  EXPECT_EQ(attrs(m[0], sizeof(nlmsgerr)).at(0).str(),
            "Modifying auto mode is not allowed when there is a bound QP");

  auto del = unbind(0x20, 0);
  EXPECT_EQ(messages(del.at(0))[0]->nlmsg_type, nldev::msg_type(RDMA_NLDEV_CMD_STAT_SET));
  EXPECT_EQ(attrs(messages(del[0])[0]).size(), 5u);
  EXPECT_EQ(err_of(unbind(0x20, 0)), -EINVAL);
  unbind(0x21, 0);
  EXPECT_TRUE(k.device(index)->counters.items.empty());
  EXPECT_EQ(k.device(index)->ports[0].counter_mode, 0u);
}

TEST_F(ManualCounters, OptionalCounters) {
  auto r = roundtrip(
      k, request(RDMA_NLDEV_CMD_STAT_GET_STATUS, 0, 1,
                 u32s({{RDMA_NLDEV_ATTR_DEV_INDEX, index}, {RDMA_NLDEV_ATTR_PORT_INDEX, 1}})));
  auto list = nested(attrs(messages(r.at(0))[0]).at(3));
  ASSERT_EQ(list.size(), 4u);
  EXPECT_EQ(layout(nested(list[0])), (L{{RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, 18},
                                        {RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX, 4}}));
  EXPECT_EQ(layout(nested(list[3])), (L{{RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, 14},
                                        {RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX, 4},
                                        {RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC, 1}}));
  EXPECT_EQ(nested(list[3])[2].u8(), 0);
  auto enable = [&](uint32_t i) {
    return roundtrip(k, request(RDMA_NLDEV_CMD_STAT_SET, NLM_F_ACK, 1, [&](nlmsghdr* n) {
                       mnl_attr_put_u32(n, RDMA_NLDEV_ATTR_DEV_INDEX, index);
                       mnl_attr_put_u32(n, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
                       nlattr* nest = mnl_attr_nest_start(n, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
                       mnl_attr_put_u32(n, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX, i);
                       mnl_attr_nest_end(n, nest);
                     }));
  };
  EXPECT_EQ(err_of(enable(0)), -EINVAL);  // not optional
  auto ok = enable(3);
  ASSERT_EQ(ok.size(), 2u);
  EXPECT_TRUE(k.device(index)->ports[0].hw_counters->at(3).enabled);
}

TEST_F(ManualCounters, AutoModeBindsNewQps) {
  roundtrip(k, request(RDMA_NLDEV_CMD_STAT_SET, 0, 3,
                       u32s({{RDMA_NLDEV_ATTR_DEV_INDEX, index},
                             {RDMA_NLDEV_ATTR_PORT_INDEX, 1},
                             {RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP},
                             {RDMA_NLDEV_ATTR_STAT_MODE, RDMA_COUNTER_MODE_AUTO},
                             {RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK,
                              RDMA_COUNTER_MASK_QP_TYPE | RDMA_COUNTER_MASK_PID}})));
  Qp qp;
  qp.id = qp.qp_num = 0x30;
  qp.port = 1;
  qp.type = kQpUd;
  qp.owner.pid = 77;
  ASSERT_EQ(k.add_qp(index, qp), 0);
  qp.id = qp.qp_num = 0x31;
  ASSERT_EQ(k.add_qp(index, qp), 0);
  ASSERT_EQ(k.device(index)->counters.items.size(), 1u);
  auto d = roundtrip(k, request(RDMA_NLDEV_CMD_STAT_GET, NLM_F_DUMP, 2,
                                u32s({{RDMA_NLDEV_ATTR_DEV_INDEX, index},
                                      {RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_QP}})));
  auto entry = nested(nested(attrs(messages(d.at(0))[0]).at(2)).at(0));
  EXPECT_EQ(layout(entry), (L{{RDMA_NLDEV_ATTR_PORT_INDEX, 4},
                              {RDMA_NLDEV_ATTR_STAT_COUNTER_ID, 4},
                              {RDMA_NLDEV_ATTR_STAT_MODE, 4},
                              {RDMA_NLDEV_ATTR_RES_TYPE, 1},
                              {RDMA_NLDEV_ATTR_RES_PID, 4},
                              {RDMA_NLDEV_ATTR_RES_QP, 24},
                              {RDMA_NLDEV_ATTR_STAT_HWCOUNTERS, entry[6].len()}}));
  // rxe cannot allocate counters: QPs fail to reach the port.
  TestKernel rxe(KernelVersion::k6_12);
  rxe.state.devices[0].ports[0].counter_mode = RDMA_COUNTER_MODE_AUTO;
  rxe.state.devices[0].ports[0].counter_mask = RDMA_COUNTER_MASK_QP_TYPE;
  EXPECT_EQ(rxe.add_qp(0, qp), -ENOMEM);
}

TEST(TestKernelStat, MrStatistics) {
  State s = vm_resources_fixture(KernelVersion::k6_12);
  s.devices[0].mrs.items[0].stat_counters = {{"page_faults", 3}, {"page_invalidations", 1}};
  TestKernel k(Options{}, s);
  auto r = roundtrip(k, request(RDMA_NLDEV_CMD_STAT_GET, NLM_F_DUMP, 1,
                                u32s({{RDMA_NLDEV_ATTR_DEV_INDEX, 0},
                                      {RDMA_NLDEV_ATTR_STAT_RES, RDMA_NLDEV_ATTR_RES_MR}})));
  ASSERT_EQ(r.size(), 2u);
  auto m = messages(r[0])[0];
  EXPECT_EQ(m->nlmsg_type, nldev::msg_type(RDMA_NLDEV_CMD_STAT_GET));
  auto entries = nested(attrs(m).at(2));
  ASSERT_EQ(entries.size(), 9u);
  auto mr0 = nested(entries[0]);
  ASSERT_EQ(mr0.size(), 2u);
  EXPECT_EQ(mr0[0].type, RDMA_NLDEV_ATTR_RES_MRN);
  EXPECT_EQ(mr0[1].type, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
  EXPECT_TRUE(mr0[1].nested_flag);
  EXPECT_EQ(nested(mr0[1]).size(), 2u);  // one HWCOUNTER_ENTRY per counter
  EXPECT_EQ(layout(nested(entries[1])), (L{{RDMA_NLDEV_ATTR_RES_MRN, 4}}));
}

}  // namespace
}  // namespace rdma::testkernel
