// Discovery against the fabric double: the suite's fabric (tests/ibsim/net)
// and a generated fat tree, healthy and sick.
#include "lib/ib/discover.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/mad/engine.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/fabric/latency.h"
#include "lib/testing/fabric/topology.h"
#include "lib/testing/test_data.h"

namespace rdma::ib {
namespace {

using ibtest::FakeFabric;

using testdata::kNet;
const std::string kFatTree = rdma::testdata::dir() + "/fattree-100.net";

// The links of a fabric as unordered pairs of (node GUID, port).
using End = std::pair<uint64_t, int>;
std::set<std::pair<End, End>> link_set(const Fabric& f) {
  std::set<std::pair<End, End>> out;
  for (const Link& l : f.links()) {
    End a{f.nodes[l.a.node].info.node_guid, l.a.port},
        b{f.nodes[l.b.node].info.node_guid, l.b.port};
    out.insert(std::minmax(a, b));
  }
  return out;
}

std::set<std::pair<End, End>> link_set(const ibtest::FakeFabric& f) {
  std::set<std::pair<End, End>> out;
  const auto& nodes = f.nodes();
  for (const auto& n : nodes)
    for (size_t p = 0; p < n.ports.size(); ++p) {
      const auto& port = n.ports[p];
      if (port.peer_node < 0) continue;
      End a{n.node_guid, static_cast<int>(p)};
      End b{nodes[port.peer_node].node_guid, port.peer_port};
      out.insert(std::minmax(a, b));
    }
  return out;
}

TEST(Discover, TheSuitesFabricWithoutASubnetManager) {
  FakeFabric f(ibtest::load_topology(kNet));
  mad::Engine e(f, {100, 3, 16});
  Discovery d = discover(e);
  EXPECT_TRUE(d.warnings.empty());
  ASSERT_EQ(d.fabric.nodes.size(), 6u);  // hca1-4, sw1, sw2
  const Node& local = d.fabric.nodes[0];
  EXPECT_EQ(local.description, "hca1");
  EXPECT_TRUE(local.path.empty());
  const Node* sw1 = d.fabric.find(d.fabric.nodes[1].info.node_guid);
  ASSERT_TRUE(sw1);
  EXPECT_TRUE(sw1->is_switch());
  EXPECT_EQ(sw1->description, "sw1");
  ASSERT_TRUE(sw1->sw);
  // Every port of a switch has its PortInfo; no LIDs without an SM.
  for (const Port& p : sw1->ports) EXPECT_TRUE(p.info) << int(p.num);
  EXPECT_TRUE(sw1->lids().empty());
  EXPECT_EQ(link_set(d.fabric), link_set(f));
  EXPECT_EQ(d.fabric.links().size(), 6u);  // 4 HCAs + 2 between the switches
}

// iblinkinfo -n / -D: the part of the fabric within some hops of a node.
std::set<std::string> discovered_descriptions(const Fabric& f) {
  std::set<std::string> out;
  for (const Node& n : f.nodes) out.insert(n.description);
  return out;
}

TEST(Discover, AHopLimitFromTheLocalNodeOrADirectedRoute) {
  FakeFabric f(ibtest::load_topology(kNet));
  mad::Engine e(f, {100, 3, 16});
  Discovery one = discover(e, {.from = {}, .hops = 1});
  EXPECT_TRUE(one.warnings.empty());
  EXPECT_EQ(discovered_descriptions(one.fabric), (std::set<std::string>{"hca1", "sw1"}));
  EXPECT_EQ(one.fabric.links().size(), 1u);
  Discovery two = discover(e, {.from = {}, .hops = 2});
  EXPECT_EQ(discovered_descriptions(two.fabric),
            (std::set<std::string>{"hca1", "sw1", "hca2", "sw2"}));
  // From sw1 (behind hca1's port 1), one hop: its four links, both to sw2.
  Discovery sw1 = discover(e, {.from = {1}, .hops = 1});
  EXPECT_EQ(sw1.fabric.nodes[0].description, "sw1");
  EXPECT_EQ(sw1.fabric.nodes[0].path, (std::vector<uint8_t>{1}));
  EXPECT_EQ(discovered_descriptions(sw1.fabric),
            (std::set<std::string>{"sw1", "hca1", "hca2", "sw2"}));
  EXPECT_EQ(sw1.fabric.links().size(), 4u);
  // From hca3 (hca1 -> sw1 -> sw2 -> hca3), no limit: the whole fabric.
  Discovery all = discover(e, {.from = {1, 3, 1}, .hops = std::nullopt});
  EXPECT_EQ(all.fabric.nodes[0].description, "hca3");
  EXPECT_EQ(all.fabric.nodes.size(), 6u);
  EXPECT_EQ(link_set(all.fabric), link_set(f));
  try {
    discover(e, {.from = {1, 7}, .hops = 1});
    FAIL();
  } catch (const Error& err) {
    EXPECT_EQ(std::string(err.what()).rfind("the node at dr 0,1,7 does not answer: ", 0), 0u)
        << err.what();
  }
}

TEST(Discover, LidsOnceTheSubnetManagerAssignedThem) {
  FakeFabric f(ibtest::load_topology(kNet));
  f.assign_lids();
  mad::Engine e(f, {100, 3, 16});
  Discovery d = discover(e);
  for (const Node& n : d.fabric.nodes) {
    ASSERT_EQ(n.lids().size(), 1u) << n.description;
    int idx = f.node(n.description);
    ASSERT_GE(idx, 0) << n.description;
    uint16_t want = n.is_switch() ? f.lid(idx, 0) : f.lid(idx, n.info.local_port);
    EXPECT_EQ(n.lids()[0], want) << n.description;
  }
}

// Each node once, every link once, and no more SMPs than one NodeInfo per
// link end probed plus the details of each node.
TEST(Discover, AGeneratedFatTree) {
  ibtest::Topology t = ibtest::load_topology(kFatTree);
  FakeFabric f(t);
  mad::Engine e(f, {100, 1, 32});
  Discovery d = discover(e);
  EXPECT_TRUE(d.warnings.empty()) << d.warnings[0];
  EXPECT_EQ(d.fabric.nodes.size(), t.nodes.size());
  EXPECT_EQ(link_set(d.fabric), link_set(f));
  size_t port_infos = 0, switches = 0;
  for (const Node& n : d.fabric.nodes) {
    switches += n.is_switch();
    for (const Port& p : n.ports) port_infos += p.info.has_value();
  }
  size_t probes = e.stats().sent - port_infos - switches /*SwitchInfo*/ -
                  d.fabric.nodes.size() /*NodeDescription*/;
  // One probe per link, plus the local node's, plus at most one more for
  // each link between two nodes found in the same wave.
  EXPECT_GE(probes, d.fabric.links().size() + 1);
  EXPECT_LE(probes, 2 * d.fabric.links().size() + 1);
  EXPECT_EQ(e.stats().retried, 0u);
}

// The double, recording the port of each PortInfo asked of one node.
class SweepRecorder : public mad::Transport {
 public:
  SweepRecorder(FakeFabric& f, int node) : f_(f), node_(node) {}
  void send(const mad::Mad& m, const mad::Address& a, int timeout_ms) override {
    f_.send(m, a, timeout_ms);
    if (f_.last_delivery().node == node_ && m.get(mad::hdr::kAttrId) == mad::kPortInfo.id)
      ports.push_back(static_cast<unsigned>(m.get(mad::hdr::kAttrMod)));
  }
  std::optional<mad::Received> receive(int timeout_ms) override { return f_.receive(timeout_ms); }
  std::chrono::steady_clock::time_point now() const override { return f_.now(); }
  std::vector<unsigned> ports;

