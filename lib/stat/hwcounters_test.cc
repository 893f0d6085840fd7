#include "lib/stat/hwcounters.h"

#include <gtest/gtest.h>
#include <rdma/rdma_netlink.h>

#include <string>
#include <vector>

#include "lib/error.h"

namespace rdma::stat {
namespace {

// A STAT_HWCOUNTERS nest built in a buffer; entries as (name, value|none).
struct Nest {
  std::vector<uint8_t> buf = std::vector<uint8_t>(1024);
  nlmsghdr* nlh = mnl_nlmsg_put_header(buf.data());
  nlattr* table = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
  void entry(const char* name, std::optional<uint64_t> v, std::optional<uint8_t> dyn = {}) {
    entry_with(name, v, dyn, [](nlmsghdr*) {});
  }
  // An entry with more attributes put after the usual ones.
  template <typename Extra>
  void entry_with(const char* name, std::optional<uint64_t> v, std::optional<uint8_t> dyn,
                  Extra extra) {
    nlattr* e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);
    if (name) mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, name);
    if (v) mnl_attr_put_u64(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, *v);
    if (dyn) mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC, *dyn);
    extra(nlh);
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

// The in-place path writes what parsing and then rendering write, in text
// and JSON records alike.
TEST(HwCounters, FromTheNestAsFromTheParsedCounters) {
  Nest n;
  n.entry("rx_packets", 5);
  n.entry("a_counter_name_longer_than_a_short_string", 18446744073709551615u);
  n.entry("cc", 0, 1);
  const nlattr* t = n.done();
  for (bool text_only : {true, false}) {
    view::Record parsed, in_place;
    parsed.set_text_only(text_only);
    in_place.set_text_only(text_only);
    add_counters(parse_hwcounters(t), parsed);
    add_counters_from(t, in_place);
    ASSERT_EQ(in_place.size(), text_only ? 1u : 3u);
    ASSERT_EQ(in_place.size(), parsed.size());
    for (size_t i = 0; i < parsed.size(); ++i) {
      EXPECT_EQ(in_place[i].text, parsed[i].text);
      EXPECT_EQ(in_place[i].key, parsed[i].key);
      EXPECT_EQ(in_place[i].value, parsed[i].value);
    }
  }
  view::Record r;
  r.set_text_only(true);
  add_counters_from(t, r);
  EXPECT_EQ(r[0].text,
            "\n    rx_packets 5 \n    a_counter_name_longer_than_a_short_string "
            "18446744073709551615 \n    cc 0 ");
  Nest empty;
  add_counters_from(empty.done(), r);
  EXPECT_EQ(r.size(), 1u);
}

// A name too long for the line built on the stack is written all the same.
TEST(HwCounters, AVeryLongNameIsWrittenWhole) {
  for (size_t len : {100u, 101u, 102u, 200u}) {
    std::string name(len, 'x');
    Nest n;
    n.entry(name.c_str(), 18446744073709551615u);
    view::Record r;
    r.set_text_only(true);
    add_counters_from(n.done(), r);
    EXPECT_EQ(r[0].text, "\n    " + name + " 18446744073709551615 ");
  }
}

TEST(HwCounters, ReadInPlaceWithIndexAndTheLastOfAType) {
  Nest n;
  n.entry_with("first", 1, 0, [](nlmsghdr* nlh) {
    mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX, 7);
    mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, "second");
    mnl_attr_put_u64(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, 2);
    mnl_attr_put_u32(nlh, 1000, 3);  // newer than the tool: ignored
  });
  std::vector<HwCounterEntry> seen;
  for_each_hwcounter(n.done(), true, [&](const HwCounterEntry& e) { seen.push_back(e); });
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].name, "second");
  EXPECT_EQ(seen[0].value, 2u);
  EXPECT_EQ(seen[0].index, 7u);
  EXPECT_EQ(seen[0].enabled, false);
}

// The errors nl::Attrs gives for a malformed entry, word for word.
TEST(HwCounters, AttributesOfTheWrongSizeAreMalformed) {
  auto error_of = [](auto put) {
    Nest n;
    n.entry_with("rx", std::nullopt, std::nullopt, put);
    try {
      parse_hwcounters(n.done());
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_of([](nlmsghdr* nlh) {
              mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, 1);
            }),
            "malformed kernel reply: RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE has 4 bytes, "
            "expected 8");
  EXPECT_EQ(error_of([](nlmsghdr* nlh) {
              mnl_attr_put_u64(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX, 1);
            }),
            "malformed kernel reply: RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX has 8 bytes, expected 4");
  EXPECT_EQ(error_of([](nlmsghdr* nlh) {
              mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC, 1);
            }),
            "malformed kernel reply: RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC has 4 bytes, "
            "expected 1");
  // Another known attribute inside an entry is checked too.
  EXPECT_EQ(error_of([](nlmsghdr* nlh) { mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 1); }),
            "malformed kernel reply: RDMA_NLDEV_ATTR_DEV_INDEX has 1 bytes, expected 4");
  EXPECT_EQ(error_of([](nlmsghdr*) {}),
            "malformed kernel reply: hardware counter \"rx\" without a value");
}

}  // namespace
}  // namespace rdma::stat
