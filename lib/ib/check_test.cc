// The fabric checks on the fabric double: the suite's fabric healthy and
// broken (a duplicate LID, holes and loops in the tables, entries for
// nobody's LIDs, unbalanced tables, no SM), a ring of switches routed
// min-hop on one VL (a credit loop) against a tree (none).
#include "lib/ib/check.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>

#include "lib/ib/discover.h"
#include "lib/ib/lfts.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/fabric/topology.h"
#include "lib/testing/test_data.h"

namespace rdma::ib {
namespace {

// Five switches in a ring, one CA on each: min-hop routes go two hops
// both ways round, and their dependencies close the ring.
constexpr const char* kCheckRing = R"(
Hca 1 "c1"
[1] "r1"[1]
Hca 1 "c2"
[1] "r2"[1]
Hca 1 "c3"
[1] "r3"[1]
Hca 1 "c4"
[1] "r4"[1]
Hca 1 "c5"
[1] "r5"[1]
Switch 4 "r1"
[1] "c1"[1]
[2] "r2"[3]
[3] "r5"[2]
Switch 4 "r2"
[1] "c2"[1]
[2] "r3"[3]
[3] "r1"[2]
Switch 4 "r3"
[1] "c3"[1]
[2] "r4"[3]
[3] "r2"[2]
Switch 4 "r4"
[1] "c4"[1]
[2] "r5"[3]
[3] "r3"[2]
Switch 4 "r5"
[1] "c5"[1]
[2] "r1"[3]
[3] "r4"[2]
)";

std::string check_net(const char* name) {
  return rdma::testdata::dir() + "/../ibsim/" + name;
}

class FabricChecks : public ::testing::Test {
 protected:
  explicit FabricChecks(ibtest::Topology t = ibtest::load_topology(check_net("net"))) : fake_(t) {
    fake_.assign_lids();
  }
  ibtest::FabricNode& node(const char* id) { return fake_.nodes()[fake_.node(id)]; }
  // Discovery and every switch's table, as fabric check reads them.
  void read() {
    f_ = discover(engine_).fabric;
    std::vector<std::string> warnings;
    lfts_ = read_lfts(engine_, f_, warnings);
    EXPECT_TRUE(warnings.empty()) << warnings[0];
  }
  uint32_t index(const char* id) { return f_.index_of(node(id).node_guid).value(); }
  static size_t errors(const std::vector<Finding>& v) {
    size_t n = 0;
    for (const Finding& x : v) n += x.severity == Severity::Error;
    return n;
  }

