#include "lib/testing/fabric/topology.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <tuple>

#include "lib/error.h"
#include "lib/testing/test_data.h"

namespace rdma::ibtest {
namespace {

using testdata::kNet;

TEST(Topology, ReadsTheSuitesFabricWithIbsimsGuids) {
  Topology t = load_topology(kNet);
  ASSERT_EQ(t.nodes.size(), 6u);
  EXPECT_EQ(t.links(), 6u);
  const TopoNode& hca1 = t.nodes[t.find("hca1")];
  EXPECT_EQ(hca1.type, NodeType::Ca);
  EXPECT_EQ(hca1.num_ports, 2);
  // ibsim: CAs from 0x100000, each taking ports + 1 GUIDs; switches from
  // 0x200000, one each. hca1's port 1 is 0x100001 in the captured MADs.
  EXPECT_EQ(hca1.node_guid, 0x100000u);
  EXPECT_EQ(hca1.port_guid(1), 0x100001u);
  EXPECT_EQ(t.nodes[t.find("sw1")].node_guid, 0x200000u);
  EXPECT_EQ(t.nodes[t.find("sw2")].node_guid, 0x200001u);
  EXPECT_EQ(t.nodes[t.find("hca2")].node_guid, 0x100003u);
  EXPECT_EQ(t.nodes[t.find("hca4")].node_guid, 0x100009u);
  const TopoNode& sw1 = t.nodes[t.find("sw1")];
  EXPECT_EQ(sw1.type, NodeType::Switch);
  EXPECT_EQ(sw1.port_guid(3), 0x200000u);
  EXPECT_EQ(sw1.description, "sw1");
  EXPECT_EQ(sw1.ports[3].peer_node, t.find("sw2"));
  EXPECT_EQ(sw1.ports[3].peer_port, 3);
  EXPECT_EQ(sw1.ports[5].peer_node, -1);
  EXPECT_EQ(hca1.ports[2].peer_node, -1);
  EXPECT_EQ(sw1.ports[1].width_enabled, kWidth4x);  // ibsim's defaults
  EXPECT_EQ(sw1.ports[1].speed_enabled, kSpeedSdr);
}

TEST(Topology, ReadsIbnetdiscoverOutput) {
  Topology t = parse_topology(R"(#
# Topology file: generated on Tue Nov 24 2026
vendid=0x2c9
devid=0xb924
sysimgguid=0x2c90200001235
switchguid=0x2c90200001234(2c90200001234)
Switch	8 "S-0002c90200001234"		# "ISR9024 Voltaire" enhanced port 0 lid 2 lmc 0
[1]	"H-0002c90300000100"[1](2c90300000101) 		# "node1 HCA-1" lid 3 4xQDR
[2]	"H-0002c90300000100"[2](2c90300000102) 		# "node1 HCA-1" lid 4 1xSDR

vendid=0x2c9
devid=0x673c
sysimgguid=0x2c90300000103
caguid=0x2c90300000100
Ca	2 "H-0002c90300000100"		# "node1 HCA-1"
[1](2c90300000101) 	"S-0002c90200001234"[1]		# lid 3 lmc 0 "ISR9024 Voltaire" lid 2 4xQDR
[2](2c90300000102) 	"S-0002c90200001234"[2]		# lid 4 lmc 0 "ISR9024 Voltaire" lid 2 1xSDR
)");
  ASSERT_EQ(t.nodes.size(), 2u);
  const TopoNode& sw = t.nodes[0];
  EXPECT_EQ(sw.node_guid, 0x2c90200001234u);
  EXPECT_EQ(sw.sys_guid, 0x2c90200001235u);
  EXPECT_EQ(sw.vendor_id, 0x2c9u);
  EXPECT_EQ(sw.device_id, 0xb924u);
  EXPECT_EQ(sw.description, "ISR9024 Voltaire");
  EXPECT_EQ(sw.enhanced_port0, 1);
  EXPECT_EQ(sw.lid, 2);
  EXPECT_EQ(sw.ports[1].width_enabled, kWidth1x | kWidth4x);
  EXPECT_EQ(sw.ports[1].speed_enabled, kSpeedSdr | kSpeedDdr | kSpeedQdr);
  EXPECT_EQ(sw.ports[2].width_enabled, kWidth1x);
  EXPECT_EQ(sw.ports[2].speed_enabled, kSpeedSdr);
  const TopoNode& ca = t.nodes[1];
  EXPECT_EQ(ca.node_guid, 0x2c90300000100u);
  EXPECT_EQ(ca.port_guid(2), 0x2c90300000102u);
  EXPECT_EQ(ca.device_id, 0x673cu);
  EXPECT_EQ(ca.ports[1].lid, 3);
  EXPECT_EQ(ca.ports[2].lid, 4);
  EXPECT_EQ(ca.ports[2].peer_port, 2);
  EXPECT_EQ(t.links(), 2u);
}

TEST(Topology, PortOptionsGlobalsAndDefaults) {
  Topology t = parse_topology(R"(width=3
speed=7
Switch 4 "s"
[1] "a" w=1 s=2
[2] "r"[2] e=3
extspeed=1
Rt 2 "r"
[2] "s"[2]
Hca 1 "a"
[1] "s"
)");
  const TopoNode& s = t.nodes[0];
  EXPECT_EQ(s.ports[1].width_enabled, 1);
  EXPECT_EQ(s.ports[1].speed_enabled, 2);
  EXPECT_EQ(s.ports[2].width_enabled, 3);
  EXPECT_EQ(s.ports[2].speed_ext_enabled, 3);
  EXPECT_EQ(s.ports[3].speed_enabled, 7);
  EXPECT_EQ(t.nodes[1].type, NodeType::Router);
  EXPECT_EQ(t.nodes[1].node_guid, 0u);  // ibsim has no router GUID base
  EXPECT_EQ(t.nodes[1].ports[2].speed_ext_enabled, 1);
  EXPECT_EQ(t.nodes[2].ports[1].peer_port, 1);  // "s" with no port: port 1
  EXPECT_EQ(t.nodes[2].node_guid, 0x100000u);
}

TEST(Topology, RelativeGuidBase) {
  Topology t =
      parse_topology("switchguid=0x1000\nSwitch 2 \"a\"\nswitchguid+0x10\nSwitch 2 \"b\"\n");
  EXPECT_EQ(t.nodes[0].node_guid, 0x1000u);
  EXPECT_EQ(t.nodes[1].node_guid, 0x1010u);
}

void expect_error(const std::string& text, const std::string& what) {
  try {
    parse_topology(text, "net");
    ADD_FAILURE() << "no error for: " << text;
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), what);
  }
}

