// rdma sa show against the fabric double's SA (tests/ibsim/net): tables of
// many MADs as the kernel's RMPP agent hands them over (Reassembled), and
// cut to their first MAD as under ibsim (FirstOnly).
#include "lib/mad/sa.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>

#include "lib/ib/sa_records.h"
#include "lib/mad/attrs.h"
#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

ibtest::FabricOptions rmpp(ibtest::RmppMode m) {
  ibtest::FabricOptions o;
  o.rmpp = m;
  return o;
}

class SaCmd : public madtest::MadCmd {
 protected:
  SaCmd() : MadCmd("net", rmpp(ibtest::RmppMode::Reassembled)) {}
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

// --node-name-map: sa show nodes and node show (SMPs or --sa) name the
// node as the file says, the colon form of its GUID read as well.
TEST_F(SaCmd, NodeNameMapNamesNodeRecordsAndNodeShow) {
  std::string map = ::testing::TempDir() + "rdma-sa-names.map";
  std::ofstream(map) << "0000:0000:0020:0000 \"leaf één\"\n";
  std::string sw1 = std::to_string(lid_of("sw1"));
  nlohmann::json j = json({"--node-name-map", map, "sa", "show", "nodes", "lid", sw1});
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["description"], "leaf één");
  for (std::vector<std::string> args :
       {std::vector<std::string>{"--node-name-map", map, "sa", "show", "nodes", "lid", sw1},
        {"--node-name-map", map, "node", "show", "lid", sw1},
        {"--node-name-map", map, "--sa", "node", "show", "lid", sw1}}) {
    madtest::Result r = run(args);
    EXPECT_NE(r.out.find(" description \"leaf één\"\n"), std::string::npos) << r.out;
  }
  EXPECT_NE(
      run({"--node-name-map", map, "sa", "show", "nodes", "lid", std::to_string(lid_of("sw2"))})
          .out.find(" description \"sw2\"\n"),
      std::string::npos);
  std::remove(map.c_str());
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

TEST_F(SaCmd, SavedFileSelectsByGuidAndNameAsTheSa) {
  // from FILE: guid and name pick the nodes by the file's own NodeRecords,
  // for every kind; the records picked are those the live SA gives.
  std::string file = ::testing::TempDir() + "rdma-sa-saved-select";
  ASSERT_EQ(run({"fabric", "save", file}).status, 0);
  std::string g = guid(fabric_.nodes()[fabric_.node("hca2")].node_guid);
  const std::vector<std::vector<std::string>> asks = {{"nodes", "guid", g},
                                                      {"nodes", "name", "sw2"},
                                                      {"ports", "name", "sw1"},
                                                      {"ports", "guid", g},
                                                      {"links", "name", "hca3"}};
  const std::vector<size_t> sizes = {1, 1, 9, 1, 1};
  for (size_t i = 0; i < asks.size(); ++i) {
    std::vector<std::string> words = {"sa", "show"};
    words.insert(words.end(), asks[i].begin(), asks[i].end());
    nlohmann::json live = json(words);
    words.insert(words.end(), {"from", file});
    nlohmann::json saved = json(words);
    ASSERT_EQ(saved.size(), sizes[i]) << asks[i][0] << " " << asks[i][2];
    ASSERT_EQ(live.size(), saved.size()) << asks[i][0] << " " << asks[i][2];
    for (size_t r = 0; r < live.size(); ++r)
      for (const char* key : {"lid", "node_guid", "description", "port", "from_lid", "to_lid"})
        EXPECT_EQ(saved[r].value(key, nlohmann::json()), live[r].value(key, nlohmann::json()))
            << asks[i][0] << " " << asks[i][2] << " " << key;
  }
  std::remove(file.c_str());
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
  // The SM: the same SMInfo. The SMP first, then the SA: the double's
  // activity count moves with an SMP SMInfo Get, and the order of a call's
  // arguments is the compiler's (clang's differs from gcc's).
  std::string sm_smp = run({"sm", "show"}).out;
  EXPECT_EQ(run({"--sa", "sm", "show"}).out, sm_smp);
}

// The M_Key and SM_Key print as "<not displayed>" (text and JSON) unless
// --show-keys, as smpquery without -K: by SMP, by the SA's records and in
// mad get.
TEST_F(SaCmd, KeysAreNotDisplayedUnlessShowKeys) {
  std::string hca = std::to_string(lid_of("hca1", 1));
  struct Case {
    std::vector<std::string> args;
    std::string key;
  } cases[] = {
      {{"-d", "port", "show", "lid", hca}, "mkey"},
      {{"-d", "--sa", "port", "show", "lid", hca}, "mkey"},
      {{"-d", "sa", "show", "ports", "lid", hca}, "mkey"},
      {{"mad", "get", "PortInfo", "lid", hca}, "mkey"},
      {{"-d", "sm", "show"}, "sm_key"},
      {{"-d", "--sa", "sm", "show"}, "sm_key"},
      {{"mad", "get", "SMInfo", "lid", "1"}, "sm_key"},  // the SM runs on the attached port
  };
  for (Case& k : cases) {
    test::Result hidden = run(k.args);
    ASSERT_EQ(hidden.status, 0) << hidden.err;
    // -d of one object is a field a line: the words, lines aside.
    std::replace(hidden.out.begin(), hidden.out.end(), '\n', ' ');
    EXPECT_NE(hidden.out.find(" " + k.key + " <not displayed> "), std::string::npos)
        << k.args[1] << " " << hidden.out;
    EXPECT_EQ(hidden.out.find(" " + k.key + " 0x"), std::string::npos) << hidden.out;
    k.args.insert(k.args.begin(), "--show-keys");
    test::Result shown = run(k.args);
    ASSERT_EQ(shown.status, 0) << shown.err;
    std::replace(shown.out.begin(), shown.out.end(), '\n', ' ');
    EXPECT_NE(shown.out.find(" " + k.key + " 0x0000000000000000 "), std::string::npos)
        << k.args[2] << " " << shown.out;
    EXPECT_EQ(shown.out.find("not displayed"), std::string::npos) << shown.out;
    EXPECT_EQ(json(k.args)[0][k.key], "0x0000000000000000");
    k.args.erase(k.args.begin());
    EXPECT_EQ(json(k.args)[0][k.key], "<not displayed>");
  }
  // Without -d port show has no M_Key to hide.
  EXPECT_EQ(run({"port", "show", "lid", hca}).out.find("mkey"), std::string::npos);
}

TEST_F(SaCmd, PKeyTablesComeWholeAndFilterByPortAndBlock) {
  int hca2 = fabric_.node("hca2");
  fabric_.nodes()[hca2].ports[1].pkeys = {0xffff, 0x8001, 0x7fff};
  std::string l = std::to_string(lid_of("hca2", 1));
  // Only to a trusted requester, as opensm.
  test::Result untrusted = run({"sa", "show", "pkeys", "lid", l});
  EXPECT_EQ(untrusted.status, 1);
  EXPECT_NE(untrusted.err.find("status 0x0200"), std::string::npos) << untrusted.err;
  EXPECT_NE(untrusted.err.find("smkey KEY"), std::string::npos) << untrusted.err;
  nlohmann::json j = json({"sa", "show", "pkeys", "lid", l, "smkey", "1"});
  ASSERT_EQ(j.size(), 2u);  // PartitionCap 64: two blocks of 32
  EXPECT_EQ(j[0]["lid"], lid_of("hca2", 1));
  EXPECT_EQ(j[0]["port"], 1);
  EXPECT_EQ(j[0]["block"], 0);
  ASSERT_EQ(j[0]["pkeys"].size(), 32u);
  EXPECT_EQ(j[0]["pkeys"][1], "0x8001");
  EXPECT_EQ(j[0]["pkeys"][2], "0x7fff");
  EXPECT_EQ(j[0]["pkeys"][3], "0x0000");
  EXPECT_EQ(j[1]["block"], 1);
  // A switch: port 0 (PartitionCap 8) one block, ports 1-8 two each: 17
  // records of 72 bytes, seven MADs' worth in one reassembled reply.
  std::string sw = std::to_string(lid_of("sw1"));
  int sw1 = fabric_.node("sw1");
  fabric_.nodes()[sw1].ports[3].pkeys = {0xffff, 0x8002};
  EXPECT_EQ(json({"sa", "show", "pkeys", "lid", sw, "smkey", "1"}).size(), 17u);
  nlohmann::json p =
      json({"sa", "show", "pkeys", "lid", sw, "port", "3", "block", "0", "smkey", "1"});
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0]["pkeys"][1], "0x8002");
  EXPECT_EQ(json({"sa", "show", "pkeys", "name", "sw1", "port", "3", "smkey", "1"}).size(), 2u);
  test::Result t = run({"sa", "show", "pkeys", "lid", l, "block", "0", "smkey", "0x1"});
  ASSERT_EQ(t.status, 0) << t.err;
  EXPECT_EQ(t.out.rfind("lid " + l + " block 0 port 1 pkeys 0xffff,0x8001,0x7fff,0x0000,", 0), 0u)
      << t.out;
}