  ibtest::FakeFabric fake_;
  mad::Engine engine_{fake_, {100, 1, 16}};
  Fabric f_;
  Lfts lfts_;
};

TEST_F(FabricChecks, AHealthyFabricHasNoErrors) {
  read();
  for (uint32_t n = 0; n < f_.nodes.size(); ++n) {
    ASSERT_EQ(lfts_[n].has_value(), f_.nodes[n].is_switch()) << n;
    if (lfts_[n]) {
      const ibtest::FabricNode& fn = fake_.nodes()[fake_.node(f_.nodes[n].description)];
      EXPECT_EQ(lfts_[n]->ports, fn.lft) << f_.nodes[n].description;
    }
  }
  EXPECT_TRUE(check_ids(f_).empty());
  EXPECT_TRUE(check_routes(f_, lfts_).empty());
  EXPECT_TRUE(check_credit(f_, lfts_).empty());
  EXPECT_EQ(errors(check_links(f_)), 0u);
  std::vector<Finding> sm = check_sm(engine_, f_);
  ASSERT_EQ(sm.size(), 1u);
  EXPECT_EQ(sm[0].severity, Severity::Info);
  EXPECT_EQ(sm[0].what.rfind("SM master, priority 0, GUID ", 0), 0u) << sm[0].what;
  EXPECT_EQ(sm[0].where[0].node, index("hca1"));
}

TEST_F(FabricChecks, ADuplicateLidNamesBothPorts) {
  uint16_t lid = node("hca2").ports[1].lid;
  node("hca4").ports[1].lid = lid;
  read();
  std::vector<Finding> v = check_ids(f_);
  ASSERT_EQ(v.size(), 1u) << v[1].what;
  EXPECT_EQ(v[0].check, "ids");
  EXPECT_EQ(v[0].severity, Severity::Error);
  EXPECT_EQ(v[0].what, "duplicate LID " + std::to_string(lid) + " on 2 ports");
  ASSERT_EQ(v[0].where.size(), 2u);
  std::set<uint32_t> nodes{v[0].where[0].node, v[0].where[1].node};
  EXPECT_EQ(nodes, (std::set<uint32_t>{index("hca2"), index("hca4")}));
  EXPECT_EQ(v[0].where[0].lid, lid);
  // An LMC range (8-11) over another port's LID.
  node("hca4").ports[1].lid = 8;
  node("hca4").ports[1].lmc = 2;
  node("hca2").ports[1].lid = 10;
  read();
  v = check_ids(f_);
  ASSERT_EQ(v.size(), 1u) << v[1].what;
  EXPECT_EQ(v[0].what, "duplicate LID 10 on 2 ports");
}

TEST_F(FabricChecks, ABrokenEntryIsReportedAtItsSwitch) {
  uint16_t lid = node("hca3").ports[1].lid;
  ibtest::FabricNode& sw2 = node("sw2");
  sw2.lft[lid] = 0xff;
  read();
  std::vector<Finding> v = check_routes(f_, lfts_);
  ASSERT_EQ(v.size(), 1u);  // once, though sw1's routes lead there too
  EXPECT_EQ(v[0].what, "LID " + std::to_string(lid) + " missing from the table");
  EXPECT_EQ(v[0].where[0].node, index("sw2"));
  EXPECT_EQ(v[0].where[1].node, index("hca3"));
  sw2.lft[lid] = 6;  // a port without a link
  read();
  v = check_routes(f_, lfts_);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].what, "LID " + std::to_string(lid) + " sent to port 6, which has no link (DOWN)");
  EXPECT_EQ(v[0].where[0].port, 6);
  sw2.lft[lid] = 2;  // hca4, not hca3
  read();
  v = check_routes(f_, lfts_);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].what,
            "LID " + std::to_string(lid) + " sent to port 2, whose peer is not its owner");
  EXPECT_EQ(v[0].where[1].node, index("hca4"));
  sw2.lft[lid] = 3;  // back to sw1, which sends it to sw2
  read();
  v = check_routes(f_, lfts_);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].severity, Severity::Error);
  EXPECT_NE(v[0].what.find("loop: LID " + std::to_string(lid) + " goes round "), std::string::npos)
      << v[0].what;
  EXPECT_EQ(v[0].where.size(), 3u);  // two switches and the LID's owner
}

TEST_F(FabricChecks, EntriesForNobodysLidsAndManyProblemsAreCounted) {
  ibtest::FabricNode& sw1 = node("sw1");
  sw1.lft.resize(64, 0xff);
  for (int lid = 20; lid < 30; ++lid) sw1.lft[lid] = 1;
  // Every CA LID missing from both switches: eight problems, five listed.
  std::vector<uint16_t> cas;
  for (const ibtest::FabricNode& n : fake_.nodes())
    for (const ibtest::FabricPort& p : n.ports)
      if (!n.is_switch() && p.lid) cas.push_back(p.lid);
  for (uint16_t lid : cas) node("sw1").lft[lid] = node("sw2").lft[lid] = 0xff;
  read();
  std::vector<Finding> v = check_routes(f_, lfts_);
  size_t listed = 0;
  std::string more, unowned;
  for (const Finding& x : v) {
    if (x.what.find("missing from the table") != std::string::npos) ++listed;
    if (x.what.find("more LIDs missing") != std::string::npos) more = x.what;
    if (x.what.find("no port has") != std::string::npos) unowned = x.what;
  }
  ASSERT_EQ(cas.size(), 4u);
  EXPECT_EQ(listed, kFirstFew);
  EXPECT_EQ(more, "3 more LIDs missing from a table (8 in all)");
  EXPECT_EQ(unowned, "10 entries for LIDs no port has (20, 21, 22, 23, 24, ...)");
}

