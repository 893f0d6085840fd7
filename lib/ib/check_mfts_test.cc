// The multicast tables read from every switch at once and the multicast
// routes check on the fabric double: the broadcast group's tree as the
// double programs it (good), both parallel links in it and a ring closed
// (loops), a bit to a port that went down, a switch cut off, a stray
// entry, a table that does not come, and many problems counted.
#include <gtest/gtest.h>

#include <set>

#include "lib/ib/check.h"
#include "lib/ib/check_run.h"
#include "lib/ib/discover.h"
#include "lib/ib/mfts.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/fabric/topology.h"
#include "lib/testing/test_data.h"

namespace rdma::ib {
namespace {

// Three switches in a ring, a CA on each: the double's tree leaves one
// link of the ring out.
constexpr const char* kMftRing = R"(
Hca 1 "mc1"
[1] "ms1"[1]
Hca 1 "mc2"
[1] "ms2"[1]
Hca 1 "mc3"
[1] "ms3"[1]
Switch 4 "ms1"
[1] "mc1"[1]
[2] "ms2"[3]
[3] "ms3"[2]
Switch 4 "ms2"
[1] "mc2"[1]
[2] "ms3"[3]
[3] "ms1"[2]
Switch 4 "ms3"
[1] "mc3"[1]
[2] "ms1"[3]
[3] "ms2"[2]
)";

constexpr uint16_t kBroadcast = 0xc000;

class MftChecks : public ::testing::Test {
 protected:
  explicit MftChecks(ibtest::Topology t = ibtest::load_topology(rdma::testdata::dir() +
                                                                "/../ibsim/net"))
      : fake_(t, reassembled()) {
    fake_.assign_lids();  // the broadcast group, every CA port in it
  }
  // The SA's tables as the kernel hands an RMPP transfer over.
  static ibtest::FabricOptions reassembled() {
    ibtest::FabricOptions o;
    o.rmpp = ibtest::RmppMode::Reassembled;
    return o;
  }
  ibtest::FabricNode& node(const char* id) { return fake_.nodes()[fake_.node(id)]; }
  uint32_t index(const char* id) { return f_.index_of(node(id).node_guid).value(); }
  std::vector<Finding> check() {
    f_ = discover(engine_).fabric;
    warnings_.clear();
    mfts_ = read_mfts(engine_, f_, warnings_);
    return check_mfts(f_, mfts_);
  }
  static std::string whats(const std::vector<Finding>& v) {
    std::string s;
    for (const Finding& x : v) s += x.what + "\n";
    return s;
  }
  static std::vector<Finding> of(const std::vector<Finding>& v, Severity s) {
    std::vector<Finding> out;
    for (const Finding& x : v)
      if (x.severity == s) out.push_back(x);
    return out;
  }

