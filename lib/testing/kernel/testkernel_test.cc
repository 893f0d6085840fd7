// The test kernel's replies, checked against what nldev.c (6.1.192 and
// 6.12.117) sends: attribute order, types and sizes, flags, acks, dumps.
#include "lib/testing/kernel/testkernel.h"

#include <gtest/gtest.h>

#include "lib/error.h"
#include "lib/testing/kernel/fixture.h"
#include "lib/testing/kernel/test_helpers.h"

namespace rdma::testkernel {
namespace {

using namespace testing;
using L = std::vector<std::pair<uint16_t, size_t>>;
constexpr auto k61 = KernelVersion::k6_1;
constexpr auto k612 = KernelVersion::k6_12;

auto dev_index(uint32_t i) {
  return [i](nlmsghdr* n) { mnl_attr_put_u32(n, RDMA_NLDEV_ATTR_DEV_INDEX, i); };
}

auto dev_port(uint32_t i, uint32_t p) {
  return [i, p](nlmsghdr* n) {
    mnl_attr_put_u32(n, RDMA_NLDEV_ATTR_DEV_INDEX, i);
    mnl_attr_put_u32(n, RDMA_NLDEV_ATTR_PORT_INDEX, p);
  };
}

TEST(TestKernelDev, GetDoitLayout612) {
  TestKernel k(k612);
  auto r = roundtrip(k, request(RDMA_NLDEV_CMD_GET, NLM_F_ACK, 7, dev_index(0)));
  ASSERT_EQ(r.size(), 2u);
  auto m = messages(r[0]);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0]->nlmsg_type, nldev::msg_type(RDMA_NLDEV_CMD_GET));
  EXPECT_EQ(m[0]->nlmsg_flags, 0);
  EXPECT_EQ(m[0]->nlmsg_seq, 7u);
  EXPECT_EQ(m[0]->nlmsg_pid, k.port_id());
  EXPECT_EQ(layout(attrs(m[0])), (L{{RDMA_NLDEV_ATTR_DEV_INDEX, 4},
                                    {RDMA_NLDEV_ATTR_DEV_NAME, 5},
                                    {RDMA_NLDEV_ATTR_PORT_INDEX, 4},
                                    {RDMA_NLDEV_ATTR_CAP_FLAGS, 8},
                                    {RDMA_NLDEV_ATTR_NODE_GUID, 8},
                                    {RDMA_NLDEV_ATTR_SYS_IMAGE_GUID, 8},
                                    {RDMA_NLDEV_ATTR_DEV_NODE_TYPE, 1},
                                    {RDMA_NLDEV_ATTR_DEV_DIM, 1},
                                    {nldev::kAttrNameAssignType, 1},
                                    {RDMA_NLDEV_ATTR_DEV_PROTOCOL, 5}}));
  auto a = attrs(m[0]);
  EXPECT_EQ(a[3].u64(), 0x1c001223c76ULL);  // RXE_DEVICE_CAP_FLAGS on 6.12
  EXPECT_EQ(a[8].u8(), 1);                  // named by `rdma link add`
  // The ack: capped, no TLVs, the request header echoed.
  auto ack = messages(r[1]);
  EXPECT_EQ(ack[0]->nlmsg_type, NLMSG_ERROR);
  EXPECT_EQ(ack[0]->nlmsg_flags, NLM_F_CAPPED);
  EXPECT_EQ(ack[0]->nlmsg_len, 36u);
  EXPECT_EQ(error_of(ack[0]), 0);
}

TEST(TestKernelDev, GetDoit61HasNoAssignType) {
  TestKernel k(k61);
  auto r = roundtrip(k, request(RDMA_NLDEV_CMD_GET, 0, 1, dev_index(1)));
  ASSERT_EQ(r.size(), 1u);
  auto a = attrs(messages(r[0])[0]);
  ASSERT_EQ(a.size(), 9u);
  EXPECT_EQ(a[3].u64(), 0x1223c76ULL);
  EXPECT_EQ(a[7].type, RDMA_NLDEV_ATTR_DEV_DIM);
  EXPECT_EQ(a[8].str(), "roce");
  EXPECT_EQ(r[0].size(), 0x6cu);  // as recorded on the 6.1 VM
}

