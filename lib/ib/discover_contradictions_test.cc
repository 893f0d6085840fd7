// Discovery on a fabric that lies (tests/ibsim/net, whose NodeInfo at one
// directed route is rewritten): each contradiction is a warning naming it,
// the place is not explored through, and the rest of the fabric is found.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lib/ib/discover.h"
#include "lib/mad/attrs.h"
#include "lib/mad/mad.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/fabric/topology.h"
#include "lib/testing/test_data.h"

namespace rdma::ib {
namespace {

// The fabric, but the NodeInfo answered at the directed route `at` is
// rewritten by lie; every SMP path sent is recorded.
class LyingNodeInfo : public mad::Transport {
 public:
  LyingNodeInfo(ibtest::FakeFabric& f, std::vector<uint8_t> at, std::function<void(mad::Mad&)> lie)
      : f_(f), at_(std::move(at)), lie_(std::move(lie)) {}
  void send(const mad::Mad& m, const mad::Address& a, int timeout_ms) override {
    if (m.mgmt_class() == mad::kClassSmiDr) paths.push_back(path_of(m));
    f_.send(m, a, timeout_ms);
  }
  std::optional<mad::Received> receive(int timeout_ms) override {
    std::optional<mad::Received> r = f_.receive(timeout_ms);
    if (!r || r->status || r->bytes.size() < mad::kMadBytes) return r;
    mad::Mad m;
    std::copy_n(r->bytes.begin(), mad::kMadBytes, m.bytes.begin());
    if (m.mgmt_class() == mad::kClassSmiDr && m.get(mad::hdr::kAttrId) == mad::kNodeInfo.id &&
        path_of(m) == at_) {
      lie_(m);
      std::copy(m.bytes.begin(), m.bytes.end(), r->bytes.begin());
    }
    return r;
  }
  static std::vector<uint8_t> path_of(const mad::Mad& m) {
    std::span<const uint8_t> path = m.dr_path();
    return {path.begin(), path.end()};
  }
  std::vector<std::vector<uint8_t>> paths;

