#include "lib/res/filter.h"

#include <gtest/gtest.h>

#include "lib/error.h"
#include "lib/res/types.h"

namespace rdma::res {
namespace {

const TypeSpec& type(std::string_view name) {
  for (const TypeSpec& t : types())
    if (name == t.name) return t;
  throw Error("no type");
}

Filters one(std::string_view t, const std::string& key, const std::string& value) {
  Filters f;
  f.add(find_key(type(t).keys, key), value);
  return f;
}

TEST(ResFilter, NumbersListsAndRanges) {
  std::vector<Range> r = parse_numbers("lqpn", "1,4-6,9");
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].lo, 1u);
  EXPECT_EQ(r[0].hi, 1u);
  EXPECT_EQ(r[1].lo, 4u);
  EXPECT_EQ(r[1].hi, 6u);
  EXPECT_EQ(r[2].lo, 9u);
  Filters f = one("qp", "lqpn", "1,4-6,9");
  const Filter& q = *f.get("lqpn");
  for (uint64_t v : {1, 4, 5, 6, 9}) EXPECT_TRUE(q.match(v)) << v;
  for (uint64_t v : {0, 2, 3, 7, 8, 10}) EXPECT_FALSE(q.match(v)) << v;
}

TEST(ResFilter, HexAnd64Bit) {
  Filters f = one("mr", "mrlen", "0x10-0x1F,18446744073709551615");
  const Filter& m = *f.get("mrlen");
  EXPECT_TRUE(m.match(16));
  EXPECT_TRUE(m.match(31));
  EXPECT_FALSE(m.match(32));
  EXPECT_TRUE(m.match(UINT64_MAX));
  EXPECT_FALSE(m.match(UINT64_MAX - 1));
  // A value above 32 bits is not cut to 32 bits.
  Filters g = one("mr", "mrlen", "0x100000010");
  EXPECT_FALSE(g.get("mrlen")->match(0x10));
  EXPECT_TRUE(g.get("mrlen")->match(0x100000010));
}

TEST(ResFilter, BadNumbersNameTheKey) {
  for (const char* v :
       {"", "abc", "1,,2", "5-3", "0x", "-4", "4-", "18446744073709551616", "1.5"}) {
    try {
      one("qp", "lqpn", v);
      ADD_FAILURE() << "accepted \"" << v << "\"";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("lqpn"), std::string::npos) << e.what();
    }
  }
}

TEST(ResFilter, SingleValueSelectsDoit) {
  EXPECT_EQ(one("qp", "lqpn", "7").get("lqpn")->single(), 7u);
  EXPECT_EQ(one("qp", "lqpn", "0x7").get("lqpn")->single(), 7u);
  EXPECT_EQ(one("qp", "lqpn", "7-7").get("lqpn")->single(), 7u);
  EXPECT_FALSE(one("qp", "lqpn", "7,8").get("lqpn")->single());
  EXPECT_FALSE(one("qp", "lqpn", "7-8").get("lqpn")->single());
}

TEST(ResFilter, StringsIgnoreCaseAndTakeLists) {
  Filters f = one("qp", "state", "rts,Init");
  const Filter& s = *f.get("state");
  EXPECT_TRUE(s.match("RTS"));
  EXPECT_TRUE(s.match("INIT"));
  EXPECT_FALSE(s.match("RTR"));
  EXPECT_FALSE(s.match("RT"));
}

TEST(ResFilter, UnknownNamesAreRejected) {
  EXPECT_THROW(one("qp", "state", "RTX"), Error);
  EXPECT_THROW(one("qp", "type", "RC,XX"), Error);
  EXPECT_THROW(one("cm_id", "ps", "SCTP"), Error);
  EXPECT_THROW(one("cq", "poll-ctx", "POLL"), Error);
  EXPECT_THROW(one("srq", "type", "BIG"), Error);
  EXPECT_THROW(one("cm_id", "dev-type", "token-ring"), Error);
  EXPECT_THROW(one("cm_id", "transport-type", "tcp"), Error);
  EXPECT_NO_THROW(one("cm_id", "ps", "ib,ipoib,tcp,udp"));
  EXPECT_NO_THROW(one("qp", "state", "unknown"));  // what out-of-range values print
}

TEST(ResFilter, AddressesCompareAsAddresses) {
  Filters f = one("cm_id", "src-addr", "2001:DB8:0::1,192.0.2.1");
  const Filter& a = *f.get("src-addr");
  EXPECT_TRUE(a.match("2001:db8::1"));
  EXPECT_TRUE(a.match("192.0.2.1"));
  EXPECT_FALSE(a.match("192.0.2.2"));
  EXPECT_THROW(one("cm_id", "dst-addr", "192.0.2"), Error);
  EXPECT_TRUE(one("cm_id", "dst-port", "7174").get("dst-port")->match(7174));
}

TEST(ResFilter, KeysAbbreviateInIproute2Order) {
  EXPECT_STREQ(find_key(type("qp").keys, "l").name, "link");
  EXPECT_STREQ(find_key(type("qp").keys, "lq").name, "lqpn");
  EXPECT_STREQ(find_key(type("qp").keys, "s").name, "sq-psn");
  EXPECT_STREQ(find_key(type("qp").keys, "st").name, "state");
  EXPECT_STREQ(find_key(type("cm_id").keys, "d").name, "dev-type");
  EXPECT_STREQ(find_key(type("cm_id").keys, "dev").name, "dev");  // exact beats prefix
  EXPECT_STREQ(find_key(type("cq").keys, "c").name, "cqn");
  EXPECT_STREQ(find_key(type("srq").keys, "l").name, "lqpn");
  EXPECT_THROW(find_key(type("qp").keys, "foo"), Error);
  EXPECT_THROW(find_key(type("qp").keys, "lqpnx"), Error);
}

TEST(ResFilter, EveryKeyOfEveryTypeParses) {
  for (const TypeSpec& t : types()) {
    for (const FilterKey& k : t.keys) {
      if (k.src == Src::kScope) continue;
      const char* v = k.numeric()                    ? "1,2-3"
                      : k.src == Src::kName          ? k.names->table[0]
                      : k.src == Src::kPortSpace     ? "TCP"
                      : k.src == Src::kAddr          ? "192.0.2.1"
                      : k.src == Src::kDevType       ? "ether"
                      : k.src == Src::kTransportType ? "iwarp"
                                                     : "?";
      Filters f;
      EXPECT_NO_THROW(f.add(find_key(t.keys, k.name), v)) << t.name << " " << k.name;
    }
  }
}

TEST(ResFilter, RepeatedKeyIsAnError) {
  Filters f;
  f.add(find_key(type("qp").keys, "lqpn"), "1");
  EXPECT_THROW(f.add(find_key(type("qp").keys, "lq"), "2"), Error);
}

}  // namespace
}  // namespace rdma::res