 private:
  FakeFabric& f_;
  int node_;
};

// The switch the start CA is cabled to asks the half of its ports not
// holding that CA's first: the fat tree's leaf-000 has its CAs on ports
// 1-18 (the start CA on 1) and its spines on 19-36, through which the
// rest is found. Every port once, port 0 first.
TEST(Discover, TheStartSwitchAsksTheHalfAwayFromItsCaFirst) {
  FakeFabric f(ibtest::load_topology(kFatTree));
  SweepRecorder t(f, f.node("leaf-000"));
  mad::Engine e(t, {.timeout_ms = 100, .retries = 1, .window = 256, .per_node = mad::kPerNode});
  Discovery d = discover(e);
  EXPECT_TRUE(d.warnings.empty());
  ASSERT_EQ(t.ports.size(), 37u);
  EXPECT_EQ(t.ports[0], 0u);
  for (size_t i = 1; i <= 18; ++i) {
    EXPECT_GE(t.ports[i], 19u) << i;
  }
  std::set<unsigned> each(t.ports.begin(), t.ports.end());
  EXPECT_EQ(each.size(), 37u);
}

// The fabric found does not depend on when replies come: node order,
// directed routes and which end of each link is "a" are the same one MAD
// at a time, in submit order, and under the latency model's timing with
// switches found and probed behind ahead of their waves.
TEST(Discover, TheResultDoesNotDependOnReplyTiming) {
  FakeFabric one_at_a_time_fabric(ibtest::load_topology(kFatTree));
  mad::Engine serial(one_at_a_time_fabric, {100, 1, 1});
  Discovery a = discover(serial);
  FakeFabric timed_fabric(ibtest::load_topology(kFatTree));
  ibtest::LatencyFabric timed(timed_fabric);
  mad::Engine parallel(timed,
                       {.timeout_ms = 100, .retries = 1, .window = 256, .per_node = mad::kPerNode});
  Discovery b = discover(parallel);
  ASSERT_EQ(a.fabric.nodes.size(), b.fabric.nodes.size());
  for (size_t i = 0; i < a.fabric.nodes.size(); ++i) {
    EXPECT_EQ(a.fabric.nodes[i].info.node_guid, b.fabric.nodes[i].info.node_guid) << i;
    EXPECT_EQ(a.fabric.nodes[i].path, b.fabric.nodes[i].path) << i;
  }
  std::vector<Link> la = a.fabric.links(), lb = b.fabric.links();
  ASSERT_EQ(la.size(), lb.size());
  for (size_t i = 0; i < la.size(); ++i) {
    EXPECT_TRUE(la[i].a == lb[i].a && la[i].b == lb[i].b) << "link " << i;
  }
  EXPECT_TRUE(a.warnings.empty());
  EXPECT_TRUE(b.warnings.empty());
}

// The double under the latency model, counting the NodeInfo requests that
// landed on each node (the probes its neighbours sent it).
class LandedProbes : public mad::Transport {
 public:
  LandedProbes(ibtest::LatencyFabric& t, FakeFabric& f) : t_(t), f_(f) {}
  void send(const mad::Mad& m, const mad::Address& a, int timeout_ms) override {
    t_.send(m, a, timeout_ms);
    if (m.get(mad::hdr::kAttrId) == mad::kNodeInfo.id) ++at[f_.last_delivery().node];
  }
  std::optional<mad::Received> receive(int timeout_ms) override { return t_.receive(timeout_ms); }
  std::chrono::steady_clock::time_point now() const override { return t_.now(); }
  std::map<int, int> at;

