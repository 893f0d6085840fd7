#include "lib/mad/target.h"

#include <gtest/gtest.h>

#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/testing/captured.h"
#include "lib/testing/fake_transport.h"

namespace rdma::mad {
namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(Target, ParsesLids) {
  EXPECT_EQ(parse_lid("4"), 4);
  EXPECT_EQ(parse_lid("0x10"), 16);
  EXPECT_EQ(parse_lid("49151"), 49151);
  EXPECT_EQ(error_of([] { parse_lid("0"); }),
            "invalid LID \"0\" (expected 1-49151, decimal or 0x hex)");
  EXPECT_EQ(error_of([] { parse_lid("4x"); }),
            "invalid LID \"4x\" (expected 1-49151, decimal or 0x hex)");
  EXPECT_EQ(error_of([] { parse_lid("-1"); }),
            "invalid LID \"-1\" (expected 1-49151, decimal or 0x hex)");
  EXPECT_EQ(error_of([] { parse_lid("0xc000"); }),
            "LID 0xc000 is a multicast LID; a target needs a unicast LID");
  EXPECT_EQ(error_of([] { parse_lid("0xfffe"); }),
            "LID 0xfffe is a multicast LID; a target needs a unicast LID");
  // 0xffff is the permissive LID, not a multicast one.
  EXPECT_EQ(error_of([] { parse_lid("65535"); }),
            "LID 65535 is the permissive LID; a target needs a unicast LID");
  EXPECT_EQ(error_of([] { parse_lid("0xffff"); }),
            "LID 0xffff is the permissive LID; a target needs a unicast LID");
}

TEST(Target, ParsesGuidsInBothForms) {
  EXPECT_EQ(parse_guid("0x0002c90300a1b2c3"), 0x0002c90300a1b2c3ull);
  EXPECT_EQ(parse_guid("0x100001"), 0x100001ull);
  EXPECT_EQ(parse_guid("0002:c903:00a1:b2c3"), 0x0002c90300a1b2c3ull);
  EXPECT_THROW(parse_guid("0002:c903:00a1"), Error);
  EXPECT_THROW(parse_guid("12345"), Error);
  EXPECT_THROW(parse_guid("0x"), Error);
  EXPECT_THROW(parse_guid("0x12345678123456789"), Error);
  EXPECT_THROW(parse_guid("000g:c903:00a1:b2c3"), Error);
}

TEST(Target, ParsesGids) {
  auto g = parse_gid("fe80::2:c903:a1:b2c3");
  EXPECT_EQ(g[0], 0xfe);
  EXPECT_EQ(g[1], 0x80);
  EXPECT_EQ(g[15], 0xc3);
  EXPECT_THROW(parse_gid("fe80::zz"), Error);
}

TEST(Target, ParsesDirectedRoutes) {
  EXPECT_EQ(parse_path("0"), std::vector<uint8_t>{});
  EXPECT_EQ(parse_path("0,1,4"), (std::vector<uint8_t>{1, 4}));
  EXPECT_EQ(parse_path("1,4"), (std::vector<uint8_t>{1, 4}));
  EXPECT_THROW(parse_path("0,0"), Error);
  EXPECT_THROW(parse_path("0,256"), Error);
  EXPECT_THROW(parse_path("0,,1"), Error);
  EXPECT_THROW(parse_path("0,1,"), Error);
  std::string long_path = "0";
  for (int i = 0; i < 63; ++i) long_path += ",1";
  EXPECT_EQ(parse_path(long_path).size(), 63u);
  EXPECT_THROW(parse_path(long_path + ",1"), Error);
}

TEST(Target, ParsesTargetWords) {
  std::vector<std::string> w = {"lid", "4", "port", "1"};
  size_t i = 0;
  auto t = parse_target(w, i);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->lid, 4);
  EXPECT_EQ(i, 2u);
  w = {"7"};
  i = 0;
  EXPECT_EQ(parse_target(w, i)->lid, 7);
  w = {"dr", "0,2"};
  i = 0;
  t = parse_target(w, i);
  EXPECT_EQ(t->kind, Target::Kind::Dr);
  EXPECT_EQ(t->text, "dr 0,2");
  w = {"guid", "0x100001"};
  i = 0;
  EXPECT_EQ(parse_target(w, i)->text, "guid 0x0000000000100001");
  w = {"port", "1"};
  i = 0;
  EXPECT_FALSE(parse_target(w, i));
  EXPECT_EQ(i, 0u);
  w = {"lid"};
  i = 0;
  EXPECT_EQ(error_of([&] { parse_target(w, i); }), "\"lid\" needs a LID");
}

TEST(Target, ParsesANodeName) {
  std::vector<std::string> w = {"name", "gpu-node-02", "port", "1"};
  size_t i = 0;
  auto t = parse_target(w, i);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->kind, Target::Kind::Name);
  EXPECT_EQ(t->name, "gpu-node-02");
  EXPECT_EQ(t->text, "name \"gpu-node-02\"");
  EXPECT_EQ(i, 2u);
  w = {"name"};
  i = 0;
  EXPECT_EQ(error_of([&] { parse_target(w, i); }), "\"name\" needs a node name");
  w = {"name", ""};
  i = 0;
  EXPECT_EQ(error_of([&] { parse_target(w, i); }), "empty node name after \"name\"");
  w = {"gpu-node-02"};  // a bare word is the command's to take (Args::target_or_name)
  i = 0;
  EXPECT_FALSE(parse_target(w, i));
}

