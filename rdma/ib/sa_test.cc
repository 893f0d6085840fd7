// rdma sa show against the fabric double's SA (tests/ibsim/net): tables of
// many MADs as the kernel's RMPP agent hands them over (Reassembled), and
// cut to their first MAD as under ibsim (FirstOnly).
#include "lib/mad/sa.h"

#include <gtest/gtest.h>

#include "lib/mad/attrs.h"
#include "rdma/ib/fabric_fixture.h"

namespace rdma {
namespace {

ibtest::FabricOptions rmpp(ibtest::RmppMode m) {
  ibtest::FabricOptions o;
  o.rmpp = m;
  return o;
}

class SaCmd : public test::OnFakeFabric {
 protected:
  SaCmd() : OnFakeFabric("net", rmpp(ibtest::RmppMode::Reassembled)) {}
  uint16_t lid_of(const char* node, int port = 0) { return fabric_.lid(fabric_.node(node), port); }
};

TEST_F(SaCmd, NodesComeWholeThroughRmpp) {
  // Six NodeRecords of 112 bytes: four MADs' worth, one reassembled reply.
  nlohmann::json j = json({"sa", "show", "nodes"});
  ASSERT_EQ(j.size(), 6u);
  for (const auto& n : j) {
    const auto& node = fabric_.nodes()[fabric_.node(n["description"].get<std::string>())];
    EXPECT_EQ(n["node_guid"], guid(node.node_guid));
    EXPECT_EQ(n["port_guid"], guid(node.is_switch() ? node.ports[0].guid : node.ports[1].guid));
    EXPECT_EQ(n["lid"], fabric_.lid(fabric_.node(node.id), node.is_switch() ? 0 : 1));
  }
  EXPECT_EQ(
      fabric_.stats().received[mad::kClassSmiLid] + fabric_.stats().received[mad::kClassSmiDr], 0u);
}

TEST_F(SaCmd, FiltersByLidGuidPortAndName) {
  uint16_t sw1 = lid_of("sw1");
  nlohmann::json j = json({"sa", "show", "nodes", "lid", std::to_string(sw1)});
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["description"], "sw1");
  EXPECT_EQ(json({"sa", "show", "nodes", "name", "hca3"})[0]["lid"], lid_of("hca3", 1));
  std::string g = guid(fabric_.nodes()[fabric_.node("hca2")].node_guid);
  EXPECT_EQ(json({"sa", "show", "nodes", "guid", g})[0]["description"], "hca2");
  // A switch's ports: 0-8; one of them by number.
  EXPECT_EQ(json({"sa", "show", "ports", "lid", std::to_string(sw1)}).size(), 9u);
  nlohmann::json p = json({"sa", "show", "ports", "lid", std::to_string(sw1), "port", "3"});
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0]["port"], 3);
  EXPECT_EQ(p[0]["lid"], sw1);
  EXPECT_EQ(json({"sa", "show", "switches", "name", "sw2"})[0]["lid"], lid_of("sw2"));
}

TEST_F(SaCmd, LinksPathsAndTheSm) {
  // Six links, each from both ends.
  nlohmann::json links = json({"sa", "show", "links"});
  EXPECT_EQ(links.size(), 12u);
  nlohmann::json from = json({"sa", "show", "links", "lid", std::to_string(lid_of("hca1", 1))});
  ASSERT_EQ(from.size(), 1u);
  EXPECT_EQ(from[0]["to_lid"], lid_of("sw1"));
  EXPECT_EQ(from[0]["to_port"], 1);
  std::string a = std::to_string(lid_of("hca1", 1)), b = std::to_string(lid_of("hca4", 1));
  nlohmann::json path = json({"sa", "show", "paths", "lid", a, "lid", b});
  ASSERT_EQ(path.size(), 1u);
  EXPECT_EQ(path[0]["slid"], lid_of("hca1", 1));
  EXPECT_EQ(path[0]["dlid"], lid_of("hca4", 1));
  EXPECT_EQ(json({"sa", "show", "paths", "lid", b}), path);  // from the local port
  nlohmann::json sm = json({"sa", "show", "sm"});
  ASSERT_EQ(sm.size(), 1u);
  EXPECT_EQ(sm[0]["lid"], fabric_.local_port().sm_lid);
  EXPECT_EQ(sm[0]["state"], "MASTER");
}

TEST_F(SaCmd, LftRecordsAreTheSwitchTables) {
  uint16_t sw = lid_of("sw2");
  const auto& lft = fabric_.nodes()[fabric_.node("sw2")].lft;
  nlohmann::json j = json({"sa", "show", "lft", "lid", std::to_string(sw)});
  ASSERT_EQ(j.size(), (lft.size() + 63) / 64);
  for (const auto& b : j) {
    EXPECT_EQ(b["lid"], sw);
    size_t block = b["block"];
    ASSERT_EQ(b["port"].size(), 64u);
    for (size_t i = 0; i < 64; ++i)
      EXPECT_EQ(b["port"][i], block * 64 + i < lft.size() ? lft[block * 64 + i] : 0xff);
  }
}