TEST_F(SaCmd, GuidsSl2VlAndVlArbRecordsCarryTheSmaTables) {
  int hca3 = fabric_.node("hca3");
  fabric_.nodes()[hca3].ports[1].alias_guids = {0x1234};
  std::string l = std::to_string(lid_of("hca3", 1));
  nlohmann::json g = json({"sa", "show", "guids", "lid", l});
  ASSERT_EQ(g.size(), 4u);  // GUIDCap 32
  EXPECT_EQ(g[0]["guids"][0], guid(fabric_.nodes()[hca3].ports[1].guid));
  EXPECT_EQ(g[0]["guids"][1], guid(0x1234));
  EXPECT_EQ(json({"sa", "show", "guids", "lid", l, "block", "3"})[0]["block"], 3);

  int sw2 = fabric_.node("sw2");
  std::array<uint8_t, 16> map{};
  for (unsigned i = 0; i < 16; ++i) map[i] = static_cast<uint8_t>(15 - i);
  fabric_.nodes()[sw2].sl2vl[1 << 8 | 2] = map;
  std::string sw = std::to_string(lid_of("sw2"));
  EXPECT_EQ(json({"sa", "show", "sl2vl", "lid", sw}).size(), 9u * 9u);  // in and out 0-8
  nlohmann::json s = json({"sa", "show", "sl2vl", "lid", sw, "in_port", "1", "out_port", "2"});
  ASSERT_EQ(s.size(), 1u);
  for (unsigned i = 0; i < 16; ++i) EXPECT_EQ(s[0]["sl2vl"][i], 15 - i);
  nlohmann::json ca = json({"sa", "show", "sl2vl", "lid", l});
  ASSERT_EQ(ca.size(), 1u);
  EXPECT_EQ(ca[0]["in_port"], 0);  // a CA's one table, as opensm gives it
  EXPECT_EQ(ca[0]["out_port"], 0);

  int hca1 = fabric_.node("hca1");
  fabric_.nodes()[hca1].ports[1].vlarb_low = {{0, 4}, {1, 8}};
  nlohmann::json v = json({"sa", "show", "vlarb", "lid", std::to_string(lid_of("hca1", 1))});
  ASSERT_EQ(v.size(), 2u);  // low and high, eight entries each: blocks 1 and 3
  EXPECT_EQ(v[0]["block"], 1);
  EXPECT_EQ(v[0]["port"], 1);
  EXPECT_EQ(v[0]["vl"][1], 1);
  EXPECT_EQ(v[0]["weight"][1], 8);
  EXPECT_EQ(v[1]["block"], 3);
  EXPECT_EQ(json({"sa", "show", "vlarb", "lid", sw, "port", "4"}).size(), 2u);
}