// Architectures without efficient unaligned access pad 64-bit attributes so
// that their payload is 8-byte aligned (nla_put_u64_64bit).
TEST(TestKernelDev, Pad64Option) {
  Options o;
  o.pad64 = true;
  TestKernel k(o, vm_fixture(k612));
  auto r = roundtrip(k, request(RDMA_NLDEV_CMD_GET, 0, 1, dev_index(0)));
  auto a = attrs(messages(r.at(0))[0]);
  EXPECT_EQ(layout(a), (L{{RDMA_NLDEV_ATTR_DEV_INDEX, 4},
                          {RDMA_NLDEV_ATTR_DEV_NAME, 5},
                          {RDMA_NLDEV_ATTR_PORT_INDEX, 4},
                          {RDMA_NLDEV_ATTR_CAP_FLAGS, 8},
                          {RDMA_NLDEV_ATTR_PAD, 0},
                          {RDMA_NLDEV_ATTR_NODE_GUID, 8},
                          {RDMA_NLDEV_ATTR_PAD, 0},
                          {RDMA_NLDEV_ATTR_SYS_IMAGE_GUID, 8},
                          {RDMA_NLDEV_ATTR_DEV_NODE_TYPE, 1},
                          {RDMA_NLDEV_ATTR_DEV_DIM, 1},
                          {nldev::kAttrNameAssignType, 1},
                          {RDMA_NLDEV_ATTR_DEV_PROTOCOL, 5}}));
  for (const Attr& x : a) {
    if (x.len() != 8) continue;
    auto off = static_cast<const uint8_t*>(mnl_attr_get_payload(x.nla)) - r[0].data();
    EXPECT_EQ(off % 8, 0);
  }
}

TEST(TestKernelDev, GetDumpOneDevicePerDatagram) {
  TestKernel k(k612);
  auto r = roundtrip(k, request(RDMA_NLDEV_CMD_GET, NLM_F_DUMP | NLM_F_ACK, 3));
  ASSERT_EQ(r.size(), 3u);
  for (int i = 0; i < 2; ++i) {
    auto m = messages(r[i]);
    ASSERT_EQ(m.size(), 1u);
    EXPECT_EQ(m[0]->nlmsg_flags, NLM_F_MULTI);
    EXPECT_EQ(attrs(m[0])[0].u32(), static_cast<uint32_t>(i));
  }
  auto done = messages(r[2]);
  EXPECT_EQ(done[0]->nlmsg_type, NLMSG_DONE);
  EXPECT_EQ(done[0]->nlmsg_flags, NLM_F_MULTI);
  EXPECT_EQ(done[0]->nlmsg_len, 20u);
  EXPECT_EQ(error_of(done[0]), 0);
}

TEST(TestKernelDev, UnknownDeviceIsEinval) {
  TestKernel k(k612);
  auto r = roundtrip(k, request(RDMA_NLDEV_CMD_GET, 0, 9, dev_index(77)));
  ASSERT_EQ(r.size(), 1u);
  auto m = messages(r[0]);
  EXPECT_EQ(m[0]->nlmsg_type, NLMSG_ERROR);
  EXPECT_EQ(m[0]->nlmsg_flags, NLM_F_CAPPED);
  EXPECT_EQ(error_of(m[0]), -EINVAL);
  EXPECT_EQ(m[0]->nlmsg_seq, 9u);
}

TEST(TestKernelDev, UncappedErrorCarriesRequest) {
  Options o;
  o.cap_ack = false;
  TestKernel k(o, vm_fixture(k612));
  auto req = request(RDMA_NLDEV_CMD_GET, 0, 9, dev_index(77));
  auto r = roundtrip(k, req);
  auto m = messages(r[0]);
  EXPECT_EQ(m[0]->nlmsg_flags, 0);
  EXPECT_EQ(m[0]->nlmsg_len, 16 + 4 + req.size());
}