 private:
  ibtest::FakeFabric& f_;
  std::vector<uint8_t> at_;
  std::function<void(mad::Mad&)> lie_;
};

bool lies_has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string lies_joined(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& s : v) out += s + "\n";
  return out;
}

bool lies_explored_through(const LyingNodeInfo& t, const std::vector<uint8_t>& at) {
  return std::any_of(t.paths.begin(), t.paths.end(), [&](const std::vector<uint8_t>& p) {
    return p.size() > at.size() && std::equal(at.begin(), at.end(), p.begin());
  });
}

TEST(DiscoverContradictions, OneGuidAsTwoDifferentNodes) {
  ibtest::FakeFabric f(ibtest::load_topology(testdata::kNet));
  uint64_t sw1 = f.nodes()[f.node("sw1")].node_guid;
  // hca3 (dr 0,1,3,1) answers with sw1's GUID: a CA with 2 ports there.
  LyingNodeInfo t(f, {1, 3, 1}, [&](mad::Mad& m) { m.set_attr(mad::kNodeInfo, "NodeGUID", sw1); });
  mad::Engine e(t, {100, 3, 16});
  Discovery d = discover(e);
  ASSERT_EQ(d.warnings.size(), 1u) << lies_joined(d.warnings);
  char guid[32];
  std::snprintf(guid, sizeof guid, "0x%016llx", static_cast<unsigned long long>(sw1));
  EXPECT_EQ(d.warnings[0], std::string("node ") + guid +
                               " is a switch with 8 ports at dr 0,1 but a ca with 2 ports at "
                               "dr 0,1,3,1: not exploring through dr 0,1,3,1");
  // The rest is there: hca1, sw1, hca2, sw2, hca4; sw2's port 1 has no peer.
  EXPECT_EQ(d.fabric.nodes.size(), 5u);
  EXPECT_EQ(d.fabric.links().size(), 5u);
  const Node* sw2 = d.fabric.find(f.nodes()[f.node("sw2")].node_guid);
  ASSERT_TRUE(sw2);
  EXPECT_FALSE(sw2->ports[1].peer);
  EXPECT_TRUE(sw2->ports[2].peer);
}

TEST(DiscoverContradictions, APortWhosePeerDoesNotPointBack) {
  ibtest::FakeFabric f(ibtest::load_topology(testdata::kNet));
  const ibtest::FabricNode& hca2 = f.nodes()[f.node("hca2")];
  // hca3 (behind sw2 port 1) answers as hca2 port 1, which is sw1 port 2's.
  LyingNodeInfo t(f, {1, 3, 1}, [&](mad::Mad& m) {
    m.set_attr(mad::kNodeInfo, "NodeGUID", hca2.node_guid);
    m.set_attr(mad::kNodeInfo, "PortGUID", hca2.ports[1].guid);
    m.set_attr(mad::kNodeInfo, "LocalPortNum", 1);
  });
  mad::Engine e(t, {100, 3, 16});
  Discovery d = discover(e);
  ASSERT_EQ(d.warnings.size(), 1u) << lies_joined(d.warnings);
  EXPECT_PRED2(lies_has, d.warnings[0], ("port 1 of node "));
  EXPECT_PRED2(lies_has, d.warnings[0], (" (dr 0,1) but answers behind port 1 of "));
  EXPECT_PRED2(lies_has, d.warnings[0],
               ("(dr 0,1,3), which it does not point back to: not "
                "exploring through dr 0,1,3,1"));
  // hca2 keeps its true link (sw1 port 2); sw2 port 1 stays unlinked.
  const Node& found = *d.fabric.find(hca2.node_guid);
  ASSERT_TRUE(found.ports[1].peer);
  EXPECT_EQ(d.fabric.nodes[found.ports[1].peer->node].description, "sw1");
  EXPECT_EQ(found.ports[1].peer->port, 2);
  EXPECT_EQ(d.fabric.nodes.size(), 5u);
  EXPECT_EQ(d.fabric.links().size(), 5u);
}

// A known switch under a new GUID (a damaged NodeGUID) has the LID of the
// one found first: not explored, so its ports cost at most a probe each.
TEST(DiscoverContradictions, TwoNodesWithOneLid) {
  ibtest::FakeFabric f(ibtest::load_topology(testdata::kNet));
  f.assign_lids();
  LyingNodeInfo t(f, {1, 4},
                  [](mad::Mad& m) { m.set_attr(mad::kNodeInfo, "NodeGUID", 0xdeadbeefULL); });
  mad::Engine e(t, {100, 3, 16});
  Discovery d = discover(e);
  // And sw2's port 4, whose peer (sw1 port 4) was taken by the phantom.
  ASSERT_EQ(d.warnings.size(), 2u) << lies_joined(d.warnings);
  EXPECT_PRED2(lies_has, d.warnings[0],
               (" at dr 0,1,3 and 0x00000000deadbeef at dr 0,1,4 both "
                "have LID 4: not exploring through dr 0,1,4"));
  EXPECT_PRED2(lies_has, d.warnings[1],
               ("does not point back to: not exploring through dr 0,1,3,4"));
  // The waves do not explore through it: its one link is the port it
  // answered behind. Probed ahead it may be (sw1's sweep can meet port 4
  // before port 3, and then its port 0 answers before sw2's is asked):
  // then one NodeInfo behind each of its other linked ports, nothing more.
  const Node* phantom = d.fabric.find(0xdeadbeefULL);
  ASSERT_TRUE(phantom);
  EXPECT_EQ(std::count_if(phantom->ports.begin(), phantom->ports.end(),
                          [](const Port& p) { return p.peer.has_value(); }),
            1);
  size_t ahead = std::count_if(t.paths.begin(), t.paths.end(), [](const std::vector<uint8_t>& p) {
    return p.size() > 2 && p[0] == 1 && p[1] == 4;
  });
  EXPECT_LE(ahead, 3u);
  for (const std::vector<uint8_t>& p : t.paths) {
    if (p.size() > 2 && p[0] == 1 && p[1] == 4) {
      EXPECT_EQ(p.size(), 3u);
    }
  }
  EXPECT_TRUE(d.fabric.find(f.nodes()[f.node("hca4")].node_guid));  // found through sw2
  EXPECT_TRUE(d.fabric.find(f.nodes()[f.node("hca3")].node_guid));
}

// LyingNodeInfo, but the PortInfo of port 0 answered at `late` is held
// back till the fabric has nothing else to answer.
class LyingLatePortZero : public LyingNodeInfo {
 public:
  LyingLatePortZero(ibtest::FakeFabric& f, std::vector<uint8_t> at,
                    std::function<void(mad::Mad&)> lie, std::vector<uint8_t> late)
      : LyingNodeInfo(f, std::move(at), std::move(lie)), late_(std::move(late)) {}
  std::optional<mad::Received> receive(int timeout_ms) override {
    for (;;) {
      std::optional<mad::Received> r = LyingNodeInfo::receive(timeout_ms);
      if (!r) return std::exchange(held_, std::nullopt);
      if (r->status || r->bytes.size() < mad::kMadBytes) return r;
      mad::Mad m;
      std::copy_n(r->bytes.begin(), mad::kMadBytes, m.bytes.begin());
      if (m.mgmt_class() != mad::kClassSmiDr || m.get(mad::hdr::kAttrId) != mad::kPortInfo.id ||
          m.get(mad::hdr::kAttrMod) != 0 || path_of(m) != late_)
        return r;
      held_ = std::move(r);
      ++held;
    }
  }
  int held = 0;  // replies held back

