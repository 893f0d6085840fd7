#include "lib/nl/attrs.h"

#include <gtest/gtest.h>

#include <vector>

#include "lib/error.h"
#include "lib/nl/nldev.h"

namespace rdma::nl {
namespace {

struct Msg {
  std::vector<uint8_t> buf = std::vector<uint8_t>(1024);
  nlmsghdr* h = mnl_nlmsg_put_header(buf.data());
};

TEST(Attrs, ReadsKnownAttributesAndIgnoresNewerOnes) {
  Msg m;
  mnl_attr_put_u32(m.h, RDMA_NLDEV_ATTR_DEV_INDEX, 7);
  mnl_attr_put_strz(m.h, RDMA_NLDEV_ATTR_DEV_NAME, "mlx5_0");
  mnl_attr_put_u64(m.h, RDMA_NLDEV_ATTR_NODE_GUID, 0x1122334455667788ull);
  mnl_attr_put_u32(m.h, 500, 1);  // an attribute from the future
  Attrs a = Attrs::of_message(m.h);
  EXPECT_EQ(a.u32(RDMA_NLDEV_ATTR_DEV_INDEX), 7u);
  EXPECT_EQ(a.str(RDMA_NLDEV_ATTR_DEV_NAME), "mlx5_0");
  EXPECT_EQ(a.u64(RDMA_NLDEV_ATTR_NODE_GUID), 0x1122334455667788ull);
  EXPECT_FALSE(a.has(RDMA_NLDEV_ATTR_FW_VERSION));
}

TEST(Attrs, WrongSizeNamesTheAttribute) {
  Msg m;
  mnl_attr_put_u16(m.h, RDMA_NLDEV_ATTR_DEV_INDEX, 7);  // u32 expected
  try {
    Attrs::of_message(m.h);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("RDMA_NLDEV_ATTR_DEV_INDEX"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("2 bytes, expected 4"), std::string::npos);
  }
}

TEST(Attrs, NeedNamesWhatIsMissingAndMakesTheTextOnlyThen) {
  Msg m;
  mnl_attr_put_u32(m.h, RDMA_NLDEV_ATTR_DEV_INDEX, 7);
  Attrs a = Attrs::of_message(m.h);
  int made = 0;
  auto what = [&] {
    ++made;
    return std::string("device without a name");
  };
  a.need({RDMA_NLDEV_ATTR_DEV_INDEX}, what);
  need({a.get(RDMA_NLDEV_ATTR_DEV_INDEX)}, "index");
  EXPECT_EQ(made, 0);
  try {
    a.need({RDMA_NLDEV_ATTR_DEV_INDEX, RDMA_NLDEV_ATTR_DEV_NAME}, what);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "malformed kernel reply: device without a name");
  }
  EXPECT_EQ(made, 1);
  try {
    need({a.get(RDMA_NLDEV_ATTR_DEV_INDEX), nullptr}, "entry without a count");
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "malformed kernel reply: entry without a count");
  }
}

TEST(Attrs, TruncatedAttributeIsAnError) {
  Msg m;
  mnl_attr_put_strz(m.h, RDMA_NLDEV_ATTR_DEV_NAME, "rxe0");
  m.h->nlmsg_len -= 6;  // cut into the attribute
  EXPECT_THROW(Attrs::of_message(m.h), Error);
}

TEST(Attrs, NestedEntriesAreWalkedAndChecked) {
  Msg m;
  nlattr* table = mnl_attr_nest_start(m.h, RDMA_NLDEV_ATTR_RES_QP);
  for (uint32_t qpn : {1u, 17u}) {
    nlattr* e = mnl_attr_nest_start(m.h, RDMA_NLDEV_ATTR_RES_QP_ENTRY);
    mnl_attr_put_u32(m.h, RDMA_NLDEV_ATTR_RES_LQPN, qpn);
    mnl_attr_nest_end(m.h, e);
  }
  mnl_attr_nest_end(m.h, table);
  Attrs a = Attrs::of_message(m.h);
  std::vector<uint32_t> qpns;
  for_each_nested(a.get(RDMA_NLDEV_ATTR_RES_QP), [&](const nlattr* e) {
    qpns.push_back(Attrs::of_nest(e).u32(RDMA_NLDEV_ATTR_RES_LQPN));
  });
  EXPECT_EQ(qpns, (std::vector<uint32_t>{1, 17}));

  // A nest whose inner entry claims more bytes than the nest holds.
  auto* inner = reinterpret_cast<nlattr*>(
      reinterpret_cast<uint8_t*>(const_cast<nlattr*>(a.get(RDMA_NLDEV_ATTR_RES_QP))) +
      MNL_ATTR_HDRLEN);
  inner->nla_len += 64;
  EXPECT_THROW(for_each_nested(a.get(RDMA_NLDEV_ATTR_RES_QP), [](const nlattr*) {}), Error);
}

// A GET_CHARDEV reply for uverbs as a little-endian kernel writes it
// (nldev_get_chardev, ib_uverbs_get_nl_info): UVERBS_DRIVER_ID is put
// with nla_put_u32 and the kernel's policy has it as NLA_U32, so it is
// 4 bytes; a policy of 8 refused every uverbs reply.
TEST(Attrs, UverbsReplyParsesWithItsFourByteDriverId) {
  alignas(4) const uint8_t reply[] = {
      60, 0, 0,  0, 0x0f, 0x14, 0,   0,   1,   0,   0,   0, 0, 0, 0, 0,  // nlmsghdr (GET_CHARDEV)
      12, 0, 72, 0, 0xc0, 0xe7, 0,   0,   0,   0,   0,   0,              // CHARDEV 231:192
      12, 0, 71, 0, 6,    0,    0,   0,   0,   0,   0,   0,              // CHARDEV_ABI 6
      12, 0, 70, 0, 'u',  'v',  'e', 'r', 'b', 's', '0', 0,              // CHARDEV_NAME
      8,  0, 73, 0, 4,    0,    0,   0,                                  // UVERBS_DRIVER_ID
  };
  Attrs a = Attrs::of_message(reinterpret_cast<const nlmsghdr*>(reply));
  EXPECT_EQ(a.u64(RDMA_NLDEV_ATTR_CHARDEV), 0xe7c0u);
  EXPECT_EQ(a.u64(RDMA_NLDEV_ATTR_CHARDEV_ABI), 6u);
  EXPECT_EQ(a.str(RDMA_NLDEV_ATTR_CHARDEV_NAME), "uverbs0");
  EXPECT_EQ(a.u32(RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID), 4u);
}

}  // namespace
}  // namespace rdma::nl