TEST(TestKernelDev, DumpOfUnknownDeviceEndsWithError) {
  TestKernel k(k612);
  auto r = roundtrip(k, request(RDMA_NLDEV_CMD_PORT_GET, NLM_F_DUMP, 2, dev_index(5)));
  ASSERT_EQ(r.size(), 1u);
  auto m = messages(r[0]);
  EXPECT_EQ(m[0]->nlmsg_type, NLMSG_DONE);
  EXPECT_EQ(error_of(m[0]), -EINVAL);
}

TEST(TestKernelPort, DoitAnswersWithGetType) {
  TestKernel k(k61);
  auto r = roundtrip(k, request(RDMA_NLDEV_CMD_PORT_GET, NLM_F_ACK, 4, dev_port(0, 1)));
  ASSERT_EQ(r.size(), 2u);
  auto m = messages(r[0]);
  EXPECT_EQ(m[0]->nlmsg_type, nldev::msg_type(RDMA_NLDEV_CMD_GET));
  EXPECT_EQ(layout(attrs(m[0])), (L{{RDMA_NLDEV_ATTR_DEV_INDEX, 4},
                                    {RDMA_NLDEV_ATTR_DEV_NAME, 5},
                                    {RDMA_NLDEV_ATTR_PORT_INDEX, 4},
                                    {RDMA_NLDEV_ATTR_PORT_STATE, 1},
                                    {RDMA_NLDEV_ATTR_PORT_PHYS_STATE, 1},
                                    {RDMA_NLDEV_ATTR_NDEV_INDEX, 4},
                                    {RDMA_NLDEV_ATTR_NDEV_NAME, 6}}));
  EXPECT_EQ(r[0].size(), 0x50u);
}

TEST(TestKernelPort, IbPortHasLidAttributes) {
  State s = vm_fixture(k612);
  TestKernel k(Options{}, s);
  Device& ib = k.register_device(make_ib("mlx5_0", 2, 0x0002c90300a1b2c3ULL));
  auto r = roundtrip(k, request(RDMA_NLDEV_CMD_PORT_GET, NLM_F_DUMP, 4, dev_index(ib.index)));
  ASSERT_EQ(r.size(), 2u);  // both ports, then DONE
  auto m = messages(r[0]);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[1]->nlmsg_type, nldev::msg_type(RDMA_NLDEV_CMD_PORT_GET));
  EXPECT_EQ(m[1]->nlmsg_flags, NLM_F_MULTI);
  EXPECT_EQ(layout(attrs(m[1])), (L{{RDMA_NLDEV_ATTR_DEV_INDEX, 4},
                                    {RDMA_NLDEV_ATTR_DEV_NAME, 7},
                                    {RDMA_NLDEV_ATTR_PORT_INDEX, 4},
                                    {RDMA_NLDEV_ATTR_CAP_FLAGS, 8},
                                    {RDMA_NLDEV_ATTR_SUBNET_PREFIX, 8},
                                    {RDMA_NLDEV_ATTR_LID, 4},
                                    {RDMA_NLDEV_ATTR_SM_LID, 4},
                                    {RDMA_NLDEV_ATTR_LMC, 1},
                                    {RDMA_NLDEV_ATTR_PORT_STATE, 1},
                                    {RDMA_NLDEV_ATTR_PORT_PHYS_STATE, 1}}));
  EXPECT_EQ(messages(r[1])[0]->nlmsg_type, NLMSG_DONE);
}

TEST(TestKernelPort, BadPortIsEinval) {
  TestKernel k(k612);
  auto r = roundtrip(k, request(RDMA_NLDEV_CMD_PORT_GET, 0, 4, dev_port(0, 2)));
  EXPECT_EQ(error_of(messages(r[0])[0]), -EINVAL);
}

