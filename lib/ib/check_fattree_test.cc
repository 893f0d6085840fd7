// The fat-tree check on the fabric double: a small two-level tree (four
// leaves, two spines, two CAs a leaf) healthy, then broken one way at a
// time; and the generated three-level tree (tests/data/fattree-3level.net).
#include "lib/ib/check_fattree.h"

#include <gtest/gtest.h>

#include <map>

#include "lib/error.h"
#include "lib/ib/discover.h"
#include "lib/ib/lfts.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/fabric/topology.h"
#include "lib/testing/test_data.h"

namespace rdma::ib {
namespace {

// l1..l4 each on both spines (ports 1, 2), CAs c1..c8 on ports 3, 4; extra
// lines go after.
std::string tree_net(const std::string& extra = "", bool l4_to_s2 = true) {
  std::string s = "Hca 1 \"c1\"\n[1] \"l1\"[3]\n";
  for (int l = 1; l <= 4; ++l) {
    s += "Switch 8 \"l" + std::to_string(l) + "\"\n[1] \"s1\"[" + std::to_string(l) + "]\n";
    if (l != 4 || l4_to_s2) s += "[2] \"s2\"[" + std::to_string(l) + "]\n";
    s += "[3] \"c" + std::to_string(2 * l - 1) + "\"[1]\n[4] \"c" + std::to_string(2 * l) +
         "\"[1]\n";
  }
  for (int sp = 1; sp <= 2; ++sp) {
    s += "Switch 8 \"s" + std::to_string(sp) + "\"\n";
    for (int l = 1; l <= 4; ++l)
      if (sp == 1 || l != 4 || l4_to_s2)
        s += "[" + std::to_string(l) + "] \"l" + std::to_string(l) + "\"[" + std::to_string(sp) +
             "]\n";
  }
  for (int c = 2; c <= 8; ++c)
    s += "Hca 1 \"c" + std::to_string(c) + "\"\n[1] \"l" + std::to_string((c + 1) / 2) + "\"[" +
         std::to_string(c % 2 ? 3 : 4) + "]\n";
  return s + extra;
}

std::vector<Finding> run_check(const ibtest::Topology& t) {
  ibtest::FakeFabric fake(t);
  fake.assign_lids();
  mad::Engine e(fake, {100, 1, 16});
  Fabric f = discover(e).fabric;
  std::vector<std::string> warnings;
  Lfts lfts = read_lfts(e, f, warnings);
  EXPECT_TRUE(warnings.empty());
  return check_fattree(f, lfts);
}

std::vector<std::string> texts(const std::vector<Finding>& v, Severity s) {
  std::vector<std::string> out;
  for (const Finding& x : v)
    if (x.severity == s) out.push_back(x.what);
  return out;
}

TEST(FatTreeCheck, AHealthyTreeHasLevelsCountsAndAHistogram) {
  std::vector<Finding> v = run_check(ibtest::parse_topology(tree_net()));
  EXPECT_TRUE(texts(v, Severity::Error).empty());
  EXPECT_TRUE(texts(v, Severity::Warning).empty());
  std::vector<std::string> notes = texts(v, Severity::Info);
  ASSERT_EQ(notes.size(), 3u);
  EXPECT_EQ(notes[0],
            "level 1: 4 switches, down ports 2, up ports 2, oversubscription 1.00:1 at most");
  EXPECT_EQ(notes[1], "level 2: 2 switches, down ports 4, up ports 0");
  // 8 CAs: 56 ordered pairs, 8 on one leaf (1 switch), 48 over a spine (3).
  EXPECT_EQ(notes[2], "CA pairs by switches on their route: 1: 8, 3: 48");
}

TEST(FatTreeCheck, ACaOnASpineADownDownLinkAMissingUplink) {
  std::string net = tree_net("Hca 1 \"spy\"\n[1] \"s1\"[8]\n", false);
  // A CA on spine s1, port 8.
  net.replace(net.find("Switch 8 \"s1\"\n"), 14, "Switch 8 \"s1\"\n[8] \"spy\"[1]\n");
  // A leaf-to-leaf link, l1 port 5 to l2 port 5.
  net.replace(net.find("Switch 8 \"l1\"\n"), 14, "Switch 8 \"l1\"\n[5] \"l2\"[5]\n");
  net.replace(net.find("Switch 8 \"l2\"\n"), 14, "Switch 8 \"l2\"\n[5] \"l1\"[5]\n");
  std::vector<Finding> v = run_check(ibtest::parse_topology(net));
  std::vector<std::string> errors = texts(v, Severity::Error);
  ASSERT_EQ(errors.size(), 2u) << ::testing::PrintToString(errors);
  EXPECT_EQ(errors[0], "CA \"spy\" on switch \"s1\" at level 2, not a leaf (level 1)");
  EXPECT_EQ(errors[1], "link between two switches of level 1 (down-down)");
  std::vector<std::string> warnings = texts(v, Severity::Warning);
  ASSERT_EQ(warnings.size(), 1u) << ::testing::PrintToString(warnings);
  EXPECT_EQ(warnings[0],
            "switch \"l4\" has 1 up ports, its level's others 2 (oversubscription 2.00:1)");
}

// The histogram counts each pair as a trace of its own route would: a
// hole (l1 sends c8's LID out of a port without a link) and a loop (s1 and
// l2 send c7's LID to each other) are pairs not routed, the rest by their
// switches; the same numbers as tracing every ordered pair.
TEST(FatTreeCheck, HolesAndLoopsCountAsEveryPairTracedWould) {
  ibtest::FakeFabric fake(ibtest::parse_topology(tree_net()));
  fake.assign_lids();
  mad::Engine e(fake, {100, 1, 16});
  Fabric f = discover(e).fabric;
  std::vector<std::string> warnings;
  Lfts lfts = read_lfts(e, f, warnings);
  auto node = [&](const char* name) {
    for (uint32_t n = 0; n < f.nodes.size(); ++n)
      if (f.nodes[n].description == name) return n;
    ADD_FAILURE() << name;
    return uint32_t{0};
  };
  auto lid = [&](const char* ca) { return f.nodes[node(ca)].ports[1].info->lid; };
  lfts[node("l1")]->ports[lid("c8")] = 7;  // no link on l1's port 7
  lfts[node("s1")]->ports[lid("c7")] = 2;  // s1 port 2: l2
  lfts[node("l2")]->ports[lid("c7")] = 1;  // l2 port 1: s1
  std::map<size_t, uint64_t> hist;
  uint64_t failed = 0;
  LftLookup lookup = [&](uint32_t n, uint16_t l) { return lfts[n]->ports[l]; };
  for (uint32_t a = 0; a < f.nodes.size(); ++a)
    for (uint32_t b = 0; b < f.nodes.size(); ++b) {
      if (a == b || f.nodes[a].is_switch() || f.nodes[b].is_switch()) continue;
      try {
        size_t switches = 0;
        for (const Hop& h : trace(f, {a, 1}, f.nodes[b].ports[1].info->lid, lookup))
          switches += f.nodes[h.node.node].is_switch();
        ++hist[switches];
      } catch (const Error&) {
        ++failed;
      }
    }
  ASSERT_GT(failed, 2u);
  std::string want = "CA pairs by switches on their route:";
  for (const auto& [h, n] : hist) want += " " + std::to_string(h) + ": " + std::to_string(n) + ",";
  want.pop_back();
  want += "; " + std::to_string(failed) + " pairs not routed (see check routes)";
  std::vector<std::string> notes = texts(check_fattree(f, lfts), Severity::Info);
  ASSERT_FALSE(notes.empty());
  EXPECT_EQ(notes.back(), want);
}

TEST(FatTreeCheck, TheGeneratedThreeLevelTreeIsSound) {
  std::vector<Finding> v =
      run_check(ibtest::load_topology(rdma::testdata::dir() + "/fattree-3level.net"));
  EXPECT_TRUE(texts(v, Severity::Error).empty()) << texts(v, Severity::Error)[0];
  std::vector<std::string> notes = texts(v, Severity::Info);
  ASSERT_EQ(notes.size(), 4u);
  EXPECT_EQ(notes[0].rfind("level 1: 10 switches", 0), 0u) << notes[0];
  EXPECT_EQ(notes[1].rfind("level 2: 12 switches", 0), 0u) << notes[1];
  EXPECT_EQ(notes[2].rfind("level 3: 8 switches", 0), 0u) << notes[2];
  EXPECT_EQ(notes[3].rfind("CA pairs by switches on their route: 1: ", 0), 0u) << notes[3];
}

}  // namespace
}  // namespace rdma::ib
