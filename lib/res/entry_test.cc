// Resource entries from real netlink bytes: a type's columns in text and
// JSON, the filters deciding what shows, the device and port prefix,
// values a column hides, and dump replies walked entry by entry.
#include "lib/res/entry.h"

#include <gtest/gtest.h>
#include <rdma/rdma_netlink.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "lib/error.h"

namespace rdma::res {
namespace {

const TypeSpec& entry_type(std::string_view name) {
  for (const TypeSpec& t : types())
    if (t.name == name) return t;
  throw Error("no type " + std::string(name));
}

struct EntryMsg {
  std::vector<uint8_t> buf = std::vector<uint8_t>(4096);
  nlmsghdr* h = mnl_nlmsg_put_header(buf.data());
  nl::Attrs attrs() const { return nl::Attrs::of_message(h); }
};

const DevRef kEntryDev{3, "rxe0", "ether", "ib"};

// The entry rendered as the printers would see it: text joined, JSON as
// the members joined by commas. "hidden" when the filters drop it.
std::string entry_render(const TypeSpec& t, const nl::Attrs& a, const Filters& f,
                         EntryOpts o = {}) {
  EntryView v(t, f, o);
  view::Record r;
  if (!v.render(a, kEntryDev, r)) return "hidden";
  std::string s;
  for (const view::Field& x : r) {
    if (!o.json) {
      s += x.text;
      continue;
    }
    if (!s.empty()) s += ',';
    if (x.member)
      s += x.json;
    else
      s += '"' + x.key + "\":" + (x.json.empty() ? x.value.dump() : x.json);
  }
  return s;
}

void put_pd(EntryMsg& m) {
  mnl_attr_put_u32(m.h, RDMA_NLDEV_ATTR_RES_PDN, 3);
  mnl_attr_put_u32(m.h, RDMA_NLDEV_ATTR_RES_LOCAL_DMA_LKEY, 0x2eb);
  mnl_attr_put_u64(m.h, RDMA_NLDEV_ATTR_RES_USECNT, 4);
  mnl_attr_put_strz(m.h, RDMA_NLDEV_ATTR_RES_KERN_NAME, "ib_core");
}

TEST(ResEntry, PdColumnsInTextAndJson) {
  EntryMsg m;
  put_pd(m);
  Filters none;
  const TypeSpec& pd = entry_type("pd");
  EXPECT_EQ(entry_render(pd, m.attrs(), none),
            "dev rxe0 pdn 3 local_dma_lkey 0x2eb users 4 comm [ib_core] ");
  EntryOpts json;
  json.json = true;
  EXPECT_EQ(entry_render(pd, m.attrs(), none, json),
            "\"ifindex\":3,\"ifname\":\"rxe0\",\"pdn\":3,\"local_dma_lkey\":\"2eb\","
            "\"users\":4,\"comm\":\"ib_core\"");
}

// A user process: pid, and comm as /proc has it (this test's own).
TEST(ResEntry, CommOfAProcessFromProc) {
  EntryMsg m;
  mnl_attr_put_u32(m.h, RDMA_NLDEV_ATTR_RES_CTXN, 1);
  mnl_attr_put_u32(m.h, RDMA_NLDEV_ATTR_RES_PID, static_cast<uint32_t>(getpid()));
  Filters none;
  std::optional<std::string> comm = process_name(static_cast<uint32_t>(getpid()));
  ASSERT_TRUE(comm);
  EXPECT_EQ(entry_render(entry_type("ctx"), m.attrs(), none),
            "dev rxe0 ctxn 1 pid " + std::to_string(getpid()) + " comm " + *comm + " ");
}

// Numeric filters by value and range; a key the entry has no value for
// (pid of a kernel object) hides it, as in iproute2.
TEST(ResEntry, FiltersDecide) {
  EntryMsg m;
  put_pd(m);
  const TypeSpec& pd = entry_type("pd");
  auto with = [&](const char* key, const char* value) {
    Filters f;
    f.add(find_key(pd.keys, key), value);
    return entry_render(pd, m.attrs(), f) != "hidden";
  };
  EXPECT_TRUE(with("pdn", "3"));
  EXPECT_TRUE(with("pdn", "1,2-4"));
  EXPECT_FALSE(with("pdn", "4"));
  EXPECT_TRUE(with("users", "0x4"));
  EXPECT_FALSE(with("pid", "0-100000"));  // a kernel object has no pid
}

// QPs: "link DEV/PORT" or "DEV/-" without a port; names of enum values,
// UNKNOWN past a table; -portless only keeps those without one.
TEST(ResEntry, QpLinkNamesAndPortless) {
  const TypeSpec& qp = entry_type("qp");
  Filters none;
  EntryMsg m;
  mnl_attr_put_u32(m.h, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
  mnl_attr_put_u32(m.h, RDMA_NLDEV_ATTR_RES_LQPN, 7);
  mnl_attr_put_u8(m.h, RDMA_NLDEV_ATTR_RES_TYPE, 2);
  mnl_attr_put_u8(m.h, RDMA_NLDEV_ATTR_RES_STATE, 200);
  EXPECT_EQ(entry_render(qp, m.attrs(), none), "link rxe0/1 lqpn 7 type RC state UNKNOWN ");
  EntryOpts portless;
  portless.portless_only = true;
  EXPECT_EQ(entry_render(qp, m.attrs(), none, portless), "hidden");
  EntryMsg n;
  mnl_attr_put_u32(n.h, RDMA_NLDEV_ATTR_RES_LQPN, 8);
  EXPECT_EQ(entry_render(qp, n.attrs(), none, portless), "link rxe0/- lqpn 8 ");
  EntryOpts json;
  json.json = true;
  EXPECT_EQ(entry_render(qp, m.attrs(), none, json),
            "\"ifindex\":3,\"ifname\":\"rxe0\",\"port\":1,\"lqpn\":7,\"type\":\"RC\","
            "\"state\":\"UNKNOWN\"");
}

// A CQ's adaptive moderation: on/off, a JSON boolean; 2 and up (the
// kernel's "not supported") hide the column.
TEST(ResEntry, OnOffColumnHidesUnsupported) {
  const TypeSpec& cq = entry_type("cq");
  Filters none;
  for (uint8_t dim : {0, 1, 2}) {
    EntryMsg m;
    mnl_attr_put_u32(m.h, RDMA_NLDEV_ATTR_RES_CQN, 5);
    mnl_attr_put_u8(m.h, RDMA_NLDEV_ATTR_DEV_DIM, dim);
    const char* want = dim == 0   ? "dev rxe0 cqn 5 adaptive-moderation off "
                       : dim == 1 ? "dev rxe0 cqn 5 adaptive-moderation on "
                                  : "dev rxe0 cqn 5 ";
    EXPECT_EQ(entry_render(cq, m.attrs(), none), want) << int(dim);
  }
}

// An MR's iova: all 64 bits (iproute2 cut it to 32).
TEST(ResEntry, KeysKeepAllTheirBits) {
  EntryMsg m;
  mnl_attr_put_u32(m.h, RDMA_NLDEV_ATTR_RES_MRN, 1);
  mnl_attr_put_u64(m.h, RDMA_NLDEV_ATTR_RES_IOVA, 0xffffffff00001000ull);
  mnl_attr_put_u64(m.h, RDMA_NLDEV_ATTR_RES_MRLEN, UINT64_MAX);
  Filters none;
  EXPECT_EQ(entry_render(entry_type("mr"), m.attrs(), none),
            "dev rxe0 mrn 1 iova 0xffffffff00001000 mrlen 18446744073709551615 ");
}

// A raw entry needs its blob; without it the reply is malformed.
TEST(ResEntry, RawEntryWithoutDataIsAnError) {
  EntryMsg m;
  mnl_attr_put_u32(m.h, RDMA_NLDEV_ATTR_RES_CQN, 5);
  Filters none;
  EntryOpts raw;
  raw.raw = true;
  try {
    entry_render(entry_type("cq"), m.attrs(), none, raw);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "malformed kernel reply: raw cq entry without data");
  }
}

TEST(ResEntry, NumberReadsEveryWidth) {
  EntryMsg m;
  mnl_attr_put_u8(m.h, RDMA_NLDEV_ATTR_RES_TYPE, 255);
  mnl_attr_put_u32(m.h, RDMA_NLDEV_ATTR_RES_PDN, UINT32_MAX);
  mnl_attr_put_u64(m.h, RDMA_NLDEV_ATTR_RES_USECNT, UINT64_MAX);
  nl::Attrs a = m.attrs();
  EXPECT_EQ(number(a, RDMA_NLDEV_ATTR_RES_TYPE), 255u);
  EXPECT_EQ(number(a, RDMA_NLDEV_ATTR_RES_PDN), UINT32_MAX);
  EXPECT_EQ(number(a, RDMA_NLDEV_ATTR_RES_USECNT), UINT64_MAX);
  EXPECT_EQ(number(a, RDMA_NLDEV_ATTR_RES_LQPN), 0u);  // absent
}

// A dump: each nest of the table, with the message's device; a nest of
// another kind, or no device, is a malformed reply; a doit is the message.
TEST(ResEntry, ForEachEntryWalksTheTable) {
  const TypeSpec& pd = entry_type("pd");
  EntryMsg m;
  mnl_attr_put_u32(m.h, RDMA_NLDEV_ATTR_DEV_INDEX, 3);
  mnl_attr_put_strz(m.h, RDMA_NLDEV_ATTR_DEV_NAME, "rxe0");
  nlattr* t = mnl_attr_nest_start(m.h, RDMA_NLDEV_ATTR_RES_PD);
  for (uint32_t pdn : {1u, 9u}) {
    nlattr* e = mnl_attr_nest_start(m.h, RDMA_NLDEV_ATTR_RES_PD_ENTRY);
    mnl_attr_put_u32(m.h, RDMA_NLDEV_ATTR_RES_PDN, pdn);
    mnl_attr_nest_end(m.h, e);
  }
  mnl_attr_nest_end(m.h, t);
  std::string seen;
  for_each_entry(pd, m.h, false, [&](const nl::Attrs& e, uint32_t dev, std::string_view name) {
    seen += std::to_string(dev) + std::string(name) + ":" +
            std::to_string(e.u32(RDMA_NLDEV_ATTR_RES_PDN)) + " ";
  });
  EXPECT_EQ(seen, "3rxe0:1 3rxe0:9 ");
  int doits = 0;
  for_each_entry(pd, m.h, true, [&](const nl::Attrs& e, uint32_t, std::string_view) {
    ++doits;
    EXPECT_TRUE(e.has(RDMA_NLDEV_ATTR_RES_PD));
  });
  EXPECT_EQ(doits, 1);

  EntryMsg wrong;
  mnl_attr_put_u32(wrong.h, RDMA_NLDEV_ATTR_DEV_INDEX, 3);
  mnl_attr_put_strz(wrong.h, RDMA_NLDEV_ATTR_DEV_NAME, "rxe0");
  nlattr* w = mnl_attr_nest_start(wrong.h, RDMA_NLDEV_ATTR_RES_PD);
  mnl_attr_nest_end(wrong.h, mnl_attr_nest_start(wrong.h, RDMA_NLDEV_ATTR_RES_CQ_ENTRY));
  mnl_attr_nest_end(wrong.h, w);
  auto ignore = [](const nl::Attrs&, uint32_t, std::string_view) {};
  try {
    for_each_entry(pd, wrong.h, false, ignore);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "malformed kernel reply: RDMA_NLDEV_ATTR_RES_CQ_ENTRY inside "
                 "RDMA_NLDEV_ATTR_RES_PD");
  }
  EntryMsg nodev;
  mnl_attr_put_u32(nodev.h, RDMA_NLDEV_ATTR_DEV_INDEX, 3);
  EXPECT_THROW(for_each_entry(pd, nodev.h, false, ignore), Error);
  EntryMsg notable;
  mnl_attr_put_u32(notable.h, RDMA_NLDEV_ATTR_DEV_INDEX, 3);
  mnl_attr_put_strz(notable.h, RDMA_NLDEV_ATTR_DEV_NAME, "rxe0");
  EXPECT_THROW(for_each_entry(pd, notable.h, false, ignore), Error);
}

}  // namespace
}  // namespace rdma::res