TEST(TestKernelSys, GetPerVersion) {
  TestKernel k61k(k61), k612k(k612);
  auto ra = roundtrip(k61k, request(RDMA_NLDEV_CMD_SYS_GET, 0, 1));
  auto a = attrs(messages(ra.at(0))[0]);
  EXPECT_EQ(layout(a), (L{{RDMA_NLDEV_SYS_ATTR_NETNS_MODE, 1},
                          {nldev::kAttrPrivilegedQkeyMode, 1},
                          {RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK, 1}}));
  auto rb = roundtrip(k612k, request(RDMA_NLDEV_CMD_SYS_GET, 0, 1));
  auto b = attrs(messages(rb.at(0))[0]);
  EXPECT_EQ(layout(b), (L{{RDMA_NLDEV_SYS_ATTR_NETNS_MODE, 1},
                          {nldev::kAttrPrivilegedQkeyMode, 1},
                          {nldev::kAttrMonitorMode, 1},
                          {RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK, 1}}));
}

TEST(TestKernelSys, SysGetDumpIsEinval) {
  TestKernel k(k612);
  auto r = roundtrip(k, request(RDMA_NLDEV_CMD_SYS_GET, NLM_F_DUMP, 1));
  EXPECT_EQ(error_of(messages(r[0])[0]), -EINVAL);
}

TEST(TestKernelSys, SetModes) {
  TestKernel k(k612);
  auto set = [&](uint16_t attr, uint8_t v) {
    auto r = roundtrip(k, request(RDMA_NLDEV_CMD_SYS_SET, NLM_F_ACK, 1,
                                  [&](nlmsghdr* n) { mnl_attr_put_u8(n, attr, v); }));
    return error_of(messages(r[0])[0]);
  };
  EXPECT_EQ(set(nldev::kAttrPrivilegedQkeyMode, 1), 0);
  EXPECT_EQ(k.state.sys.privileged_qkey, 1);
  EXPECT_EQ(set(RDMA_NLDEV_SYS_ATTR_NETNS_MODE, 2), -EINVAL);
  k.state.sys.other_netns = true;
  EXPECT_EQ(set(RDMA_NLDEV_SYS_ATTR_NETNS_MODE, 0), -EBUSY);
  k.state.sys.other_netns = false;
  EXPECT_EQ(set(RDMA_NLDEV_SYS_ATTR_NETNS_MODE, 0), 0);
  EXPECT_EQ(k.state.sys.netns_shared, 0);
}

TEST(TestKernelSet, RenameToTakenNameIsEexist) {
  TestKernel k(k612);
  auto rename = [&](const char* name) {
    auto r = roundtrip(k, request(RDMA_NLDEV_CMD_SET, NLM_F_ACK, 1, [&](nlmsghdr* n) {
                         mnl_attr_put_u32(n, RDMA_NLDEV_ATTR_DEV_INDEX, 0);
                         mnl_attr_put_strz(n, RDMA_NLDEV_ATTR_DEV_NAME, name);
                       }));
    return error_of(messages(r[0])[0]);
  };
  EXPECT_EQ(rename("rxe1"), -EEXIST);
  EXPECT_EQ(rename("rxe0"), 0);
  EXPECT_EQ(rename("roce7"), 0);
  EXPECT_EQ(k.state.devices[0].name, "roce7");
}