TEST_F(FabricChecks, NoSmIsAnError) {
  fake_ = ibtest::FakeFabric(ibtest::load_topology(check_net("net")));
  read();
  std::vector<Finding> v = check_sm(engine_, f_);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].what, "no master SM answers");
}

TEST_F(FabricChecks, ADegradedLinkIsALinkFinding) {
  // Every port supports what it runs (the double's ports support more).
  for (ibtest::FabricNode& n : fake_.nodes())
    for (ibtest::FabricPort& p : n.ports) {
      p.width_supported = p.width_active;
      p.speed_supported = p.speed_active;
    }
  read();
  for (const Finding& x : check_links(f_)) EXPECT_EQ(x.severity, Severity::Info) << x.what;
  fake_.nodes()[fake_.node("sw1")].ports[2].width_supported = ibtest::kWidth4x;
  fake_.nodes()[fake_.node("hca2")].ports[1].width_supported = ibtest::kWidth4x;
  fake_.set_link_active(fake_.node("sw1"), 2, ibtest::kWidth1x, ibtest::kSpeedSdr);
  read();
  std::vector<Finding> v;
  for (Finding& x : check_links(f_))
    if (x.severity != Severity::Info) v.push_back(std::move(x));
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].severity, Severity::Warning);
  EXPECT_EQ(v[0].what, "degraded link: width below what both ends support");
  std::set<uint32_t> nodes{v[0].where[0].node, v[0].where[1].node};
  EXPECT_EQ(nodes, (std::set<uint32_t>{index("sw1"), index("hca2")}));
}

TEST_F(FabricChecks, LinksWhoseEndsDisagreeOnTheMtuOrTheVls) {
  read();
  auto info = [&](const char* id, uint8_t port) -> PortInfo& {
    return *f_.nodes[index(id)].ports[port].info;
  };
  for (Node& n : f_.nodes)
    for (Port& p : n.ports)
      if (p.info) p.info->vl_cap = p.info->oper_vls = 4;  // VL0-7 everywhere
  info("sw1", 2).mtu = 4;
  info("hca2", 1).mtu = 5;
  info("sw2", 1).oper_vls = 2;
  info("hca3", 1).vl_cap = 3;  // VL0-3, running VL0-7
  std::map<std::string, std::set<uint32_t>> found;
  for (const Finding& x : check_links(f_))
    if (x.severity != Severity::Info && x.what.rfind("degraded", 0) != 0)
      found[x.what] = {x.where[0].node, x.where[1].node};
  using Ends = std::set<uint32_t>;
  EXPECT_EQ(
      found,
      (std::map<std::string, Ends>{
          {"ends disagree on the MTU: 2048 and 4096", Ends{index("sw1"), index("hca2")}},
          {"ends disagree on the operational VLs: 2 and 8", Ends{index("sw2"), index("hca3")}},
          {"operational VLs 8 above the port's 4 (VLCap)", Ends{index("sw2"), index("hca3")}},
      }));
}

class FabricChecksRing : public FabricChecks {
 protected:
  FabricChecksRing() : FabricChecks(ibtest::parse_topology(kCheckRing, "ring")) {}
  // Every switch's transit (in from one switch, out to the other) on vl.
  void transit_on(uint8_t vl) {
    for (const char* id : {"r1", "r2", "r3", "r4", "r5"}) {
      std::array<uint8_t, 16> t;
      t.fill(vl);
      node(id).sl2vl[3 << 8 | 2] = t;
      node(id).sl2vl[2 << 8 | 3] = t;
    }
  }
};

TEST_F(FabricChecksRing, MinHopOnARingIsACreditLoop) {
  read();
  EXPECT_TRUE(check_routes(f_, lfts_).empty());
  std::vector<Finding> v = check_credit(f_, lfts_);
  ASSERT_GE(v.size(), 1u);
  EXPECT_EQ(v[0].check, "credit");
  EXPECT_EQ(v[0].severity, Severity::Error);
  // Round the ring one way: five switch-to-switch channels.
  ASSERT_EQ(v[0].where.size(), 5u) << v[0].what;
  EXPECT_EQ(v[0].what.rfind("credit loop through 5 channels: ", 0), 0u) << v[0].what;
  EXPECT_NE(v[0].what.find(" VL 0 -> "), std::string::npos) << v[0].what;
  std::set<uint32_t> nodes;
  for (const FindingPlace& w : v[0].where) {
    nodes.insert(w.node);
    EXPECT_TRUE(f_.nodes[w.node].is_switch());
    EXPECT_TRUE(f_.nodes[w.node].ports[w.port].peer);
  }
  EXPECT_EQ(nodes.size(), 5u);
}

