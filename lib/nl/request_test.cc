#include "lib/nl/request.h"

#include <gtest/gtest.h>
#include <rdma/rdma_netlink.h>

#include <string>

#include "lib/error.h"
#include "lib/nl/attrs.h"
#include "lib/nl/nldev.h"

namespace rdma::nl {
namespace {

const nlmsghdr* header_of(const Request& r) {
  return reinterpret_cast<const nlmsghdr*>(r.bytes().data());
}

// What is put is what the kernel parses back, in a doit that asks for an ack.
TEST(NlRequest, DoitCarriesItsAttributesAndAsksForAnAck) {
  Request r(RDMA_NLDEV_CMD_PORT_GET, Request::kDoit);
  r.u32(RDMA_NLDEV_ATTR_DEV_INDEX, 3).u8(RDMA_NLDEV_ATTR_RES_TYPE, 2);
  r.u64(RDMA_NLDEV_ATTR_NODE_GUID, 0x1122334455667788ull).str(RDMA_NLDEV_ATTR_DEV_NAME, "mlx5_0");
  nlattr* nest = r.begin_nest(RDMA_NLDEV_ATTR_RES_QP);
  r.u32(RDMA_NLDEV_ATTR_RES_LQPN, 17).end_nest(nest);
  const nlmsghdr* h = header_of(r);
  EXPECT_EQ(h->nlmsg_len, r.bytes().size());
  EXPECT_EQ(h->nlmsg_type, nldev::msg_type(RDMA_NLDEV_CMD_PORT_GET));
  EXPECT_EQ(h->nlmsg_flags, NLM_F_REQUEST | NLM_F_ACK);
  EXPECT_FALSE(r.is_dump());
  EXPECT_EQ(r.cmd(), RDMA_NLDEV_CMD_PORT_GET);
  Attrs a = Attrs::of_message(h);
  EXPECT_EQ(a.u32(RDMA_NLDEV_ATTR_DEV_INDEX), 3u);
  EXPECT_EQ(a.u8(RDMA_NLDEV_ATTR_RES_TYPE), 2);
  EXPECT_EQ(a.u64(RDMA_NLDEV_ATTR_NODE_GUID), 0x1122334455667788ull);
  EXPECT_EQ(a.str(RDMA_NLDEV_ATTR_DEV_NAME), "mlx5_0");
  EXPECT_EQ(Attrs::of_nest(a.get(RDMA_NLDEV_ATTR_RES_QP)).u32(RDMA_NLDEV_ATTR_RES_LQPN), 17u);
  r.set_seq(42);
  EXPECT_EQ(r.seq(), 42u);
}

TEST(NlRequest, DumpIsFlaggedSo) {
  Request r(RDMA_NLDEV_CMD_RES_QP_GET, Request::kDump);
  EXPECT_TRUE(r.is_dump());
  EXPECT_EQ(header_of(r)->nlmsg_flags, NLM_F_REQUEST | NLM_F_DUMP);
}

// A request past its buffer is an error, not a write beyond it.
TEST(NlRequest, TooLargeIsAnError) {
  Request r(RDMA_NLDEV_CMD_GET, Request::kDoit);
  std::string name(100, 'x');
  try {
    for (int i = 0; i < 20; ++i) r.str(RDMA_NLDEV_ATTR_DEV_NAME, name);
    FAIL() << "20 names of 100 bytes fit in a request";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "request too large");
  }
  EXPECT_LE(r.bytes().size(), 1024u);
}

}  // namespace
}  // namespace rdma::nl
