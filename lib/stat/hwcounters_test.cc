#include "lib/stat/hwcounters.h"

#include <gtest/gtest.h>
#include <rdma/rdma_netlink.h>

#include "lib/error.h"

namespace rdma::stat {
namespace {

// A STAT_HWCOUNTERS nest built in a buffer; entries as (name, value|none).
struct Nest {
  std::vector<uint8_t> buf = std::vector<uint8_t>(1024);
  nlmsghdr* nlh = mnl_nlmsg_put_header(buf.data());
  nlattr* table = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
  void entry(const char* name, std::optional<uint64_t> v, std::optional<uint8_t> dyn = {}) {
    nlattr* e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);
    if (name) mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, name);
    if (v) mnl_attr_put_u64(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, *v);
    if (dyn) mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC, *dyn);
    mnl_attr_nest_end(nlh, e);
  }
  const nlattr* done() {
    mnl_attr_nest_end(nlh, table);
    return table;
  }
};

TEST(HwCounters, ParseAndRender) {
  Nest n;
  n.entry("rx", 5);
  n.entry("cc", 0, 1);
  auto c = parse_hwcounters(n.done());
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].name, "rx");
  EXPECT_FALSE(c[0].enabled);
  EXPECT_EQ(c[1].enabled, true);
  view::Record r;
  add_counters(c, r);
  EXPECT_EQ(r[0].text, "\n    rx 5 ");
  EXPECT_EQ(r[0].key, "rx");
  EXPECT_EQ(r[0].value, 5u);
}

TEST(HwCounters, ATextOnlyRecordHasOneFieldForAllCounters) {
  Nest n;
  n.entry("rx", 5);
  n.entry("tx", 7);
  auto c = parse_hwcounters(n.done());
  view::Record r;
  r.set_text_only(true);
  add_counters(c, r);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].text, "\n    rx 5 \n    tx 7 ");
  EXPECT_EQ(r[0].key, "");
  add_counters({}, r);
  EXPECT_EQ(r.size(), 1u);
}

TEST(HwCounters, EmptyTable) {
  Nest n;
  EXPECT_TRUE(parse_hwcounters(n.done()).empty());
}

TEST(HwCounters, StatusRepliesHaveNoValues) {
  Nest n;
  n.entry("cc", std::nullopt, 0);
  const nlattr* t = n.done();
  EXPECT_THROW(parse_hwcounters(t), Error);
  EXPECT_EQ(parse_hwcounters(t, false).at(0).name, "cc");
}

TEST(HwCounters, EntryWithoutNameIsMalformed) {
  Nest n;
  n.entry(nullptr, 1);
  EXPECT_THROW(parse_hwcounters(n.done()), Error);
}

}  // namespace
}  // namespace rdma::stat