TEST(TestKernelSet, NetnsNeedsExclusiveModeAndDriverSupport) {
  TestKernel k(k612);
  k.state.sys.netns_fds = {5};
  auto move = [&](uint32_t index, uint32_t fd) {
    auto r = roundtrip(k, request(RDMA_NLDEV_CMD_SET, NLM_F_ACK, 1, [&](nlmsghdr* n) {
                         mnl_attr_put_u32(n, RDMA_NLDEV_ATTR_DEV_INDEX, index);
                         mnl_attr_put_u32(n, RDMA_NLDEV_NET_NS_FD, fd);
                       }));
    return error_of(messages(r[0])[0]);
  };
  EXPECT_EQ(move(0, 9), -EBADF);
  EXPECT_EQ(move(0, 5), -EOPNOTSUPP);  // rxe cannot disassociate
  Device& ib = k.register_device(make_ib("mlx5_0", 1, 1));
  uint32_t ib_index = ib.index;
  EXPECT_EQ(move(ib_index, 5), -EOPNOTSUPP);  // shared mode
  k.state.sys.netns_shared = 0;
  EXPECT_EQ(move(ib_index, 5), 0);
  EXPECT_EQ(k.device(ib_index), nullptr);
}

TEST(TestKernelSet, DimAndPermission) {
  Options o;
  o.net_admin = false;
  TestKernel k(o, vm_fixture(k612));
  auto r = roundtrip(k, request(RDMA_NLDEV_CMD_SET, 0, 1, [](nlmsghdr* n) {
                       mnl_attr_put_u32(n, RDMA_NLDEV_ATTR_DEV_INDEX, 0);
                       mnl_attr_put_u8(n, RDMA_NLDEV_ATTR_DEV_DIM, 1);
                     }));
  EXPECT_EQ(error_of(messages(r[0])[0]), -EPERM);
  k.opts.net_admin = true;
  r = roundtrip(k, request(RDMA_NLDEV_CMD_SET, NLM_F_ACK, 1, [](nlmsghdr* n) {
                  mnl_attr_put_u32(n, RDMA_NLDEV_ATTR_DEV_INDEX, 0);
                  mnl_attr_put_u8(n, RDMA_NLDEV_ATTR_DEV_DIM, 1);
                }));
  EXPECT_EQ(error_of(messages(r[0])[0]), 0);
  EXPECT_TRUE(k.state.devices[0].use_cq_dim);
}

// Strict validation (6.12 SET) reports the bad attribute with its policy.
TEST(TestKernelExtack, StrictLengthError) {
  TestKernel k(k612);
  auto req = request(RDMA_NLDEV_CMD_SET, NLM_F_ACK, 1, [](nlmsghdr* n) {
    mnl_attr_put_u32(n, RDMA_NLDEV_ATTR_DEV_INDEX, 0);
    mnl_attr_put_u64(n, RDMA_NLDEV_ATTR_DEV_DIM, 1);
  });
  auto r = roundtrip(k, req);
  ASSERT_EQ(r.size(), 1u);
  auto m = messages(r[0]);
  EXPECT_EQ(m[0]->nlmsg_flags, NLM_F_CAPPED | NLM_F_ACK_TLVS);
  EXPECT_EQ(error_of(m[0]), -EINVAL);
  auto t = attrs(m[0], sizeof(nlmsgerr));
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0].type, NLMSGERR_ATTR_MSG);
  EXPECT_EQ(t[0].str(), "invalid attribute length");
  EXPECT_EQ(t[1].type, NLMSGERR_ATTR_OFFS);
  EXPECT_EQ(t[1].u32(), 24u);  // header 16 + DEV_INDEX 8
  EXPECT_EQ(t[2].type, NLMSGERR_ATTR_POLICY);
  EXPECT_TRUE(t[2].nested_flag);
  EXPECT_EQ(layout(nested(t[2])), (L{{NL_POLICY_TYPE_ATTR_MIN_VALUE_U, 8},
                                     {NL_POLICY_TYPE_ATTR_MAX_VALUE_U, 8},
                                     {NL_POLICY_TYPE_ATTR_TYPE, 4}}));
  EXPECT_EQ(nested(t[2])[1].u64(), 255u);
  EXPECT_EQ(nested(t[2])[2].u32(), static_cast<uint32_t>(NL_ATTR_TYPE_U8));
  // 6.1's SET parses liberally: the long u8 passes.
  TestKernel old(k61);
  r = roundtrip(old, req);
  EXPECT_EQ(error_of(messages(r[0])[0]), 0);
}