TEST_F(SaCmd, McastMembersByMgidMlidAndGuid) {
  // As opensm: without the SM_Key one record per group, no member in it.
  nlohmann::json j = json({"sa", "show", "mcast"});
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["mgid"], "ff12:401b:ffff::ffff:ffff");
  EXPECT_EQ(j[0]["port_gid"], "::");
  EXPECT_EQ(j[0]["join_state"], "0x0");
  EXPECT_EQ(j[0]["mlid"], "0xc000");
  // With it (trusted), one per member.
  j = json({"sa", "show", "mcast", "smkey", "1"});
  ASSERT_EQ(j.size(), 4u);  // the four HCAs' linked ports joined the broadcast group
  for (const auto& m : j) {
    EXPECT_EQ(m["mgid"], "ff12:401b:ffff::ffff:ffff");
    EXPECT_EQ(m["mlid"], "0xc000");
    EXPECT_EQ(m["pkey"], "0xffff");
    EXPECT_EQ(m["join_state"], "0x1");
  }
  std::string g = guid(fabric_.nodes()[fabric_.node("hca2")].ports[1].guid);
  nlohmann::json one = json({"sa", "show", "mcast", "smkey", "1", "guid", g});
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0]["port_gid"].get<std::string>().substr(0, 6), "fe80::");
  EXPECT_EQ(json({"sa", "show", "mcast", "guid", g}).size(), 0u);  // no member shown
  EXPECT_EQ(json({"sa", "show", "mcast", "smkey", "1", "mlid", "0xc000"}).size(), 4u);
  EXPECT_EQ(json({"sa", "show", "mcast", "mlid", "0xc000"}).size(), 1u);
  EXPECT_EQ(json({"sa", "show", "mcast", "smkey", "1", "mgid", "ff12:401b:ffff::ffff:ffff"}).size(),
            4u);
  test::Result none = run({"sa", "show", "mcast", "mlid", "0xc001"});
  EXPECT_EQ(none.status, 0) << none.err;
  EXPECT_EQ(none.out, "");
  // Another group, two members.
  ibtest::McGroup grp;
  grp.mgid = {0xff, 0x12, 0x60, 0x1b, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  grp.mlid = 0xc001;
  grp.members = {{fabric_.node("hca1"), 1}, {fabric_.node("hca4"), 1}};
  fabric_.mcast_groups().push_back(grp);
  EXPECT_EQ(json({"sa", "show", "mcast", "smkey", "1", "mlid", "0xc001"}).size(), 2u);
  EXPECT_EQ(json({"sa", "show", "mcast", "smkey", "1"}).size(), 6u);
  EXPECT_EQ(json({"sa", "show", "mcast"}).size(), 2u);
}