TEST_F(FabricChecksRing, SwitchToSwitchTrafficOnItsOwnVlBreaksTheLoop) {
  // The tables as the switches give them: every SL on VL 0, still a loop.
  read();
  VlMaps vls = read_sl2vls(engine_, f_);
  // Per switch, in from each switch port and out to the other: 2 tables.
  for (uint32_t n = 0; n < f_.nodes.size(); ++n)
    EXPECT_EQ(vls.by_node[n].size(), f_.nodes[n].is_switch() ? 4u : 0u) << n;
  EXPECT_FALSE(check_credit(f_, lfts_, &vls).empty());
  // Traffic going on from one switch to the next on VL 1 (a packet enters
  // the ring on VL 0 and leaves it at most one hop later): no cycle.
  for (const char* id : {"r1", "r2", "r3", "r4", "r5"}) {
    std::array<uint8_t, 16> transit;
    transit.fill(1);
    node(id).sl2vl[3 << 8 | 2] = transit;
    node(id).sl2vl[2 << 8 | 3] = transit;
  }
  vls = read_sl2vls(engine_, f_);
  EXPECT_EQ(vls.vl(index("r1"), 3, 2, 0), 1);
  EXPECT_EQ(vls.vl(index("r1"), 1, 2, 0), 0);  // not read: from an end node
  EXPECT_TRUE(check_credit(f_, lfts_, &vls).empty());
  // SL 5 kept on VL 0 everywhere: its routes loop, SL 0's do not.
  for (const char* id : {"r1", "r2", "r3", "r4", "r5"}) {
    node(id).sl2vl[3 << 8 | 2][5] = 0;
    node(id).sl2vl[2 << 8 | 3][5] = 0;
  }
  vls = read_sl2vls(engine_, f_);
  std::vector<Finding> v = check_credit(f_, lfts_, &vls);
  ASSERT_FALSE(v.empty());
  EXPECT_EQ(v[0].what.find("VL 1"), std::string::npos) << v[0].what;
  EXPECT_EQ(v[0].where.size(), 5u);
}

// The tables read, every one and only those of the hops routes take
// (credit_hops); each of the latter as the full read has it.
struct TwoReads {
  VlMaps all, some;
  size_t read_all = 0, read_some = 0;
};
TwoReads read_both(mad::Engine& e, const Fabric& f, const Lfts& lfts) {
  std::vector<std::vector<uint16_t>> hops = credit_hops(f, lfts);
  TwoReads r{read_sl2vls(e, f), read_sl2vls(e, f, hops, Sl2VlRead::Every)};
  for (uint32_t n = 0; n < f.nodes.size(); ++n) {
    r.read_all += r.all.by_node[n].size();
    r.read_some += r.some.by_node[n].size();
    EXPECT_EQ(r.some.asked[n], hops[n].size());
    for (const auto& [key, t] : r.some.by_node[n]) EXPECT_EQ(r.all.by_node[n].at(key), t);
  }
  EXPECT_GT(r.read_some, 0u);
  return r;
}

// Only the hops routes take need their tables: the same findings as with
// every table read, from the tables of those hops alone.
TEST_F(FabricChecksRing, TheHopsRoutesTakeGiveTheSameFindings) {
  read();
  for (int transit_vl : {0, 1}) {
    transit_on(static_cast<uint8_t>(transit_vl));
    TwoReads r = read_both(engine_, f_, lfts_);
    EXPECT_LE(r.read_some, r.read_all);
    std::vector<Finding> a = check_credit(f_, lfts_, &r.all);
    std::vector<Finding> b = check_credit(f_, lfts_, &r.some);
    ASSERT_EQ(a.size(), b.size()) << transit_vl;
    for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].what, b[i].what);
    EXPECT_EQ(a.empty(), transit_vl == 1);
  }
}