// One extack serves every message of a datagram (rdma_nl_rcv_skb): a later
// error without text of its own repeats the earlier text, without offset.
TEST(TestKernelExtack, SharedAcrossOneDatagram) {
  TestKernel k(k612);
  auto bad = request(RDMA_NLDEV_CMD_SET, 0, 1, [](nlmsghdr* n) {
    mnl_attr_put_u32(n, RDMA_NLDEV_ATTR_DEV_INDEX, 0);
    mnl_attr_put_u64(n, RDMA_NLDEV_ATTR_DEV_DIM, 1);
  });
  auto unknown = request(RDMA_NLDEV_CMD_GET, 0, 2, dev_index(9));
  testing::Bytes both = bad;
  both.insert(both.end(), unknown.begin(), unknown.end());
  auto r = roundtrip(k, both);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(k.requests(), 2u);
  auto m = messages(r[1]);
  EXPECT_EQ(m[0]->nlmsg_seq, 2u);
  auto t = attrs(m[0], sizeof(nlmsgerr));
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].str(), "invalid attribute length");
  EXPECT_EQ(t[1].type, NLMSGERR_ATTR_POLICY);
}

TEST(TestKernelExtack, ShortAttributeFailsPolicyEverywhere) {
  TestKernel k(k61);
  auto r = roundtrip(k, request(RDMA_NLDEV_CMD_GET, 0, 1, [](nlmsghdr* n) {
                       uint16_t v = 0;
                       mnl_attr_put(n, RDMA_NLDEV_ATTR_DEV_INDEX, sizeof(v), &v);
                     }));
  auto m = messages(r[0]);
  EXPECT_EQ(error_of(m[0]), -EINVAL);
  auto t = attrs(m[0], sizeof(nlmsgerr));
  EXPECT_EQ(t[0].str(), "Attribute failed policy validation");
  EXPECT_EQ(t[1].u32(), 16u);
}

TEST(TestKernelExtack, UnknownAttributeStrictOnly) {
  TestKernel k(k61);
  auto unknown = [](nlmsghdr* n) {
    mnl_attr_put_u32(n, RDMA_NLDEV_ATTR_DEV_INDEX, 0);
    mnl_attr_put_u8(n, nldev::kAttrEventType, 1);  // past 6.1's maxtype
  };
  // SYS_SET is strict on both kernels.
  auto r = roundtrip(k, request(RDMA_NLDEV_CMD_SYS_SET, 0, 1, unknown));
  auto t = attrs(messages(r[0])[0], sizeof(nlmsgerr));
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].str(), "Unknown attribute type");
  // GET is liberal: the attribute is ignored.
  r = roundtrip(k, request(RDMA_NLDEV_CMD_GET, 0, 1, unknown));
  EXPECT_EQ(messages(r[0])[0]->nlmsg_type, nldev::msg_type(RDMA_NLDEV_CMD_GET));
}