TEST_F(SaCmd, BadInputIsOneLine) {
  test::Result r = run({"sa", "show", "bogus"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("unknown record type \"bogus\""), std::string::npos) << r.err;
  r = run({"sa", "show", "ports", "port", "300"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("invalid port \"300\""), std::string::npos) << r.err;
  r = run({"sa", "show", "paths", "dr", "0,1"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("directed route"), std::string::npos) << r.err;
  r = run({"sa", "show", "sm", "port", "1"});
  EXPECT_EQ(r.status, 1);
}

TEST_F(SaCmd, SaOptionGivesTheSmpOutputWithoutAnSmp) {
  auto smps = [&] {
    return fabric_.stats().received[mad::kClassSmiLid] + fabric_.stats().received[mad::kClassSmiDr];
  };
  for (const char* n : {"hca2", "hca4"}) {
    std::string lid = std::to_string(lid_of(n, 1));
    test::Result smp = run({"node", "show", "lid", lid});
    ASSERT_EQ(smp.status, 0) << smp.err;
    uint64_t before = smps();
    test::Result sa = run({"--sa", "node", "show", "lid", lid});
    EXPECT_EQ(sa.status, 0) << sa.err;
    EXPECT_EQ(sa.out, smp.out) << n;
    EXPECT_EQ(smps(), before);
    EXPECT_EQ(run({"--sa", "port", "show", "lid", lid}).out, run({"port", "show", "lid", lid}).out);
  }
  // A switch: SwitchInfo too; a port by number; a GUID target.
  std::string sw = std::to_string(lid_of("sw2"));
  test::Result sa = run({"--sa", "-j", "node", "show", "lid", sw});
  ASSERT_EQ(sa.status, 0) << sa.err;
  nlohmann::json j = nlohmann::json::parse(sa.out)[0];
  EXPECT_EQ(j["description"], "sw2");
  EXPECT_TRUE(j.contains("linear_fdb_top"));
  EXPECT_EQ(run({"--sa", "port", "show", "lid", sw, "port", "3"}).out,
            run({"port", "show", "lid", sw, "port", "3"}).out);
  std::string g = guid(fabric_.nodes()[fabric_.node("hca3")].ports[1].guid);
  EXPECT_EQ(run({"--sa", "node", "show", "guid", g}).out,
            run({"node", "show", "lid", std::to_string(lid_of("hca3", 1))}).out);
  uint64_t before = smps();
  test::Result dr = run({"--sa", "node", "show", "dr", "0,1"});
  EXPECT_EQ(dr.status, 1);
  EXPECT_NE(dr.err.find("not directed routes"), std::string::npos) << dr.err;
  EXPECT_EQ(run({"--sa", "port", "show", "lid", sw, "pkeys"}).status, 1);
  EXPECT_EQ(smps(), before);
  // The SM: the same SMInfo (the double's activity count stands still).
  EXPECT_EQ(run({"--sa", "sm", "show"}).out, run({"sm", "show"}).out);
}

class SaFirstOnly : public test::OnFakeFabric {
 protected:
  SaFirstOnly() : OnFakeFabric("net", rmpp(ibtest::RmppMode::FirstOnly)) {}
};

TEST_F(SaFirstOnly, ACutTableIsAWarning) {
  test::Result r = run({"-j", "sa", "show", "nodes"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(nlohmann::json::parse(r.out).size(), 1u);
  EXPECT_EQ(r.err, "warning: the SA's NodeRecord table lacks 5 of its records (no RMPP?)\n");
  // One record fits: no warning.
  r = run({"sa", "show", "sm"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
}

TEST(SplitTable, RecordsByAttributeOffset) {
  std::vector<uint8_t> reply(56 + 2 * 8);
  mad::set_bits(reply, mad::hdr::kAttrOffset.bit, 16, 1);  // 8-byte LinkRecords
  reply[56] = 0;
  reply[57] = 7;
  reply[64 + 1] = 9;
  mad::SaTable t = mad::split_table(reply, mad::kLinkRecord);
  ASSERT_EQ(t.records.size(), 2u);
  EXPECT_EQ(t.records[0][1], 7);
  EXPECT_EQ(t.records[1][1], 9);
  EXPECT_EQ(t.missing, 0u);
  EXPECT_THROW(mad::split_table(std::span(reply).first(40), mad::kLinkRecord), Error);
  mad::set_bits(reply, mad::hdr::kAttrOffset.bit, 16, 0);  // no records
  EXPECT_TRUE(mad::split_table(reply, mad::kLinkRecord).records.empty());
}

}  // namespace
}  // namespace rdma