TEST(Topology, ErrorsNameTheLine) {
  expect_error("Switch 2 \"a\"\n[1] \"b\"[1]\n", "net:2: \"a\" port 1 names an unknown node \"b\"");
  expect_error("Switch 2 \"a\"\n[1] \"b\"[1]\nHca 1 \"b\"\n[1] \"a\"[2]\n",
               "net:2: \"a\" port 1 names \"b\" port 1, which does not name it back");
  expect_error("Switch 2 \"a\"\n[3] \"b\"[1]\n", "net:2: port 3 of \"a\" is beyond its 2 ports");
  // A sign is read by strtoull as a wrapped number: never a port index.
  expect_error("Switch 2 \"a\"\n[-1] \"b\"[1]\n",
               "net:2: port 18446744073709551615 of \"a\" is beyond its 2 ports");
  expect_error("Hca 1 \"a\"\n\nHca 1 \"a\"\n", "net:3: node \"a\" is declared twice");
  expect_error("Switch 2 \"a\"\n[1] \"a\"[2] x=1\n",
               "net:2: unknown port option \"x=\" (known: w=, s=, e=)");
  expect_error("Switch 2 \"a\"\n[1] \"a\"[2]\n[1] \"a\"[2]\n",
               "net:3: port 1 of \"a\" is declared twice");
  expect_error("Switch \"a\"\n", "net:1: missing port count");
  expect_error("Hca 2 \"a\n", "net:1: missing quoted node name");
  expect_error("Hca 2 \"a\"\n[0] \"b\"\n", "net:2: port 0 of a CA or router does not exist");
  expect_error("Switch 2 \"a\"\n[1] \"b\"[9]\nHca 1 \"b\"\n[1] \"a\"[1]\n",
               "net:2: \"a\" port 1 names port 9 of \"b\", which has 1");
  expect_error("width=40\n", "net:1: width 40 is not in 1..31");
  expect_error("include \"other\"\n", "net:1: \"include\" lines are not supported");
  expect_error("switchguid=0x10\nSwitch 1 \"a\"\nswitchguid=0x10\nSwitch 1 \"b\"\n",
               "net:4: node \"b\" has the GUID of \"a\"");
  EXPECT_THROW(load_topology("/nonexistent/net"), Error);
}

}  // namespace
}  // namespace rdma::ibtest

namespace rdma::ibtest {
namespace {

// ibnetdiscover's output on ibsim running tests/ibsim/net describes the
// same fabric as net: the same GUIDs, descriptions and links.
TEST(Topology, IbnetdiscoverOutputOfTheSuitesFabricIsTheSameFabric) {
  Topology net = load_topology(kNet);
  Topology out = load_topology(rdma::testdata::dir() + "/ibnetdiscover-net.topo");
  auto links = [](const Topology& t) {
    std::set<std::tuple<uint64_t, int, uint64_t, int>> s;
    std::map<uint64_t, std::string> desc;
    for (const TopoNode& n : t.nodes) {
      desc[n.node_guid] = n.description;
      for (size_t p = 1; p < n.ports.size(); ++p)
        if (n.ports[p].peer_node >= 0)
          s.insert(
              {n.node_guid, int(p), t.nodes[n.ports[p].peer_node].node_guid, n.ports[p].peer_port});
    }
    return std::pair(s, desc);
  };
  EXPECT_EQ(links(net), links(out));
  EXPECT_EQ(out.nodes[out.find("S-0000000000200000")].enhanced_port0, -1);  // "base port 0"
}

}  // namespace
}  // namespace rdma::ibtest