TEST(TestKernelLink, NewlinkDellinkAndEvents612) {
  TestKernel k(k612);
  k.state.netdevs.push_back({4, "eth9", {0x52, 0x54, 0, 0x12, 0x34, 0x56}});
  k.join_group(nldev::kGroupNotify);
  auto add = [&](const char* name, const char* type, const char* ndev) {
    return request(RDMA_NLDEV_CMD_NEWLINK, NLM_F_ACK, 5, [=](nlmsghdr* n) {
      mnl_attr_put_strz(n, RDMA_NLDEV_ATTR_DEV_NAME, name);
      mnl_attr_put_strz(n, RDMA_NLDEV_ATTR_LINK_TYPE, type);
      mnl_attr_put_strz(n, RDMA_NLDEV_ATTR_NDEV_NAME, ndev);
    });
  };
  auto r = roundtrip(k, add("siw0", "siw", "eth9"));
  ASSERT_EQ(r.size(), 3u);  // REGISTER, NETDEV_ATTACH, ack
  auto reg = messages(r[0])[0];
  EXPECT_EQ(reg->nlmsg_type, nldev::msg_type(nldev::kCmdMonitor));
  EXPECT_EQ(reg->nlmsg_pid, 0u);
  EXPECT_EQ(reg->nlmsg_seq, 0u);
  EXPECT_EQ(layout(attrs(reg)), (L{{RDMA_NLDEV_ATTR_DEV_INDEX, 4},
                                   {RDMA_NLDEV_ATTR_DEV_NAME, 5},
                                   {nldev::kAttrEventType, 1}}));
  auto att = attrs(messages(r[1])[0]);
  EXPECT_EQ(layout(att), (L{{RDMA_NLDEV_ATTR_DEV_INDEX, 4},
                            {RDMA_NLDEV_ATTR_DEV_NAME, 5},
                            {RDMA_NLDEV_ATTR_PORT_INDEX, 4},
                            {RDMA_NLDEV_ATTR_NDEV_INDEX, 4},
                            {RDMA_NLDEV_ATTR_NDEV_NAME, 5},
                            {nldev::kAttrEventType, 1}}));
  EXPECT_EQ(att[5].u8(), nldev::kEventNetdevAttach);
  EXPECT_EQ(error_of(messages(r[2])[0]), 0);
  const Device* siw = k.device_by_name("siw0");
  ASSERT_NE(siw, nullptr);
  EXPECT_EQ(siw->index, 2u);
  EXPECT_EQ(siw->protocol, Protocol::kIwarp);
  EXPECT_EQ(siw->node_guid, 0x505400fffe123456ULL);
  EXPECT_EQ(siw->qps.size(), 0u);          // iWARP: no MAD QPs
  EXPECT_EQ(k.device(0)->qps.size(), 1u);  // rxe: QP1 of ib_mad

  EXPECT_EQ(error_of(messages(roundtrip(k, add("siw1", "siw", "eth9"))[0])[0]), -EEXIST);
  EXPECT_EQ(error_of(messages(roundtrip(k, add("rxe0", "rxe", "eth9"))[0])[0]), -ENFILE);
  EXPECT_EQ(error_of(messages(roundtrip(k, add("x", "rxe", "nope"))[0])[0]), -ENODEV);
  EXPECT_EQ(error_of(messages(roundtrip(k, add("x", "foo", "eth9"))[0])[0]), -EINVAL);
  EXPECT_EQ(error_of(messages(roundtrip(k, add("x%d", "rxe", "eth9"))[0])[0]), -EINVAL);

  r = roundtrip(k, request(RDMA_NLDEV_CMD_DELLINK, NLM_F_ACK, 6, dev_index(2)));
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(attrs(messages(r[0])[0]).back().u8(), nldev::kEventUnregister);
  EXPECT_EQ(error_of(messages(r[1])[0]), 0);
  EXPECT_EQ(k.device(2), nullptr);
  // Rename sends no event on 6.12 (RENAME events came with 6.13).
  r = roundtrip(k, request(RDMA_NLDEV_CMD_SET, NLM_F_ACK, 1, [](nlmsghdr* n) {
                  mnl_attr_put_u32(n, RDMA_NLDEV_ATTR_DEV_INDEX, 0);
                  mnl_attr_put_strz(n, RDMA_NLDEV_ATTR_DEV_NAME, "foo");
                }));
  EXPECT_EQ(r.size(), 1u);
}