 private:
  std::vector<uint8_t> late_;
  std::optional<mad::Received> held_;
};

std::vector<std::pair<uint64_t, uint64_t>> lies_links(const Fabric& f) {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  for (const Link& l : f.links()) {
    uint64_t a = f.nodes[l.a.node].info.node_guid * 256 + l.a.port;
    uint64_t b = f.nodes[l.b.node].info.node_guid * 256 + l.b.port;
    out.emplace_back(std::min(a, b), std::max(a, b));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Which of two switches with one LID is explored is the one the waves find
// first (sw2 at dr 0,1,3, before the phantom at dr 0,1,4), not the one
// whose port 0 answers first: with sw2's held back, the same warnings and
// the same fabric.
TEST(DiscoverContradictions, TheLidOwnerIsFoundFirstNotAnsweredFirst) {
  auto lie = [](mad::Mad& m) { m.set_attr(mad::kNodeInfo, "NodeGUID", 0xdeadbeefULL); };
  ibtest::FakeFabric natural_fabric(ibtest::load_topology(testdata::kNet));
  natural_fabric.assign_lids();
  LyingNodeInfo natural_t(natural_fabric, {1, 4}, lie);
  mad::Engine natural_e(natural_t, {100, 3, 16});
  Discovery natural = discover(natural_e);

  ibtest::FakeFabric f(ibtest::load_topology(testdata::kNet));
  f.assign_lids();
  LyingLatePortZero t(f, {1, 4}, lie, {1, 3});
  mad::Engine e(t, {100, 3, 16});
  Discovery late = discover(e);
  EXPECT_GT(t.held, 0);
  ASSERT_EQ(late.warnings.size(), 2u) << lies_joined(late.warnings);
  EXPECT_PRED2(lies_has, late.warnings[0],
               (" at dr 0,1,3 and 0x00000000deadbeef at dr 0,1,4 both "
                "have LID 4: not exploring through dr 0,1,4"));
  EXPECT_EQ(late.warnings, natural.warnings);
  EXPECT_EQ(late.fabric.nodes.size(), natural.fabric.nodes.size());
  EXPECT_EQ(lies_links(late.fabric), lies_links(natural.fabric));
  // sw2 explored: its CAs found behind it, its port 4 probed.
  const Node* sw2 = late.fabric.find(f.nodes()[f.node("sw2")].node_guid);
  ASSERT_TRUE(sw2);
  EXPECT_TRUE(sw2->ports[1].peer);
  EXPECT_TRUE(sw2->ports[2].peer);
}

// LyingNodeInfo, but the reply to each hold's query (attribute `attr`,
// modifier `mod`, at the directed route `at`; the first reply only) is held
// back till the NodeInfo answered at the first hold's `until` has passed
// (none: never), or the fabric has nothing else to answer; then they come
// in hold order.
class LyingHeldUntil : public LyingNodeInfo {
 public:
  struct Hold {
    uint16_t attr = 0;
    uint32_t mod = 0;
    std::vector<uint8_t> at;
    std::vector<uint8_t> until;
  };
  LyingHeldUntil(ibtest::FakeFabric& f, std::vector<uint8_t> at, std::function<void(mad::Mad&)> lie,
                 std::vector<Hold> holds)
      : LyingNodeInfo(f, std::move(at), std::move(lie)),
        holds_(std::move(holds)),
        held_(holds_.size()) {}
  LyingHeldUntil(ibtest::FakeFabric& f, std::vector<uint8_t> at, std::function<void(mad::Mad&)> lie,
                 Hold hold)
      : LyingHeldUntil(f, std::move(at), std::move(lie), std::vector<Hold>{std::move(hold)}) {}
  std::optional<mad::Received> receive(int timeout_ms) override {
    for (;;) {
      if (passed_)
        for (std::optional<mad::Received>& h : held_)
          if (h) return std::exchange(h, std::nullopt);
      std::optional<mad::Received> r = LyingNodeInfo::receive(timeout_ms);
      if (!r) {
        // Nothing else to answer: holding on would stall.
        if (!std::exchange(passed_, true) && held > 0) continue;
        return r;
      }
      if (r->status || r->bytes.size() < mad::kMadBytes) return r;
      mad::Mad m;
      std::copy_n(r->bytes.begin(), mad::kMadBytes, m.bytes.begin());
      if (m.mgmt_class() != mad::kClassSmiDr) return r;
      uint64_t attr = m.get(mad::hdr::kAttrId);
      if (attr == mad::kNodeInfo.id && !holds_[0].until.empty() && path_of(m) == holds_[0].until)
        passed_ = true;
      if (passed_) return r;
      size_t i = 0;
      while (i < holds_.size() &&
             (held_[i] || caught_ >> i & 1 || attr != holds_[i].attr ||
              m.get(mad::hdr::kAttrMod) != holds_[i].mod || path_of(m) != holds_[i].at))
        ++i;
      if (i == holds_.size()) return r;
      held_[i] = std::move(r);
      caught_ |= 1u << i;
      ++held;
    }
  }
  int held = 0;  // replies held back

 private:
  std::vector<Hold> holds_;
  bool passed_ = false;
  std::vector<std::optional<mad::Received>> held_;
  unsigned caught_ = 0;  // the holds whose reply was held (the first only)
};

// The fabric `f` (loaded from `net`), lying at `lie_at`, discovered once
// with replies in their natural order (a fabric of its own) and once with
// `holds`: the same nodes, links and warnings both times. Returns the
// discovery with the holds.
Discovery lies_held_as_natural(ibtest::FakeFabric& f, const std::string& net, bool lids,
                               const std::vector<uint8_t>& lie_at,
                               const std::function<void(mad::Mad&)>& lie,
                               std::vector<LyingHeldUntil::Hold> holds) {
  ibtest::FakeFabric natural_fabric(ibtest::load_topology(net));
  if (lids) natural_fabric.assign_lids();
  LyingNodeInfo natural_t(natural_fabric, lie_at, lie);
  mad::Engine natural_e(natural_t, {100, 3, 16});
  Discovery natural = discover(natural_e);

  if (lids) f.assign_lids();
  LyingHeldUntil t(f, lie_at, lie, std::move(holds));
  mad::Engine e(t, {100, 3, 16});
  Discovery held = discover(e);
  EXPECT_GT(t.held, 0);
  EXPECT_TRUE(lies_explored_through(t, {lie_at.begin(), lie_at.end() - 1}));  // the lie asked
  EXPECT_EQ(held.warnings, natural.warnings) << lies_joined(held.warnings);
  EXPECT_EQ(held.fabric.nodes.size(), natural.fabric.nodes.size());
  EXPECT_EQ(lies_links(held.fabric), lies_links(natural.fabric));
  return held;
}

// sw2 answers NodeInfo at dr 0,1,4 (sw1's port 4) under another GUID, and
// the fabric is discovered once with replies in their natural order and
// once with `hold`: the same nodes, links and warnings both times.
void lies_same_as_natural(const LyingHeldUntil::Hold& hold, bool lids) {
  auto lie = [](mad::Mad& m) { m.set_attr(mad::kNodeInfo, "NodeGUID", 0xdeadbeefULL); };
  ibtest::FakeFabric f(ibtest::load_topology(testdata::kNet));
  Discovery held = lies_held_as_natural(f, testdata::kNet, lids, {1, 4}, lie, {hold});
  // sw2 found under its own GUID, its CAs behind it.
  const Node* sw2 = held.fabric.find(f.nodes()[f.node("sw2")].node_guid);
  ASSERT_TRUE(sw2);
  EXPECT_TRUE(held.fabric.find(f.nodes()[f.node("hca3")].node_guid));
  EXPECT_TRUE(held.fabric.find(f.nodes()[f.node("hca4")].node_guid));
}

// The phantom, asked ahead, probes behind its port 3 (dr 0,1,4,3) and
// meets sw1's port 3 before sw1's own probe there is sent (the PortInfo of
// sw1's port 3 held back): port 3 of sw1 learnt from the phantom's end.
// Taking that answer linked sw1's port 3 to the phantom, and sw2 was never
// found, without a warning. An answer learnt from a deeper probe, of a
// node one probe alone answered as, is probed again by the wave: sw2 is
// found at dr 0,1,3, and the phantom sharing its LID is the warning.
TEST(DiscoverContradictions, APhantomsProbeAheadDoesNotHideTheNodeItLiesAbout) {
  lies_same_as_natural({mad::kPortInfo.id, 3, {1}, {1, 4, 3}}, true);
}

// As above, but what is held back is the wave's own probe through sw1's
// port 3 (NodeInfo at dr 0,1,3), sent before the phantom's probe ahead
// told sw1's port 3 as its own: the port's own answer stands.
TEST(DiscoverContradictions, AWavesProbeAnsweredLateStands) {
  lies_same_as_natural({mad::kNodeInfo.id, 0, {1, 3}, {1, 4, 3}}, true);
}

// The other side held back: sw1's PortInfo of port 4, till sw2, probed
// ahead through its port 4 (dr 0,1,3,4), has met sw1's port 4. Taking
// that answer hid the phantom, and the lie with it; the wave's own probe
// finds it, as in the natural order.
TEST(DiscoverContradictions, ATrueNodesProbeAheadDoesNotHideALie) {
  lies_same_as_natural({mad::kPortInfo.id, 4, {1}, {1, 3, 4}}, true);
}

// Without an SM (no LID to share) sw2 is still found, the phantom beside
// it (APhantomWithoutLidsEndsAtItsNeighbours).
TEST(DiscoverContradictions, APhantomWithoutLidsDoesNotHideTheNodeItLiesAbout) {
  lies_same_as_natural({mad::kPortInfo.id, 3, {1}, {1, 4, 3}}, false);
}

// On the fat tree, a leaf answering under another GUID behind one spine
// (dr 0,1,S,L): its probes ahead, and their answers from the other end,
// never take the real leaf's place. Where the lie is met, a warning names
// it; where the leaf was found through another spine's port first, the
// lie is not asked at all (the wave takes that port's answer).
TEST(DiscoverContradictions, APhantomLeafNeverHidesTheLeaf) {
  for (uint8_t spine_port : {19, 20, 25, 30, 35}) {
    for (uint8_t leaf_port : {2, 3, 4, 5}) {
      ibtest::FakeFabric f(ibtest::load_topology(testdata::dir() + "/fattree-100.net"));
      f.assign_lids();
      LyingNodeInfo t(f, {1, spine_port, leaf_port},
                      [](mad::Mad& m) { m.set_attr(mad::kNodeInfo, "NodeGUID", 0xdeadbeefULL); });
      mad::Engine e(t, {100, 3, 16});
      Discovery d = discover(e);
      std::string leaf = "leaf-00" + std::to_string(leaf_port - 1);
      std::string at = "dr 0,1," + std::to_string(spine_port) + "," + std::to_string(leaf_port);
      EXPECT_TRUE(d.fabric.find(f.nodes()[f.node(leaf)].node_guid)) << at;
      if (d.fabric.find(0xdeadbeefULL)) {
        EXPECT_PRED2(lies_has, lies_joined(d.warnings), "0x00000000deadbeef") << at;
      }
    }
  }
}

// Without an SM there are no LIDs to compare: the phantom is explored, but
// every port behind it is already another's, so it stops there.
TEST(DiscoverContradictions, APhantomWithoutLidsEndsAtItsNeighbours) {
  ibtest::FakeFabric f(ibtest::load_topology(testdata::kNet));
  LyingNodeInfo t(f, {1, 4},
                  [](mad::Mad& m) { m.set_attr(mad::kNodeInfo, "NodeGUID", 0xdeadbeefULL); });
  mad::Engine e(t, {100, 3, 16});
  Discovery d = discover(e);
  // Behind sw2's port 4: sw1 port 4, taken by the phantom; behind the
  // phantom's ports 1, 2 and 3: hca3, hca4 and sw1 port 3, linked already.
  ASSERT_EQ(d.warnings.size(), 4u) << lies_joined(d.warnings);
  EXPECT_PRED2(lies_has, d.warnings[0], ("not exploring through dr 0,1,3,4"));
  for (size_t i = 1; i < 4; ++i)
    EXPECT_PRED2(lies_has, d.warnings[i],
                 ("which it does not point back to: not exploring through "
                  "dr 0,1,4," +
                  std::to_string(i)));
  EXPECT_FALSE(lies_explored_through(t, {1, 4, 1}));
  EXPECT_EQ(d.fabric.nodes.size(), 7u);  // the six, and the phantom
}

// A phantom's NodeInfo (a switch no wave finds) answering a probe ahead
// that is held back until the fabric has nothing else to answer: on the
// fat tree spine-016's probe ahead to leaf-001 (dr 0,1,35,2) outlives the waves
// (they learnt that link from the leaf's end), so its answer comes after
// the last wave settled. Nothing can adopt what is asked of a node then:
// no SMP goes behind it (before, ask_early swept the phantom's 36 ports,
// NodeDescription and SwitchInfo after the end, 39 SMPs nothing used).
class HeldNodeInfo : public LyingNodeInfo {
 public:
  using LyingNodeInfo::LyingNodeInfo;
  std::optional<mad::Received> receive(int timeout_ms) override {
    std::optional<mad::Received> r = LyingNodeInfo::receive(0);
    if (r && !r->status && r->bytes.size() >= mad::kMadBytes) {
      mad::Mad m;
      std::copy_n(r->bytes.begin(), mad::kMadBytes, m.bytes.begin());
      if (m.get(mad::hdr::kAttrId) == mad::kNodeInfo.id && path_of(m) == held_at) {
        held = std::move(r);
        r = LyingNodeInfo::receive(0);
      }
    }
    if (r) return r;
    if (held) {
      released_at = paths.size();
      return std::exchange(held, std::nullopt);
    }
    return LyingNodeInfo::receive(timeout_ms);
  }
  std::vector<uint8_t> held_at;
  std::optional<mad::Received> held;
  size_t released_at = 0;  // paths sent before its answer came
};

TEST(DiscoverContradictions, AProbeAheadAnsweredAfterTheEndStartsNothing) {
  ibtest::FakeFabric f(ibtest::load_topology(testdata::dir() + "/fattree-100.net"));
  f.assign_lids();
  HeldNodeInfo t(f, {1, 35, 2}, [](mad::Mad& m) {
    m.set_attr(mad::kNodeInfo, "NodeGUID", 0xdeadbeefULL);
    m.set_attr(mad::kNodeInfo, "PortGUID", 0xdeadbeefULL);
  });
  t.held_at = {1, 35, 2};
  mad::Engine e(t, {100, 3, 16});
  Discovery d = discover(e);
  EXPECT_TRUE(d.warnings.empty()) << lies_joined(d.warnings);
  EXPECT_EQ(d.fabric.nodes.size(), 100u);  // the phantom came too late
  ASSERT_GT(t.released_at, 0u);
  std::vector<std::vector<uint8_t>> after(t.paths.begin() + t.released_at, t.paths.end());
  EXPECT_TRUE(after.empty()) << after.size() << " SMPs after the end";
}

// On the fat tree without an SM, leaf-002 answers under another GUID
// behind spine-000 (dr 0,1,19,3). The wave's probe through spine-001's
// port 3 waits for spine-001's probe ahead there (dr 0,1,20,3, held back),
// and meanwhile the phantom, probed ahead through its port 20 (dr
// 0,1,19,3,20), meets spine-001's port 3: a doubtful answer for it, learnt
// from the other end by a deeper probe, of a node one route alone showed
// (the true leaf's probes ahead to spine-001, which would have told it
// first, held back too). The waiting probe does not take it (that linked
// spine-001's port 3 to the phantom, and the true leaf lost that link): it
// waits for the probe through the port itself, as in the natural order.
TEST(DiscoverContradictions, AWaitingProbeIgnoresADoubtfulAnswer) {
  const std::string net = testdata::dir() + "/fattree-100.net";
  auto lie = [](mad::Mad& m) { m.set_attr(mad::kNodeInfo, "NodeGUID", 0xdeadbeefULL); };
  // The phantom's answer first, then spine-001's own, then the true leaf's.
  std::vector<LyingHeldUntil::Hold> holds{{mad::kNodeInfo.id, 0, {1, 19, 3, 20}, {}},
                                          {mad::kNodeInfo.id, 0, {1, 20, 3}, {}}};
  for (uint8_t spine_port = 21; spine_port <= 36; ++spine_port)
    holds.push_back({mad::kNodeInfo.id, 0, {1, spine_port, 3, 20}, {}});
  ibtest::FakeFabric f(ibtest::load_topology(net));
  Discovery held = lies_held_as_natural(f, net, false, {1, 19, 3}, lie, holds);
  const Node* spine = held.fabric.find(f.nodes()[f.node("spine-001")].node_guid);
  ASSERT_TRUE(spine);
  ASSERT_TRUE(spine->ports[3].peer);
  EXPECT_EQ(held.fabric.nodes[spine->ports[3].peer->node].info.node_guid,
            f.nodes()[f.node("leaf-002")].node_guid);
}

// A lie about the port a probe arrived by, at a deeper route: sw1, probed
// ahead behind sw2 (dr 0,1,4,3), says it arrived by port 2 (truly 3). With
// sw1's own probe through port 3 answered before sw1's PortInfo of port 2
// (both held back till then), sw2 is a node two routes showed, so the
// answer for sw1's port 2 learnt from sw2's end (sw2 port 3) is not
// doubtful: the wave took it, linked sw1's port 2 to sw2, and hca2 was
// never found. sw1's own answer for port 3 contradicts sw2's port 3
// answer: what was learnt from that one only is dropped, the wave probes
// sw1's port 2 itself, and the result is the natural order's.
TEST(DiscoverContradictions, ALieAboutTheArrivalPortDoesNotHideANode) {
  auto lie = [](mad::Mad& m) { m.set_attr(mad::kNodeInfo, "LocalPortNum", 2); };
  ibtest::FakeFabric f(ibtest::load_topology(testdata::kNet));
  Discovery held = lies_held_as_natural(
      f, testdata::kNet, false, {1, 4, 3}, lie,
      {{mad::kNodeInfo.id, 0, {1, 3}, {1, 4, 3}}, {mad::kPortInfo.id, 2, {1}, {}}});
  EXPECT_EQ(held.fabric.nodes.size(), 6u);
  const Node* hca2 = held.fabric.find(f.nodes()[f.node("hca2")].node_guid);
  ASSERT_TRUE(hca2);
  ASSERT_TRUE(hca2->ports[1].peer);
  EXPECT_EQ(held.fabric.nodes[hca2->ports[1].peer->node].description, "sw1");
}

}  // namespace
}  // namespace rdma::ib