  ibtest::FakeFabric fake_;
  mad::Engine engine_{fake_, {100, 1, 16}};
  Fabric f_;
  Mfts mfts_;
  std::vector<std::string> warnings_;
};

TEST_F(MftChecks, TheTablesAreReadAndAGoodTreeIsOnlyANote) {
  std::vector<Finding> v = check();
  EXPECT_TRUE(warnings_.empty()) << warnings_[0];
  for (uint32_t n = 0; n < f_.nodes.size(); ++n) {
    ASSERT_EQ(mfts_[n].has_value(), f_.nodes[n].is_switch()) << n;
    if (!mfts_[n]) continue;
    const ibtest::FabricNode& fn = fake_.nodes()[fake_.node(f_.nodes[n].description)];
    ASSERT_EQ(mfts_[n]->size(), fn.mft.size()) << fn.id;
    for (const auto& [mlid, mask] : fn.mft) EXPECT_EQ(mfts_[n]->at(mlid).to_ullong(), mask);
  }
  // sw1: hca1, hca2 and one of the links to sw2; sw2 likewise.
  EXPECT_EQ(mfts_[index("sw1")]->at(kBroadcast).count(), 3u);
  ASSERT_EQ(v.size(), 1u) << whats(v);
  EXPECT_EQ(v[0].check, "routes");
  EXPECT_EQ(v[0].severity, Severity::Info);
  EXPECT_EQ(v[0].what, "multicast: 1 MLID in use (0xc000 on 2 switches)");
}

TEST_F(MftChecks, BothParallelLinksInTheTreeAreALoop) {
  node("sw1").mft[kBroadcast] |= 1u << 4;
  node("sw2").mft[kBroadcast] |= 1u << 4;
  std::vector<Finding> v = of(check(), Severity::Error);
  ASSERT_EQ(v.size(), 1u) << whats(v);
  // Out of one link and back by the other, and round again.
  EXPECT_EQ(v[0].what.rfind("multicast loop: MLID 0xc000 goes round \"sw", 0), 0u) << v[0].what;
  ASSERT_EQ(v[0].where.size(), 2u);
  std::set<uint32_t> nodes{v[0].where[0].node, v[0].where[1].node};
  EXPECT_EQ(nodes, (std::set<uint32_t>{index("sw1"), index("sw2")}));
  EXPECT_NE(v[0].where[0].port, v[0].where[1].port);
}

TEST_F(MftChecks, ABitToAPortThatWentDownOrIsNotThere) {
  fake_.unlink(fake_.node("sw2"), 2);  // hca4
  node("sw1").mft[kBroadcast] |= 1u << 9;
  std::vector<Finding> v = of(check(), Severity::Error);
  ASSERT_EQ(v.size(), 2u) << whats(v);
  EXPECT_EQ(v[0].what, "MLID 0xc000 sent to port 9, which the switch has not");
  EXPECT_EQ(v[0].where[0].node, index("sw1"));
  EXPECT_EQ(v[0].where[0].port, 9);
  EXPECT_EQ(v[1].what, "MLID 0xc000 sent to port 2, which has no link (DOWN)");
  EXPECT_EQ(v[1].where[0].node, index("sw2"));
  EXPECT_EQ(v[1].where[0].port, 2);
}

TEST_F(MftChecks, ASwitchCutOffLosesItsMembers) {
  node("sw2").mft[kBroadcast] &= ~(uint64_t{1} << 3);  // sw1 still sends to it
  std::vector<Finding> v = check();
  std::vector<Finding> w = of(v, Severity::Warning);
  ASSERT_EQ(w.size(), 1u) << whats(w);
  EXPECT_EQ(w[0].what,
            "MLID 0xc000 sent to port 3 toward \"sw2\" port 3, whose entry does not send it back");
  EXPECT_EQ(w[0].where[0].node, index("sw1"));
  EXPECT_EQ(w[0].where[1].node, index("sw2"));
  std::vector<Finding> e = of(v, Severity::Error);
  ASSERT_EQ(e.size(), 1u) << whats(e);
  EXPECT_EQ(e[0].what, "MLID 0xc000: switch cut off from the group's tree with 2 member ports");
  ASSERT_EQ(e[0].where.size(), 3u);
  EXPECT_EQ(e[0].where[0].node, index("sw2"));
  EXPECT_EQ(e[0].where[1].node, index("hca3"));
  EXPECT_EQ(e[0].where[2].node, index("hca4"));
}

TEST_F(MftChecks, ATableThatDoesNotComeIsAWarningNotAFinding) {
  fake_.drop({{fake_.node("sw2"), -1, 0x001b}});
  std::vector<Finding> v = check();
  ASSERT_EQ(warnings_.size(), 1u);
  EXPECT_NE(warnings_[0].find("no multicast forwarding table from switch "), std::string::npos);
  EXPECT_NE(warnings_[0].find("(\"sw2\")"), std::string::npos) << warnings_[0];
  EXPECT_FALSE(mfts_[index("sw2")]);
  // sw1's entry toward sw2 is not judged: sw2's table is not known.
  ASSERT_EQ(v.size(), 1u) << whats(v);
  EXPECT_EQ(v[0].what, "multicast: 1 MLID in use (0xc000 on 1 switch)");
}

TEST_F(MftChecks, ManyProblemsAreCountedAfterTheFirstFew) {
  for (uint16_t mlid = 0xc001; mlid <= 0xc007; ++mlid) node("sw1").mft[mlid] = 1u << 6;
  std::vector<Finding> v = check();
  std::vector<Finding> e = of(v, Severity::Error);
  ASSERT_EQ(e.size(), kFirstFew + 1) << whats(e);
  EXPECT_EQ(e[0].what, "MLID 0xc001 sent to port 6, which has no link (DOWN)");
  EXPECT_EQ(e[kFirstFew].what, "2 more multicast entries to a port without a link (7 in all)");
  EXPECT_EQ(e[kFirstFew].check, "routes");  // the count is of the same check
  EXPECT_EQ(v.back().what,
            "multicast: 8 MLIDs in use (0xc000 on 2 switches, 0xc001 on 1 switch, 0xc002 on 1 "
            "switch, 0xc003 on 1 switch, 0xc004 on 1 switch, ...)");
}

// Discovery's SwitchInfo carries MulticastFDBTop: read_mfts asks no
// SwitchInfo again (every one dropped, the tables still come), one SMP a
// switch fewer. A fabric without the top (a file saved before it) has the
// switches asked, as before.
TEST_F(MftChecks, DiscoverysSwitchInfoSparesAskingItAgain) {
  f_ = discover(engine_).fabric;
  size_t switches = 0;
  for (const Node& n : f_.nodes)
    if (n.sw) {
      EXPECT_EQ(n.sw->mcast_fdb_top, uint16_t{0});
      ++switches;
    }
  ASSERT_EQ(switches, 2u);
  auto smps = [this] { return fake_.stats().received[0x81]; };
  fake_.drop({{-1, -1, 0x0012}});
  uint64_t before = smps();
  mfts_ = read_mfts(engine_, f_, warnings_);
  uint64_t known = smps() - before;
  EXPECT_TRUE(warnings_.empty()) << warnings_[0];
  ASSERT_TRUE(mfts_[index("sw1")]);
  EXPECT_EQ(mfts_[index("sw1")]->at(kBroadcast).count(), 3u);
  EXPECT_EQ(check_mfts(f_, mfts_).size(), 1u);
  fake_.clear_faults();
  for (Node& n : f_.nodes)
    if (n.sw) n.sw->mcast_fdb_top.reset();
  before = smps();
  EXPECT_EQ(read_mfts(engine_, f_, warnings_), mfts_);
  EXPECT_EQ(smps() - before, known + switches);
  EXPECT_TRUE(warnings_.empty()) << warnings_[0];
  fake_.drop({{-1, -1, 0x0012}});
  Mfts none = read_mfts(engine_, f_, warnings_);
  EXPECT_EQ(warnings_.size(), switches);
  EXPECT_FALSE(none[index("sw1")]);
}

// The top discovery read bounds the blocks: 0xc01f, one block of 32 MLIDs
// (an entry above it is not read, as ibroute -M leaves it), though the
// switch now says it keeps none.
TEST_F(MftChecks, TheTopDiscoveryReadBoundsTheBlocks) {
  node("sw1").mcast_fdb_top = 0xc01f;
  node("sw1").mft[0xc020] = 1u << 1;
  f_ = discover(engine_).fabric;
  ASSERT_EQ(f_.nodes[index("sw1")].sw->mcast_fdb_top, uint16_t{0xc01f});
  node("sw1").mcast_fdb_top = 0;
  mfts_ = read_mfts(engine_, f_, warnings_);
  ASSERT_TRUE(mfts_[index("sw1")]);
  EXPECT_EQ(mfts_[index("sw1")]->count(0xc020), 0u);
  EXPECT_EQ(mfts_[index("sw1")]->at(kBroadcast).count(), 3u);
  ASSERT_TRUE(mfts_[index("sw2")]);  // the whole capacity: top 0
  node("sw2").mft[0xc020] = 1u << 1;
  mfts_ = read_mfts(engine_, f_, warnings_);
  EXPECT_EQ(mfts_[index("sw2")]->count(0xc020), 1u);
}

// The SA's groups bound the blocks read: only block 0 (0xc000, the
// broadcast group), one SMP a switch per 16 ports, though the switches
// keep no MulticastFDBTop (the capacity otherwise: 1024 MLIDs, 32 blocks);
// an entry in another block comes once a group's MLID is in that block.
TEST_F(MftChecks, OnlyTheBlocksOfTheSasGroupsAreRead) {
  f_ = discover(engine_).fabric;
  node("sw2").mft[0xc020] = 1u << 1;
  SaMlids in_use = sa_mlids(engine_, f_);
  ASSERT_TRUE(in_use.mlids) << in_use.why;
  EXPECT_EQ(*in_use.mlids, std::vector<uint16_t>{kBroadcast});
  auto smps = [this] { return fake_.stats().received[0x81]; };
  uint64_t before = smps();
  mfts_ = read_mfts(engine_, f_, warnings_, &*in_use.mlids);
  EXPECT_TRUE(warnings_.empty()) << warnings_[0];
  EXPECT_EQ(smps() - before, 2u);  // two switches of 8 ports, block 0
  ASSERT_TRUE(mfts_[index("sw1")]);
  EXPECT_EQ(mfts_[index("sw1")]->at(kBroadcast).count(), 3u);
  EXPECT_EQ(mfts_[index("sw2")]->count(0xc020), 0u);
  before = smps();
  Mfts whole = read_mfts(engine_, f_, warnings_);
  EXPECT_EQ(smps() - before, 2u * 32);
  EXPECT_EQ(whole[index("sw2")]->count(0xc020), 1u);
  // A group at 0xc021: its block, the entry beside it with it.
  ibtest::McGroup g = fake_.mcast_groups().at(0);
  g.mlid = 0xc021;
  g.mgid[15] ^= 1;
  fake_.mcast_groups().push_back(g);
  in_use = sa_mlids(engine_, f_);
  ASSERT_TRUE(in_use.mlids) << in_use.why;
  EXPECT_EQ(*in_use.mlids, (std::vector<uint16_t>{kBroadcast, 0xc021}));
  before = smps();
  mfts_ = read_mfts(engine_, f_, warnings_, &*in_use.mlids);
  EXPECT_EQ(smps() - before, 4u);
  EXPECT_EQ(mfts_, whole);
  // No group: no table read, nothing in use.
  std::vector<uint16_t> none;
  before = smps();
  mfts_ = read_mfts(engine_, f_, warnings_, &none);
  EXPECT_EQ(smps() - before, 0u);
  ASSERT_TRUE(mfts_[index("sw1")]);
  EXPECT_TRUE(mfts_[index("sw1")]->empty());
}

// An SA that does not answer: every block read as before, and the routes
// check says so in a note; the same findings otherwise.
TEST_F(MftChecks, WithoutTheSasGroupsEveryBlockIsReadAndANoteSaysWhy) {
  f_ = discover(engine_).fabric;
  node("sw2").mft[0xc020] = 1u << 1;  // no group's, outside the groups' block
  CheckRun asked = run_checks(&engine_, f_, {"routes"});
  EXPECT_EQ(whats(asked.found), "multicast: 1 MLID in use (0xc000 on 2 switches)\n");
  fake_.drop({{-1, mad::kClassSa, 0x0038}});
  CheckRun whole = run_checks(&engine_, f_, {"routes"});
  EXPECT_EQ(whats(whole.found),
            "multicast: 2 MLIDs in use (0xc000 on 2 switches, 0xc020 on 1 switch)\n"
            "multicast tables read to their capacity: the SA's groups could not be asked (no "
            "reply to MCMemberRecord table from the SA at lid 1 (2 tries, each given back at "
            "once by the local port: Connection timed out))\n");
  EXPECT_EQ(whole.found.back().severity, Severity::Info);
  SaMlids none = sa_mlids(engine_, f_);
  EXPECT_FALSE(none.mlids);
  EXPECT_FALSE(none.why.empty());
}

class MftChecksRing : public MftChecks {
 protected:
  MftChecksRing() : MftChecks(ibtest::parse_topology(kMftRing, "mft-ring")) {}
  // The ring's link the double's tree left out: its two ends.
  std::pair<std::pair<int, int>, std::pair<int, int>> left_out() {
    for (const char* id : {"ms1", "ms2", "ms3"})
      for (int p = 2; p <= 3; ++p) {
        const ibtest::FabricPort& fp = node(id).ports[p];
        if (!(node(id).mft.at(kBroadcast) >> p & 1))
          return {{fake_.node(id), p}, {fp.peer_node, fp.peer_port}};
      }
    return {};
  }
};

TEST_F(MftChecksRing, TheTreeIsGoodAndClosingTheRingIsALoop) {
  EXPECT_EQ(of(check(), Severity::Error).size(), 0u);
  EXPECT_EQ(of(check(), Severity::Warning).size(), 0u);
  auto [a, b] = left_out();
  ASSERT_GE(a.first, 0);
  fake_.nodes()[a.first].mft[kBroadcast] |= uint64_t{1} << a.second;
  fake_.nodes()[b.first].mft[kBroadcast] |= uint64_t{1} << b.second;
  std::vector<Finding> v = of(check(), Severity::Error);
  ASSERT_EQ(v.size(), 1u) << whats(v);
  EXPECT_EQ(v[0].what.rfind("multicast loop: MLID 0xc000 goes round \"ms", 0), 0u) << v[0].what;
  EXPECT_EQ(v[0].where.size(), 3u);  // one port of each switch
}

TEST_F(MftChecksRing, OneEndOfTheRingSetIsALoopToo) {
  // A packet goes on round the ring by the one-way entry: a loop though no
  // link carries the group both ways.
  auto [a, b] = left_out();
  ASSERT_GE(a.first, 0);
  fake_.nodes()[a.first].mft[kBroadcast] |= uint64_t{1} << a.second;
  std::vector<Finding> v = check();
  EXPECT_EQ(of(v, Severity::Warning).size(), 1u);
  std::vector<Finding> e = of(v, Severity::Error);
  ASSERT_EQ(e.size(), 1u) << whats(e);
  EXPECT_EQ(e[0].what.rfind("multicast loop: MLID 0xc000 goes round ", 0), 0u) << e[0].what;
}

TEST_F(MftChecksRing, AnEntryTheTreeDoesNotReachIsAStray) {
  node("ms1").mft[0xc001] = 1u << 1;  // mc1 only
  node("ms3").mft[0xc001] = 1u << 0;  // ms3 itself, no link in the group
  std::vector<Finding> v = check();
  EXPECT_EQ(of(v, Severity::Error).size(), 0u);
  std::vector<Finding> w = of(v, Severity::Warning);
  ASSERT_EQ(w.size(), 1u) << whats(w);
  EXPECT_EQ(w[0].what, "MLID 0xc001 entry on a switch its tree does not reach");
  EXPECT_EQ(w[0].where[0].node, index("ms3"));
}

}  // namespace
}  // namespace rdma::ib