 private:
  ibtest::LatencyFabric& t_;
  FakeFabric& f_;
};

// Switch C, found from A through a block of 5 parallel links, finds X
// through a block of 9 and both sweep at 1 ms a SMP: C waits on the ports
// beside the block it found X by, and X, found later, probes them itself,
// so few probes land on it (7 before, under the same GUIDs). Every link is
// still found, and the result is the one found one MAD at a time.
TEST(Discover, ASwitchFoundLaterProbesItsBlockOfParallelLinksItself) {
  // n ports from `first`, cabled to `peer` from its port peer_first.
  auto block = [](int first, int n, const std::string& peer, int peer_first) {
    std::string out;
    for (int i = 0; i < n; ++i)
      out += "[" + std::to_string(first + i) + "] \"" + peer + "\"[" +
             std::to_string(peer_first + i) + "]\n";
    return out;
  };
  std::string net = "Hca 1 \"h0\"\n" + block(1, 1, "A", 1) + "\nSwitch 6 \"A\"\n" +
                    block(1, 1, "h0", 1) + block(2, 5, "C", 1) + "\nSwitch 18 \"C\"\n" +
                    block(1, 5, "A", 2) + block(6, 9, "X", 1) + "\nSwitch 36 \"X\"\n" +
                    block(1, 9, "C", 6);
  for (int i = 1; i <= 27; ++i) net += block(9 + i, 1, "h" + std::to_string(i), 1);
  for (int i = 1; i <= 27; ++i)
    net += "\nHca 1 \"h" + std::to_string(i) + "\"\n" + block(1, 1, "X", 9 + i);
  ibtest::Topology t = ibtest::parse_topology(net);
  FakeFabric f(t);
  ibtest::LatencyOptions o;
  o.switch_service = std::chrono::milliseconds(1);
  ibtest::LatencyFabric timed(f, o);
  LandedProbes landed(timed, f);
  mad::Engine e(landed,
                {.timeout_ms = 100, .retries = 1, .window = 256, .per_node = mad::kPerNode});
  Discovery d = discover(e);
  EXPECT_TRUE(d.warnings.empty());
  EXPECT_EQ(link_set(d.fabric), link_set(f));
  EXPECT_LE(landed.at[f.node("X")], 3);
  EXPECT_EQ(timed.stats().dropped, 0u);
}

// A node whose NodeInfo is dropped: the rest is found, one warning names
// the route and the attribute, and the time is one timeout x tries, not
// one per failure (the double reports timeouts at once).
TEST(Discover, ASickNodeGivesAPartialResultAndAWarning) {
  FakeFabric f(ibtest::load_topology(kNet));
  int hca3 = f.node("hca3");
  ASSERT_GE(hca3, 0);
  f.drop({{hca3, -1, 0x11}});
  mad::Engine e(f, {100, 2, 16});
  Discovery d = discover(e);
  EXPECT_EQ(d.fabric.nodes.size(), 5u);
  ASSERT_EQ(d.warnings.size(), 1u);
  EXPECT_EQ(d.warnings[0],
            "no reply to NodeInfo from dr 0,1,3,1 (3 tries, each given back at once by the local "
            "port: Connection timed out)");
  EXPECT_EQ(e.stats().timeouts, 1u);
}

TEST(Discover, AnUnlinkedSwitchLinkIsNotAPeer) {
  FakeFabric f(ibtest::load_topology(kNet));
  int sw2 = f.node("sw2");
  f.unlink(sw2, 3);
  mad::Engine e(f, {100, 1, 16});
  Discovery d = discover(e);
  EXPECT_TRUE(d.warnings.empty());
  EXPECT_EQ(d.fabric.nodes.size(), 6u);  // still reached over the other link
  EXPECT_EQ(d.fabric.links().size(), 5u);
}

TEST(Discover, TheLocalNodeNotAnsweringIsAnError) {
  FakeFabric f(ibtest::load_topology(kNet));
  f.drop({{f.attach_node(), -1, -1}});
  mad::Engine e(f, {10, 0, 16});
  EXPECT_THROW(discover(e), Error);
}

}  // namespace
}  // namespace rdma::ib