TEST_F(SaCmd, ServicesByIdNameAndGuid) {
  EXPECT_EQ(run({"sa", "show", "services"}).out, "");  // none registered
  ibtest::FabricService sv;
  sv.id = 0x1000000000000abcull;
  sv.node = fabric_.node("hca3");
  sv.name = "storage target";
  fabric_.services().push_back(sv);
  sv.id = 0x22;
  sv.name = "other";
  fabric_.services().push_back(sv);
  nlohmann::json j = json({"sa", "show", "services"});
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[0]["service_id"], "0x1000000000000abc");
  EXPECT_EQ(j[0]["service_name"], "storage target");
  EXPECT_EQ(j[0]["service_lease"], "0xffffffff");
  EXPECT_FALSE(j[0].contains("service_key"));  // a secret: -d only
  EXPECT_EQ(json({"sa", "show", "services", "name", "other"})[0]["service_id"],
            "0x0000000000000022");
  EXPECT_EQ(json({"sa", "show", "services", "id", "0x22"}).size(), 1u);
  std::string g = guid(fabric_.nodes()[fabric_.node("hca3")].ports[1].guid);
  EXPECT_EQ(json({"sa", "show", "services", "guid", g}).size(), 2u);
  g = guid(fabric_.nodes()[fabric_.node("hca2")].ports[1].guid);
  EXPECT_EQ(run({"sa", "show", "services", "guid", g}).out, "");
}

