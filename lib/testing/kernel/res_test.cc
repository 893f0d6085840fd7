// Resource commands of the test kernel: entries, errors, raw and driver
// attributes, and dumps split over datagrams like the kernel splits them.
#include <gtest/gtest.h>

#include <chrono>

#include "lib/testing/kernel/fixture.h"
#include "lib/testing/kernel/test_helpers.h"
#include "lib/testing/kernel/testkernel.h"

namespace rdma::testkernel {
namespace {

using namespace testing;
using L = std::vector<std::pair<uint16_t, size_t>>;

auto attrs_of(std::initializer_list<std::pair<uint16_t, uint32_t>> u32s) {
  std::vector<std::pair<uint16_t, uint32_t>> v(u32s);
  return [v](nlmsghdr* n) {
    for (auto [t, x] : v) mnl_attr_put_u32(n, t, x);
  };
}

int reply_error(const std::vector<Bytes>& r) {
  return error_of(messages(r.at(0))[0]);
}

TEST(TestKernelRes, QpDoitNeedsPortAndKnownQpn) {
  TestKernel k(Options{}, vm_resources_fixture(KernelVersion::k6_12));
  auto q = [&](std::initializer_list<std::pair<uint16_t, uint32_t>> a) {
    return roundtrip(k, request(RDMA_NLDEV_CMD_RES_QP_GET, 0, 1, attrs_of(a)));
  };
  EXPECT_EQ(reply_error(q({{RDMA_NLDEV_ATTR_DEV_INDEX, 0}, {RDMA_NLDEV_ATTR_RES_LQPN, 17}})),
            -EINVAL);
  // QP1 is tracked as 1 | port << 24: asking for LQPN 1 finds nothing.
  EXPECT_EQ(reply_error(q({{RDMA_NLDEV_ATTR_DEV_INDEX, 0},
                           {RDMA_NLDEV_ATTR_PORT_INDEX, 1},
                           {RDMA_NLDEV_ATTR_RES_LQPN, 1}})),
            -ENOENT);
  auto r = q({{RDMA_NLDEV_ATTR_DEV_INDEX, 0},
              {RDMA_NLDEV_ATTR_PORT_INDEX, 1},
              {RDMA_NLDEV_ATTR_RES_LQPN, 17}});
  auto m = messages(r.at(0));
  EXPECT_EQ(m[0]->nlmsg_type, nldev::msg_type(RDMA_NLDEV_CMD_RES_QP_GET));
  // Doit replies have the entry's attributes right after the handle.
  EXPECT_EQ(layout(attrs(m[0])), (L{{RDMA_NLDEV_ATTR_DEV_INDEX, 4},
                                    {RDMA_NLDEV_ATTR_DEV_NAME, 5},
                                    {RDMA_NLDEV_ATTR_PORT_INDEX, 4},
                                    {RDMA_NLDEV_ATTR_RES_LQPN, 4},
                                    {RDMA_NLDEV_ATTR_RES_PDN, 4},
                                    {RDMA_NLDEV_ATTR_RES_PID, 4},
                                    {RDMA_NLDEV_ATTR_RES_RQPN, 4},
                                    {RDMA_NLDEV_ATTR_RES_RQ_PSN, 4},
                                    {RDMA_NLDEV_ATTR_RES_SQ_PSN, 4},
                                    {RDMA_NLDEV_ATTR_RES_PATH_MIG_STATE, 1},
                                    {RDMA_NLDEV_ATTR_RES_TYPE, 1},
                                    {RDMA_NLDEV_ATTR_RES_STATE, 1}}));
}

TEST(TestKernelRes, PerDeviceObjectsRefusePort) {
  TestKernel k(Options{}, vm_resources_fixture(KernelVersion::k6_12));
  auto r = roundtrip(k, request(RDMA_NLDEV_CMD_RES_CQ_GET, 0, 1,
                                attrs_of({{RDMA_NLDEV_ATTR_DEV_INDEX, 0},
                                          {RDMA_NLDEV_ATTR_PORT_INDEX, 1},
                                          {RDMA_NLDEV_ATTR_RES_CQN, 0}})));
  EXPECT_EQ(reply_error(r), -EINVAL);
  r = roundtrip(k,
                request(RDMA_NLDEV_CMD_RES_CQ_GET, 0, 1,
                        attrs_of({{RDMA_NLDEV_ATTR_DEV_INDEX, 0}, {RDMA_NLDEV_ATTR_RES_CQN, 0}})));
  EXPECT_EQ(layout(attrs(messages(r.at(0))[0])), (L{{RDMA_NLDEV_ATTR_DEV_INDEX, 4},
                                                    {RDMA_NLDEV_ATTR_DEV_NAME, 5},
                                                    {RDMA_NLDEV_ATTR_RES_CQE, 4},
                                                    {RDMA_NLDEV_ATTR_RES_USECNT, 8},
                                                    {RDMA_NLDEV_ATTR_RES_POLL_CTX, 1},
                                                    {RDMA_NLDEV_ATTR_DEV_DIM, 1},
                                                    {RDMA_NLDEV_ATTR_RES_CQN, 4},
                                                    {RDMA_NLDEV_ATTR_RES_KERN_NAME, 8}}));
}

TEST(TestKernelRes, MrKeysNeedNetAdmin) {
  Options o;
  o.net_admin = false;
  TestKernel k(o, vm_resources_fixture(KernelVersion::k6_12));
  auto r = roundtrip(
      k, request(RDMA_NLDEV_CMD_RES_MR_GET, 0, 1,
                 attrs_of({{RDMA_NLDEV_ATTR_DEV_INDEX, 0}, {RDMA_NLDEV_ATTR_RES_MRN, 4}})));
  EXPECT_EQ(layout(attrs(messages(r.at(0))[0])), (L{{RDMA_NLDEV_ATTR_DEV_INDEX, 4},
                                                    {RDMA_NLDEV_ATTR_DEV_NAME, 5},
                                                    {RDMA_NLDEV_ATTR_RES_MRLEN, 8},
                                                    {RDMA_NLDEV_ATTR_RES_MRN, 4},
                                                    {RDMA_NLDEV_ATTR_RES_PDN, 4},
                                                    {RDMA_NLDEV_ATTR_RES_PID, 4}}));
  // Raw queries are admin only.
  r = roundtrip(k, request(RDMA_NLDEV_CMD_RES_MR_GET_RAW, NLM_F_DUMP, 1,
                           attrs_of({{RDMA_NLDEV_ATTR_DEV_INDEX, 0}})));
  EXPECT_EQ(reply_error(r), -EPERM);
}

TEST(TestKernelRes, RawNeedsDriverOp) {
  TestKernel k(Options{}, vm_resources_fixture(KernelVersion::k6_12));
  auto r = roundtrip(k, request(RDMA_NLDEV_CMD_RES_QP_GET_RAW, NLM_F_DUMP, 1,
                                attrs_of({{RDMA_NLDEV_ATTR_DEV_INDEX, 0}})));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(messages(r[0])[0]->nlmsg_type, NLMSG_DONE);
  EXPECT_EQ(error_of(messages(r[0])[0]), -EINVAL);

  Device ib = make_ib("mlx5_0", 1, 1);
  Cq cq;
  cq.id = 3;
  cq.owner.kern_name = "mlx5_ib";
  cq.raw = {1, 2, 3, 4, 5};
  ib.cqs.items.push_back(cq);
  uint32_t index = k.register_device(ib).index;
  r = roundtrip(
      k, request(RDMA_NLDEV_CMD_RES_CQ_GET_RAW, 0, 1,
                 attrs_of({{RDMA_NLDEV_ATTR_DEV_INDEX, index}, {RDMA_NLDEV_ATTR_RES_CQN, 3}})));
  auto a = attrs(messages(r.at(0))[0]);
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a[2].type, RDMA_NLDEV_ATTR_RES_RAW);
  EXPECT_EQ(a[2].len(), 5u);
}

TEST(TestKernelRes, DriverAttributesAndDetails) {
  State s = vm_fixture(KernelVersion::k6_12);
  Qp qp;
  qp.id = qp.qp_num = 7;
  qp.port = 1;
  qp.owner.kern_name = "mlx5_ib";
  qp.type = kQpUd;
  qp.driver = std::vector<DriverAttr>{{"sq_wqe_cnt", DriverAttr::Kind::kU32, false, "", 64, 0},
                                      {"db_addr", DriverAttr::Kind::kU64, true, "", 0xdead0000, 0},
                                      {"state", DriverAttr::Kind::kString, false, "ok", 0, 0},
                                      {"delta", DriverAttr::Kind::kS32, false, "", 0, -3}};
  Qp dd = qp;
  dd.id = dd.qp_num = 8;
  dd.driver_detail = true;
  s.devices[0].qps.items = {qp, dd};
  TestKernel k(Options{}, s);
  auto r = roundtrip(k, request(RDMA_NLDEV_CMD_RES_QP_GET, NLM_F_DUMP, 1,
                                attrs_of({{RDMA_NLDEV_ATTR_DEV_INDEX, 0}})));
  ASSERT_EQ(r.size(), 2u);
  auto table = attrs(messages(r[0])[0]).at(2);
  EXPECT_EQ(table.type, RDMA_NLDEV_ATTR_RES_QP);
  EXPECT_FALSE(table.nested_flag);
  auto entries = nested(table);
  ASSERT_EQ(entries.size(), 1u);  // the driver-detail QP is hidden
  auto e = nested(entries[0]);
  EXPECT_EQ(layout(e), (L{{RDMA_NLDEV_ATTR_PORT_INDEX, 4},
                          {RDMA_NLDEV_ATTR_RES_LQPN, 4},
                          {RDMA_NLDEV_ATTR_RES_KERN_NAME, 8},
                          {RDMA_NLDEV_ATTR_RES_SQ_PSN, 4},
                          {RDMA_NLDEV_ATTR_RES_TYPE, 1},
                          {RDMA_NLDEV_ATTR_RES_STATE, 1},
                          {RDMA_NLDEV_ATTR_DRIVER, 96}}));
  EXPECT_TRUE(e.back().nested_flag);
  EXPECT_EQ(layout(nested(e.back())), (L{{RDMA_NLDEV_ATTR_DRIVER_STRING, 11},
                                         {RDMA_NLDEV_ATTR_DRIVER_U32, 4},
                                         {RDMA_NLDEV_ATTR_DRIVER_STRING, 8},
                                         {RDMA_NLDEV_ATTR_DRIVER_PRINT_TYPE, 1},
                                         {RDMA_NLDEV_ATTR_DRIVER_U64, 8},
                                         {RDMA_NLDEV_ATTR_DRIVER_STRING, 6},
                                         {RDMA_NLDEV_ATTR_DRIVER_STRING, 3},
                                         {RDMA_NLDEV_ATTR_DRIVER_STRING, 6},
                                         {RDMA_NLDEV_ATTR_DRIVER_S32, 4}}));
  // With DRIVER_DETAILS both show, and the summary counts both.
  r = roundtrip(k, request(RDMA_NLDEV_CMD_RES_QP_GET, NLM_F_DUMP, 1, [](nlmsghdr* n) {
                  mnl_attr_put_u32(n, RDMA_NLDEV_ATTR_DEV_INDEX, 0);
                  mnl_attr_put_u8(n, nldev::kAttrDriverDetails, 1);
                }));
  EXPECT_EQ(nested(attrs(messages(r[0])[0]).at(2)).size(), 2u);
  r = roundtrip(k,
                request(RDMA_NLDEV_CMD_RES_GET, 0, 1, attrs_of({{RDMA_NLDEV_ATTR_DEV_INDEX, 0}})));
  auto summary = nested(attrs(messages(r[0])[0]).at(2));
  EXPECT_EQ(nested(summary[2])[0].str(), "qp");
  EXPECT_EQ(nested(summary[2])[1].u64(), 1u);
}

TEST(TestKernelRes, SrqListsQpRanges) {
  State s = vm_resources_fixture(KernelVersion::k6_12);
  auto& qps = s.devices[1].qps.items;
  qps[2].srqn.reset();  // 17, 18, 20 on the SRQ
  TestKernel k(Options{}, s);
  auto r = roundtrip(
      k, request(RDMA_NLDEV_CMD_RES_SRQ_GET, 0, 1,
                 attrs_of({{RDMA_NLDEV_ATTR_DEV_INDEX, 1}, {RDMA_NLDEV_ATTR_RES_SRQN, 0}})));
  auto a = attrs(messages(r.at(0))[0]);
  auto list = nested(a.at(5));
  ASSERT_EQ(a[5].type, RDMA_NLDEV_ATTR_RES_QP);
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(layout(nested(list[0])),
            (L{{RDMA_NLDEV_ATTR_MIN_RANGE, 4}, {RDMA_NLDEV_ATTR_MAX_RANGE, 4}}));
  EXPECT_EQ(layout(nested(list[1])), (L{{RDMA_NLDEV_ATTR_RES_LQPN, 4}}));
  EXPECT_EQ(nested(list[1])[0].u32(), 20u);
}

// A million QPs stream: parts are built per recv(), never all at once, and
// each fits the skb the kernel would have allocated.
TEST(TestKernelRes, MillionQpDumpStreams) {
  State s = vm_fixture(KernelVersion::k6_12);
  auto& t = s.devices[0].qps;
  t.items.clear();  // generated ids must come after stored ones (QP1 sorts last)
  t.generated = 1000000;
  t.generate = [](uint32_t pos) {
    Qp q;
    q.id = q.qp_num = 100 + pos;
    q.port = 1;
    q.pdn = 1;
    q.owner.pid = 4242;
    q.state = 3;
    return q;
  };
  TestKernel k(Options{}, s);
  auto req =
      request(RDMA_NLDEV_CMD_RES_QP_GET, NLM_F_DUMP, 1, attrs_of({{RDMA_NLDEV_ATTR_DEV_INDEX, 0}}));
  k.send(req.data(), req.size());
  Bytes buf(32768);
  size_t parts = 0, entries = 0, first_len = 0;
  uint32_t next = 100;
  bool done = false;
  auto t0 = std::chrono::steady_clock::now();
  while (size_t n = k.recv(buf.data(), buf.size())) {
    ASSERT_LE(n, parts == 0 ? kNlmsgGoodSize : kMaxRecvmsgLen);
    if (parts == 0) first_len = n;
    ++parts;
    Bytes d(buf.begin(), buf.begin() + n);
    for (const nlmsghdr* m : messages(d)) {
      if (m->nlmsg_type == NLMSG_DONE) {
        done = true;
        continue;
      }
      for (const Attr& e : nested(attrs(m).at(2))) {
        ASSERT_EQ(nested(e)[1].u32(), next++);
        ++entries;
      }
    }
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_TRUE(done);
  EXPECT_EQ(entries, 1000000u);
  EXPECT_GT(first_len, kNlmsgGoodSize - 100);
  EXPECT_GT(parts, 2000u);
  EXPECT_LT(secs, 20.0);
  // A doit finds a generated QP.
  auto r = roundtrip(k, request(RDMA_NLDEV_CMD_RES_QP_GET, 0, 2,
                                attrs_of({{RDMA_NLDEV_ATTR_DEV_INDEX, 0},
                                          {RDMA_NLDEV_ATTR_PORT_INDEX, 1},
                                          {RDMA_NLDEV_ATTR_RES_LQPN, 777777}})));
  EXPECT_EQ(attrs(messages(r.at(0))[0]).at(3).u32(), 777777u);
}

}  // namespace
}  // namespace rdma::testkernel