TEST(TestKernelLink, NetdevDetachEvent) {
  TestKernel k(k612);
  k.join_group(nldev::kGroupNotify);
  k.set_netdev(1, 1, std::nullopt);
  uint8_t buf[256];
  size_t n = k.recv(buf, sizeof(buf));
  ASSERT_GT(n, 0u);
  testing::Bytes d(buf, buf + n);
  auto a = attrs(messages(d)[0]);
  EXPECT_EQ(layout(a), (L{{RDMA_NLDEV_ATTR_DEV_INDEX, 4},
                          {RDMA_NLDEV_ATTR_DEV_NAME, 5},
                          {RDMA_NLDEV_ATTR_PORT_INDEX, 4},
                          {nldev::kAttrEventType, 1}}));
  EXPECT_EQ(a[3].u8(), nldev::kEventNetdevDetach);
  EXPECT_EQ(k.recv(buf, sizeof(buf)), 0u);
}

TEST(TestKernelLink, NoEventsOn61) {
  TestKernel k(k61);
  k.join_group(nldev::kGroupNotify);  // accepted, silent
  auto r = roundtrip(k, request(RDMA_NLDEV_CMD_DELLINK, NLM_F_ACK, 6, dev_index(1)));
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(error_of(messages(r[0])[0]), 0);
  Options o;
  o.version = k61;
  o.net_admin = false;
  TestKernel user(o, vm_fixture(k61));
  EXPECT_THROW(user.join_group(nldev::kGroupNotify), rdma::Error);
}

TEST(TestKernelLink, NewdevDeldev612) {
  TestKernel k(k612);
  uint32_t ib = k.register_device(make_ib("mlx5_0", 1, 1)).index;
  auto newdev = [&](uint32_t parent, const char* name) {
    return roundtrip(k, request(nldev::kCmdNewDev, NLM_F_ACK, 1, [=](nlmsghdr* n) {
                       mnl_attr_put_u32(n, RDMA_NLDEV_ATTR_DEV_INDEX, parent);
                       mnl_attr_put_strz(n, RDMA_NLDEV_ATTR_DEV_NAME, name);
                       mnl_attr_put_u8(n, nldev::kAttrDevType, nldev::kDevTypeSmi);
                     }));
  };
  EXPECT_EQ(error_of(messages(newdev(0, "smi0")[0])[0]), -EOPNOTSUPP);
  EXPECT_EQ(error_of(messages(newdev(ib, "smi0")[0])[0]), 0);
  Device* smi = k.device_by_name("smi0");
  ASSERT_NE(smi, nullptr);
  auto reply = roundtrip(k, request(RDMA_NLDEV_CMD_GET, 0, 1, dev_index(smi->index)));
  auto a = attrs(messages(reply.at(0))[0]);
  EXPECT_EQ(a[4].type, RDMA_NLDEV_ATTR_FW_VERSION);
  EXPECT_EQ(a[9].type, nldev::kAttrDevType);
  EXPECT_EQ(a[10].type, nldev::kAttrParentName);
  EXPECT_EQ(a[10].str(), "mlx5_0");
  auto del = [&](uint32_t index) {
    return error_of(
        messages(roundtrip(k, request(nldev::kCmdDelDev, NLM_F_ACK, 1, dev_index(index)))[0])[0]);
  };
  EXPECT_EQ(del(ib), -EOPNOTSUPP);
  EXPECT_EQ(del(smi->index), 0);
  // 6.1 has no such command.
  TestKernel old(k61);
  EXPECT_EQ(
      error_of(messages(roundtrip(old, request(nldev::kCmdDelDev, 0, 1, dev_index(0)))[0])[0]),
      -EINVAL);
}

TEST(TestKernelMisc, InjectAndCount) {
  TestKernel k(k612);
  k.inject({1, 2, 3});
  uint8_t buf[16];
  EXPECT_EQ(k.recv(buf, sizeof(buf)), 3u);
  EXPECT_EQ(buf[2], 3);
  EXPECT_EQ(k.recv(buf, sizeof(buf)), 0u);
  roundtrip(k, request(RDMA_NLDEV_CMD_SYS_GET, 0, 1));
  roundtrip(k, request(RDMA_NLDEV_CMD_GET, NLM_F_DUMP, 2));
  EXPECT_EQ(k.requests(), 2u);
}

}  // namespace
}  // namespace rdma::testkernel