// Probing: a switch whose tables differ by input port (transit on VL 1,
// traffic from its CA on VL 0) has its probes differ, so every table of
// its hops is read; the findings are the full read's.
TEST_F(FabricChecksRing, ProbesThatDifferReadEveryTableOfTheSwitch) {
  read();
  std::vector<std::vector<uint16_t>> hops = credit_hops(f_, lfts_);
  for (int transit_vl : {0, 1}) {
    transit_on(static_cast<uint8_t>(transit_vl));
    VlMaps every = read_sl2vls(engine_, f_, hops, Sl2VlRead::Every);
    VlMaps probed = read_sl2vls(engine_, f_, hops);
    for (uint32_t n = 0; n < f_.nodes.size(); ++n) {
      EXPECT_TRUE(probed.whole(n)) << n;
      for (uint16_t h : hops[n])
        for (uint8_t sl = 0; sl < 16; ++sl)
          EXPECT_EQ(probed.vl(n, h >> 8, h & 0xff, sl), every.vl(n, h >> 8, h & 0xff, sl));
      // Read one by one when the switch's tables differ.
      if (transit_vl == 1) {
        EXPECT_TRUE(probed.by_out[n].empty()) << n;
      }
    }
    std::vector<Finding> a = check_credit(f_, lfts_, &every);
    std::vector<Finding> b = check_credit(f_, lfts_, &probed);
    ASSERT_EQ(a.size(), b.size()) << transit_vl;
    for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].what, b[i].what);
    EXPECT_EQ(b.empty(), transit_vl == 1);
  }
}

// Two switches joined by 70 parallel links, a CA on the first: 9,730
// SL2VL tables (every input port with a link times every other port to a
// switch), more than read_sl2vls queues before it runs the engine.
std::string check_parallel_net() {
  std::string a = "Switch 71 \"pa\"\n", b = "Switch 70 \"pb\"\n";
  for (int p = 1; p <= 70; ++p) {
    std::string n = std::to_string(p);
    a += "[" + n + "] \"pb\"[" + n + "]\n";
    b += "[" + n + "] \"pa\"[" + n + "]\n";
  }
  return "Hca 1 \"ph\"\n[1] \"pa\"[71]\n" + a + "[71] \"ph\"[1]\n" + b;
}

class FabricChecksParallel : public FabricChecks {
 protected:
  FabricChecksParallel() : FabricChecks(ibtest::parse_topology(check_parallel_net(), "parallel")) {}
};

TEST_F(FabricChecksParallel, EveryTableIsReadAcrossEngineRuns) {
  std::array<uint8_t, 16> transit;
  transit.fill(1);
  node("pb").sl2vl[69 << 8 | 70] = transit;  // the last table of the last switch
  read();
  VlMaps vls = read_sl2vls(engine_, f_);
  EXPECT_EQ(vls.by_node[index("pa")].size(), 71u * 70u - 70u);
  EXPECT_EQ(vls.by_node[index("pb")].size(), 70u * 70u - 70u);
  EXPECT_EQ(vls.vl(index("pb"), 69, 70, 0), 1);
  EXPECT_EQ(vls.vl(index("pb"), 70, 69, 0), 0);
  EXPECT_EQ(engine_.stats().failed(), 0u);
}