TEST_F(SaCmd, ClassPortInfoByGet) {
  nlohmann::json j = json({"sa", "show", "classportinfo"});
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["class_version"], 2);
  EXPECT_EQ(j[0]["caps"], "0x2602");
  EXPECT_EQ(j[0]["resp_time"], 16);
  test::Result r = run({"sa", "show", "classportinfo", "lid", "1"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("argument \"lid\" (smkey)"), std::string::npos) << r.err;
}

TEST_F(SaCmd, NewKindsRefuseWordsTheyDoNotTake) {
  test::Result r = run({"sa", "show", "mcast", "lid", "3"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(
      r.err.find("unknown sa show mcast argument \"lid\" (mgid, guid, mlid, smkey or KEY=VALUE)"),
      std::string::npos)
      << r.err;
  r = run({"sa", "show", "vlarb", "block", "5"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("invalid block \"5\""), std::string::npos) << r.err;
  r = run({"sa", "show", "mcast", "mgid", "nonsense"});
  EXPECT_EQ(r.status, 1);
  r = run({"sa", "show", "services", "name", std::string(65, 'x')});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("at most 64 bytes"), std::string::npos) << r.err;
  EXPECT_EQ(run({"sa", "show", "nodes", "port", "1"}).status, 1);
}

// saquery -s: the PortInfoRecords whose CapabilityMask has IsSM (asked
// bit by bit), then IsSMdisabled: the SM's port only.
TEST_F(SaCmd, SmPortsAreThoseWithIsSm) {
  nlohmann::json j = json({"sa", "show", "smports"});
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["lid"], fabric_.local_port().sm_lid);
  EXPECT_EQ(json({"sa", "show", "smports", "lid", std::to_string(lid_of("hca2", 1))}).size(), 0u);
}

// MFTRecords: each switch's multicast blocks with a port in them.
TEST_F(SaCmd, MftRecordsAreTheSwitchesMulticastTables) {
  nlohmann::json j = json({"sa", "show", "mft"});
  ASSERT_EQ(j.size(), 2u);  // sw1 and sw2, position 0, block 0
  for (const auto& r : j) {
    const auto& n =
        fabric_.nodes()[r["lid"] == lid_of("sw1") ? fabric_.node("sw1") : fabric_.node("sw2")];
    EXPECT_EQ(r["position"], 0);
    EXPECT_EQ(r["block"], 0);
    ASSERT_EQ(r["port_mask"].size(), 32u);
    char want[8];
    std::snprintf(want, sizeof want, "0x%04x", static_cast<unsigned>(n.mft.at(0xc000)));
    EXPECT_EQ(r["port_mask"][0], want);
    EXPECT_EQ(r["port_mask"][1], "0x0000");
  }
  std::string sw2 = std::to_string(lid_of("sw2"));
  EXPECT_EQ(json({"sa", "show", "mft", "lid", sw2}).size(), 1u);
  EXPECT_EQ(json({"sa", "show", "mft", "block", "1"}).size(), 0u);
  EXPECT_EQ(run({"sa", "show", "mft", "position", "16"}).status, 1);
  // The double keeps no InformInfo subscriptions: none, and no error.
  test::Result r = run({"sa", "show", "inform"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
}

// The PathRecord selection words go to the SA; a node's name is an end.
TEST_F(SaCmd, PathSelectionWordsAndNamedEnds) {
  std::string b = std::to_string(lid_of("hca4", 1));
  nlohmann::json path = json({"sa", "show", "paths", "name", "hca1", "lid", b});
  ASSERT_EQ(path.size(), 1u);
  EXPECT_EQ(path[0]["slid"], lid_of("hca1", 1));
  EXPECT_EQ(
      json({"sa", "show",       "paths", "lid",        b,      "reversible",   "1",  "numb_path",
            "1",  "mtu",        ">256",  "service_id", "0x10", "qos_class",    "0",  "tclass",
            "0",  "flow_label", "0",     "hop_limit",  "0",    "pkt_lifetime", "<63"}),
      path);
  // KEY=VALUE on paths: checked in the records the SA returns.
  EXPECT_EQ(
      json({"sa", "show", "paths", "lid", b, "mtu=" + std::to_string(path[0]["mtu"].get<int>())}),
      path);
  EXPECT_EQ(run({"sa", "show", "paths", "lid", b, "sl=1"}).out, "");
  test::Result r = run({"sa", "show", "paths", "name", "nosuch", "lid", b});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("no node called \"nosuch\""), std::string::npos) << r.err;
  r = run({"sa", "show", "paths", "lid", b, "reversible", "2"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("invalid reversible \"2\""), std::string::npos) << r.err;
  r = run({"sa", "show", "paths", "lid", b, "mtu", ">300"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("invalid MTU \"300\""), std::string::npos) << r.err;
}

// ibtool's any-field selection: KEY=VALUE by the keys the records print.
TEST_F(SaCmd, AnyPrintedFieldSelects) {
  const auto& hca3 = fabric_.nodes()[fabric_.node("hca3")];
  nlohmann::json j = json({"sa", "show", "nodes", "port_guid=" + guid(hca3.ports[1].guid)});
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["description"], "hca3");
  EXPECT_EQ(json({"sa", "show", "nodes", "node_guid=" + guid(hca3.node_guid)}).size(), 1u);
  EXPECT_EQ(json({"sa", "show", "nodes", "type=switch"}).size(), 2u);
  std::string sw1 = std::to_string(lid_of("sw1"));
  nlohmann::json down = json({"sa", "show", "ports", "lid", sw1, "state=DOWN"});
  EXPECT_EQ(down.size(), 4u);  // ports 5-8
  for (const auto& p : down) EXPECT_EQ(p["state"], "DOWN");
  test::Result r = run({"sa", "show", "nodes", "nodeguid=1"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("unknown nodes field \"nodeguid\" ("), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
}

// A table that does not add up is one error line and exit status 1, no
// record printed: here the kernel's reassembly a record short of what the
// first segment announced.
TEST_F(SaCmd, ATableThatDoesNotAddUpIsAnError) {
  spoil_ = [](std::vector<uint8_t>& reply) {
    if (reply.size() > mad::kMadBytes) reply.resize(reply.size() - 112);
  };
  test::Result r = run({"sa", "show", "nodes"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "the SA's NodeRecord table does not add up: 560 bytes of records arrived, its RMPP "
            "header announced 672\n");
}

class SaFirstOnly : public madtest::MadCmd {
 protected:
  SaFirstOnly() : MadCmd("net", rmpp(ibtest::RmppMode::FirstOnly)) {}
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
  // A switch's SLtoVL table (81 records of 16 bytes): the first MAD's 12.
  r = run({"-j", "sa", "show", "sl2vl", "lid", std::to_string(fabric_.lid(fabric_.node("sw1")))});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(nlohmann::json::parse(r.out).size(), 12u);
  EXPECT_NE(r.err.find("SLtoVLMappingTableRecord table lacks 69"), std::string::npos) << r.err;
}

// The SA as ibsim's opensm reaches the tool through umad2sim: the first
// MAD of every table longer than one, with nothing in its header to count
// the rest. A warning that records are missing and exit status 1, for every
// kind of table; a table that fits says nothing.
class SaUmad2sim : public madtest::MadCmd {
 protected:
  SaUmad2sim() : MadCmd("net", rmpp(ibtest::RmppMode::Umad2sim)) {}
};

TEST_F(SaUmad2sim, ACutTableIsAWarningEvenUncounted) {
  test::Result r = run({"-j", "sa", "show", "nodes"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(nlohmann::json::parse(r.out).size(), 1u);
  EXPECT_EQ(r.err,
            "warning: the SA's NodeRecord table is cut short after 1 record: an unknown number "
            "of its records is missing (no RMPP?)\n");
  r = run({"sa", "show", "sm"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  // Tables that fit one MAD: whole, nothing to say.
  for (std::vector<std::string> args : {std::vector<std::string>{"sa", "show", "nodes", "lid", "1"},
                                        {"sa", "show", "links"},
                                        {"sa", "show", "switches"}}) {
    r = run(args);
    EXPECT_EQ(r.status, 0) << args[2] << r.err;
    EXPECT_EQ(r.err, "") << args[2];
    EXPECT_NE(r.out, "") << args[2];
  }
  std::string sw1 = std::to_string(fabric_.lid(fabric_.node("sw1")));
  // Longer ones: one warning each (the NodeRecords that name selects by
  // are read twice, and said once).
  for (std::vector<std::string> args : {std::vector<std::string>{"sa", "show", "ports"},
                                        {"sa", "show", "sl2vl", "lid", sw1},
                                        {"sa", "show", "vlarb", "lid", sw1},
                                        {"sa", "show", "guids"},
                                        {"sa", "show", "nodes", "name", "hca2"}}) {
    r = run(args);
    EXPECT_EQ(r.status, 1) << args[2];
    EXPECT_NE(r.err.find(" is cut short after "), std::string::npos) << args[2] << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  // --sa fabric views: one warning each, exit status 1.
  r = run({"--sa", "fabric", "show"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("warning: the SA's NodeRecord table is cut short after 1 record"),
            std::string::npos)
      << r.err;
}

// ibsim's first MAD with its AttributeOffset damaged to 0: records follow
// that no record size counts, an error (it was an empty table, exit 0).
TEST_F(SaUmad2sim, AttributeOffsetZeroBeforeRecordsIsAnError) {
  spoil_ = [](std::vector<uint8_t>& reply) {
    if (reply.size() > 1 && reply[1] == mad::kClassSa)
      mad::set_bits(reply, mad::hdr::kAttrOffset.bit, 16, 0);
  };
  test::Result r = run({"sa", "show", "nodes"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "the SA's NodeRecord table does not add up: AttributeOffset 0 (no records) before 200 "
            "bytes of records\n");
}

// --sa on the fabric views: the fabric from NodeRecords, PortInfoRecords,
// SwitchInfoRecords and LinkRecords in discovery's order, no SMP sent.
class SaFabric : public madtest::MadCmd {
 protected:
  SaFabric() : MadCmd("fabric.net", rmpp(ibtest::RmppMode::Reassembled)) {}
  uint64_t smps() {
    return fabric_.stats().received[mad::kClassSmiLid] + fabric_.stats().received[mad::kClassSmiDr];
  }
};

TEST_F(SaFabric, ViewsEqualDiscoveryWithoutAnSmp) {
  for (std::vector<std::string> v : {std::vector<std::string>{"fabric", "show"},
                                     {"fabric", "show", "switches"},
                                     {"fabric", "links"},
                                     {"fabric", "links", "all"},
                                     {"-d", "fabric", "show"},
                                     {"fabric", "topology"},
                                     {"fabric", "errors"}}) {
    test::Result smp = run(v);
    ASSERT_EQ(smp.status, 0) << smp.err;
    v.insert(v.begin(), "--sa");
    uint64_t before = smps();
    test::Result sa = run(v);
    EXPECT_EQ(sa.status, 0) << sa.err;
    EXPECT_EQ(sa.out, smp.out) << v[2];
    EXPECT_EQ(smps(), before) << v[2];
  }
}

TEST_F(SaFirstOnly, SaFabricFromCutTablesIsAPartialResultWithAWarning) {
  test::Result r = run({"--sa", "fabric", "show"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("NodeRecord table lacks"), std::string::npos) << r.err;
  EXPECT_FALSE(r.out.empty());
}

}  // namespace
}  // namespace rdma
