#include "lib/res/qplist.h"

#include <gtest/gtest.h>

#include <vector>

#include "lib/error.h"
#include "lib/nl/nldev.h"
#include "lib/res/types.h"

namespace rdma::res {
namespace {

// An RES_QP nest: {lqpn} entries or {min,max} ranges.
struct Nest {
  std::vector<uint8_t> buf = std::vector<uint8_t>(1 << 16);
  nlmsghdr* nlh = mnl_nlmsg_put_header(buf.data());
  nlattr* table = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_QP);
  Nest& qp(uint32_t n) {
    nlattr* e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_QP_ENTRY);
    mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_RES_LQPN, n);
    mnl_attr_nest_end(nlh, e);
    return *this;
  }
  Nest& range(uint32_t lo, uint32_t hi) {
    nlattr* e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_RES_QP_ENTRY);
    mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_MIN_RANGE, lo);
    mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_MAX_RANGE, hi);
    mnl_attr_nest_end(nlh, e);
    return *this;
  }
  const nlattr* done() {
    mnl_attr_nest_end(nlh, table);
    return table;
  }
};

Filter lqpn(const std::string& v) {
  for (const TypeSpec& t : types()) {
    if (std::string_view(t.name) != "srq") continue;
    Filters f;
    f.add(find_key(t.keys, "lqpn"), v);
    return *f.get("lqpn");
  }
  throw Error("no srq");
}

TEST(ResQpList, SinglesAndRanges) {
  Nest n;
  QpList l = srq_qps(n.qp(5).range(17, 20).qp(30).done(), nullptr);
  EXPECT_EQ(l.text, "5,17-20,30");
  EXPECT_EQ(l.json.dump(), R"(["5","17-20","30"])");
}

TEST(ResQpList, EmptyTable) {
  Nest n;
  QpList l = srq_qps(n.done(), nullptr);
  EXPECT_EQ(l.text, "");
  EXPECT_TRUE(l.json.empty());
}

TEST(ResQpList, FilterCutsRanges) {
  Nest n;
  const nlattr* t = n.qp(5).range(17, 20).qp(30).range(40, 49).done();
  Filter f = lqpn("18,20-41,5,48-100");
  EXPECT_EQ(srq_qps(t, &f).text, "5,18,20,30,40-41,48-49");
  Filter none = lqpn("1-4");
  EXPECT_EQ(srq_qps(t, &none).text, "");
}

TEST(ResQpList, NoLengthLimit) {
  // iproute2 stops at 256 characters; every QP shows here.
  Nest n;
  for (uint32_t q = 1000; q < 1400; q += 2) n.qp(q);
  QpList l = srq_qps(n.done(), nullptr);
  EXPECT_EQ(l.json.size(), 200u);
  EXPECT_GT(l.text.size(), 256u);
  EXPECT_EQ(l.text.substr(l.text.size() - 4), "1398");
}

TEST(ResQpList, MalformedEntries) {
  Nest a;
  nlattr* e = mnl_attr_nest_start(a.nlh, RDMA_NLDEV_ATTR_RES_QP_ENTRY);
  mnl_attr_put_u32(a.nlh, RDMA_NLDEV_ATTR_MIN_RANGE, 3);  // no MAX_RANGE
  mnl_attr_nest_end(a.nlh, e);
  EXPECT_THROW(srq_qps(a.done(), nullptr), Error);

  Nest b;
  EXPECT_THROW(srq_qps(b.range(9, 3).done(), nullptr), Error);

  Nest c;
  nlattr* f = mnl_attr_nest_start(c.nlh, RDMA_NLDEV_ATTR_RES_QP_ENTRY);
  mnl_attr_put_u8(c.nlh, RDMA_NLDEV_ATTR_RES_LQPN, 3);  // wrong size
  mnl_attr_nest_end(c.nlh, f);
  EXPECT_THROW(srq_qps(c.done(), nullptr), Error);

  Nest d;
  const nlattr* t = d.qp(1).qp(2).done();
  // Cut the table inside its last entry: the entry runs past the nest.
  const_cast<nlattr*>(t)->nla_len -= 4;
  EXPECT_THROW(srq_qps(t, nullptr), Error);
}

}  // namespace
}  // namespace rdma::res