// Probing the same switches: pa's tables all alike, read with a few SMPs;
// pb's last table (in from 70, out to 69) differs from its first (the
// last hop is a probe), so pb's are read one by one and all are known.
TEST_F(FabricChecksParallel, ProbesReadAFewTablesOfASwitchProgrammedAlike) {
  std::array<uint8_t, 16> transit;
  transit.fill(1);
  node("pb").sl2vl[70 << 8 | 69] = transit;
  read();
  std::vector<std::vector<uint16_t>> hops(f_.nodes.size());
  VlMaps every = read_sl2vls(engine_, f_);
  for (uint32_t n = 0; n < f_.nodes.size(); ++n)
    for (const auto& [key, t] : every.by_node[n]) hops[n].push_back(key);
  for (auto& h : hops) std::sort(h.begin(), h.end());
  uint64_t sent = engine_.stats().sent;
  VlMaps probed = read_sl2vls(engine_, f_, hops);
  uint32_t pa = index("pa"), pb = index("pb");
  EXPECT_EQ(probed.by_node[pa].size(), 0u);
  EXPECT_EQ(probed.by_out[pa].size(), f_.nodes[pa].ports.size());
  EXPECT_TRUE(probed.by_out[pb].empty());
  EXPECT_EQ(probed.by_node[pb].size(), hops[pb].size());
  EXPECT_EQ(probed.vl(pb, 70, 69, 0), 1);
  EXPECT_EQ(probed.vl(pb, 69, 70, 0), 0);
  EXPECT_EQ(probed.vl(pa, 70, 69, 0), 0);
  // pa's 3 probes, pb's 3 and then the rest of pb's.
  EXPECT_EQ(engine_.stats().sent - sent, 3 + hops[pb].size());
  EXPECT_EQ(engine_.stats().failed(), 0u);
}

class FabricChecksTree : public FabricChecks {
 protected:
  FabricChecksTree() : FabricChecks(ibtest::load_topology(check_net("fabric.net"))) {}
};

TEST_F(FabricChecksTree, ATreeHasNoCreditLoopAndUnevenTablesAreReported) {
  read();
  EXPECT_TRUE(check_credit(f_, lfts_).empty());
  EXPECT_TRUE(check_routes(f_, lfts_).empty());
  std::vector<Finding> before = check_balance(f_, lfts_);
  // s1's two links up to s2: everything routed up sent by the first.
  ibtest::FabricNode& s1 = node("s1");
  std::vector<int> up;
  for (int p = 1; p <= s1.num_ports(); ++p)
    if (s1.ports[p].peer_node == fake_.node("s2")) up.push_back(p);
  ASSERT_EQ(up.size(), 2u);
  for (uint8_t& out : s1.lft)
    if (out == up[1]) out = static_cast<uint8_t>(up[0]);
  read();
  std::vector<Finding> v = check_balance(f_, lfts_);
  ASSERT_EQ(v.size(), before.size() + 1);
  const Finding* s1f = nullptr;
  for (const Finding& x : v)
    if (x.where[0].node == index("s1")) s1f = &x;
  ASSERT_TRUE(s1f);
  EXPECT_EQ(s1f->severity, Severity::Warning);
  EXPECT_NE(s1f->what.find("port " + std::to_string(up[1]) + " 0"), std::string::npos) << s1f->what;
  EXPECT_TRUE(check_credit(f_, lfts_).empty());
}

// A tree's routes go up then down: no hop from a switch above back up,
// so fewer tables than every (input, output to a switch) pair.
TEST_F(FabricChecksTree, FewerTablesThanEveryPairAndTheSameFindings) {
  read();
  TwoReads r = read_both(engine_, f_, lfts_);
  EXPECT_LT(r.read_some, r.read_all);
  EXPECT_TRUE(check_credit(f_, lfts_, &r.some).empty());
  EXPECT_TRUE(check_credit(f_, lfts_, &r.all).empty());
}

// A tree whose switches are programmed alike (every table the same, as
// the fake's default): a few probes a switch, not a table a hop.
TEST_F(FabricChecksTree, ProbesOfSwitchesProgrammedAlikeReadFewTables) {
  read();
  std::vector<std::vector<uint16_t>> hops = credit_hops(f_, lfts_);
  uint64_t sent = engine_.stats().sent;
  VlMaps probed = read_sl2vls(engine_, f_, hops);
  uint64_t probes = engine_.stats().sent - sent, tables = 0, switches = 0;
  for (uint32_t n = 0; n < f_.nodes.size(); ++n) {
    tables += hops[n].size();
    switches += !hops[n].empty();
    EXPECT_TRUE(probed.whole(n));
  }
  EXPECT_LE(probes, 3 * switches);
  EXPECT_LT(probes, tables);
  EXPECT_TRUE(check_credit(f_, lfts_, &probed).empty());
}

}  // namespace
}  // namespace rdma::ib