LocalPort local_with_sm(uint16_t sm) {
  return captured::hca1_port(sm);
}

TEST(Target, ResolvesGuidsThroughTheSa) {
  FakeTransport t([](const Mad& m, const Address& to) -> std::optional<std::vector<uint8_t>> {
    EXPECT_EQ(to.lid, 1);
    EXPECT_EQ(to.qp, 1u);
    EXPECT_EQ(m.mgmt_class(), kClassSa);
    EXPECT_EQ(m.get(hdr::kCompMask), 0x0cu);  // DGID | SGID
    // DGID: the local prefix and the GUID asked for.
    EXPECT_EQ(get_bits(m.data(), 64, 64), 0xfe80000000000000ull);
    EXPECT_EQ(get_bits(m.data(), 128, 64), 0x200004ull);
    EXPECT_EQ(get_bits(m.data(), 256, 64), 0x100001ull);  // SGID: ours
    std::vector<uint8_t> rec(64);
    set_bits(rec, 320, 16, 9);  // DLID
    return reply_to(m, rec);
  });
  Engine e(t, {.timeout_ms = 50, .retries = 0, .window = 1});
  Target tg;
  tg.kind = Target::Kind::Guid;
  tg.guid = 0x200004;
  tg.text = "guid x";
  Route r = resolve(e, local_with_sm(1), tg);
  EXPECT_FALSE(r.directed);
  EXPECT_EQ(r.lid, 9);
}

TEST(Target, ExplainsAMissingSubnetManager) {
  FakeTransport t([](const Mad&, const Address&) { return std::nullopt; });
  Engine e(t, {.timeout_ms = 5, .retries = 1, .window = 1});
  Target tg;
  tg.kind = Target::Kind::Guid;
  tg.text = "guid 0x0000000000200004";
  EXPECT_EQ(error_of([&] { resolve(e, local_with_sm(0), tg); }),
            "cannot resolve guid 0x0000000000200004: no subnet manager (the local port has no SM "
            "LID); use a LID or \"dr\"");
  EXPECT_EQ(error_of([&] { resolve(e, local_with_sm(1), tg); }),
            "cannot resolve guid 0x0000000000200004: the subnet manager (SA at lid 1) does not "
            "answer; is one running?");
  EXPECT_EQ(t.sent.size(), 2u);  // one try and one retry
}

TEST(Target, ExplainsAnUnknownGuid) {
  FakeTransport t([](const Mad& m, const Address&) -> std::optional<std::vector<uint8_t>> {
    return reply_to(m, {}, 0x0300);  // SA: no records
  });
  Engine e(t, {.timeout_ms = 50, .retries = 0, .window = 1});
  Target tg;
  tg.kind = Target::Kind::Gid;
  tg.text = "gid fe80::99";
  EXPECT_EQ(error_of([&] { resolve(e, local_with_sm(1), tg); }),
            "cannot resolve gid fe80::99: no such port in the subnet");
  EXPECT_THROW(resolve(e, local_with_sm(1), tg), NoSuchPort);  // MadClient looks further
}

TEST(Target, LidsAndRoutesNeedNoSa) {
  FakeTransport t([](const Mad&, const Address&) { return std::nullopt; });
  Engine e(t, {});
  Target tg;
  tg.lid = 3;
  EXPECT_EQ(resolve(e, local_with_sm(0), tg).lid, 3);
  tg.kind = Target::Kind::Dr;
  tg.lid = 0;  // a LID with a route makes it a combined one
  tg.path = {1, 2};
  Route r = resolve(e, local_with_sm(0), tg);
  EXPECT_TRUE(r.directed);
  EXPECT_EQ(route_text(r), "dr 0,1,2");
  EXPECT_TRUE(t.sent.empty());
}

// smpquery -c: "dr lid L PATH", LID-routed to L, directed from there; the
// LID and the path are one target, so two targets still read as two.
TEST(Target, ParsesCombinedRoutes) {
  std::vector<std::string> w = {"dr", "lid", "4", "0,2", "port", "1"};
  size_t i = 0;
  std::optional<Target> t = parse_target(w, i);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->kind, Target::Kind::Dr);
  EXPECT_EQ(t->lid, 4);
  EXPECT_EQ(t->path, std::vector<uint8_t>{2});
  EXPECT_EQ(t->text, "dr lid 4 0,2");
  EXPECT_EQ(i, 4u);
  FakeTransport ft([](const Mad&, const Address&) { return std::nullopt; });
  Engine e(ft, {});
  Route r = resolve(e, local_with_sm(0), *t);
  EXPECT_TRUE(r.directed);
  EXPECT_EQ(r.lid, 4);
  EXPECT_EQ(route_text(r), "dr lid 4 0,2");
  w = {"lid", "1", "dr", "0,1,3"};
  i = 0;
  EXPECT_EQ(parse_target(w, i)->text, "lid 1");
  EXPECT_EQ(parse_target(w, i)->text, "dr 0,1,3");
  w = {"dr", "lid", "4"};
  i = 0;
  EXPECT_EQ(error_of([&] { parse_target(w, i); }),
            "\"dr lid\" needs a LID and a directed route from it, like dr lid 4 0,1");
  w = {"dr", "lid", "0xc000", "0,1"};
  EXPECT_EQ(error_of([&] { parse_target(w, i); }),
            "LID 0xc000 is a multicast LID; a target needs a unicast LID");
}

}  // namespace
}  // namespace rdma::mad
