// A topology file read as a fabric: a discovered fabric written as
// ibnetdiscover writes it and read back gives the same nodes, order,
// routes, LIDs, links and rates; ibnetdiscover's own text (from ibsim) is
// read; what is wrong in a file is named with its line.
#include "lib/ib/topology_read.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "lib/error.h"
#include "lib/ib/cache.h"
#include "lib/ib/discover.h"
#include "lib/ib/records.h"
#include "lib/ib/topology.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/fabric/topology.h"
#include "lib/testing/test_data.h"
#include "lib/testing/written.h"

namespace rdma::ib {
namespace {

std::string topo_read_text(const Fabric& f) {
  return testio::written([&](std::FILE* out) { write_topology(f, out); });
}

Fabric topo_read_discovered(const std::string& net) {
  ibtest::FakeFabric fake(ibtest::load_topology(net));
  fake.assign_lids();
  mad::Engine e(fake, {100, 1, 8});
  return discover(e).fabric;
}

// What the file holds of each node and port, equal on both sides.
void topo_read_expect_same(const Fabric& want, const Fabric& got) {
  ASSERT_EQ(got.nodes.size(), want.nodes.size());
  for (size_t i = 0; i < want.nodes.size(); ++i) {
    const Node& w = want.nodes[i];
    const Node& g = got.nodes[i];
    SCOPED_TRACE(w.description);
    EXPECT_EQ(g.info.node_guid, w.info.node_guid);
    EXPECT_EQ(g.info.port_guid, w.info.port_guid);
    EXPECT_EQ(g.info.sys_image_guid, w.info.sys_image_guid);
    EXPECT_EQ(g.info.node_type, w.info.node_type);
    EXPECT_EQ(g.info.num_ports, w.info.num_ports);
    EXPECT_EQ(g.info.vendor_id, w.info.vendor_id);
    EXPECT_EQ(g.info.device_id, w.info.device_id);
    EXPECT_EQ(g.description, w.description);
    EXPECT_EQ(g.path, w.path);
    EXPECT_EQ(g.lids(), w.lids());
    ASSERT_EQ(g.ports.size(), w.ports.size());
    EXPECT_EQ(g.sw.has_value(), w.sw.has_value());
    if (g.sw) {
      EXPECT_EQ(g.sw->enhanced_port0, w.sw->enhanced_port0);
    }
    for (size_t p = 1; p < w.ports.size(); ++p) {
      const Port& wp = w.ports[p];
      const Port& gp = g.ports[p];
      EXPECT_EQ(gp.peer, wp.peer) << "port " << p;
      if (!wp.peer) continue;
      if (!w.is_switch()) {
        EXPECT_EQ(gp.guid, wp.guid) << "port " << p;
      }
      ASSERT_TRUE(gp.info) << "port " << p;
      EXPECT_EQ(gp.info->lid, wp.info->lid) << "port " << p;
      EXPECT_EQ(gp.info->width_active, wp.info->width_active) << "port " << p;
      EXPECT_EQ(link_generation(*gp.info, speed_caps(g, *gp.info)),
                link_generation(*wp.info, speed_caps(w, *wp.info)))
          << "port " << p;
    }
  }
  ASSERT_EQ(got.links().size(), want.links().size());
  // Written back, the same file.
  EXPECT_EQ(topo_read_text(got), topo_read_text(want));
}

TEST(TopologyRead, DiscoveredFabricWrittenAndReadBackIsTheSame) {
  Fabric f = topo_read_discovered(testdata::kNet);
  topo_read_expect_same(f, parse_topology_fabric(topo_read_text(f), "t"));
}

TEST(TopologyRead, EveryWidthAndGenerationComesBack) {
  Fabric f = topo_read_discovered(testdata::dir() + "/../ibsim/speeds.net");
  std::string text = topo_read_text(f);
  for (const char* rate : {"1xSDR", "2xSDR", "8xSDR", "12xDDR", "4xQDR", "4xFDR", "1xEDR", "4xHDR"})
    EXPECT_NE(text.find(rate), std::string::npos) << rate << " in\n" << text;
  topo_read_expect_same(f, parse_topology_fabric(text, "t"));
}

// ibnetdiscover's own output on tests/ibsim/fabric.net (cut to three
// nodes): the local node last, CA ports' GUIDs and LIDs on their lines.
constexpr const char* kIbnetdiscover = R"(#
# Topology file: generated on Sun Nov 29 10:18:35 2026
#
# Initiated from node 0000000000100000 port 0000000000100001

vendid=0x2c9
devid=0xc738
sysimgguid=0x200000
switchguid=0x200000(200009)
Switch	8 "S-0000000000200000"		# "s1 "quoted"" enhanced port 0 lid 2 lmc 0
[1]	"H-0000000000100000"[1](100001) 		# "h1" lid 1 4xSDR
[5]	"H-0000000000100006"[2](100008) 		# "h3" lid 7 4xEDR

vendid=0x0
devid=0x0
sysimgguid=0x100006
caguid=0x100006
Ca	2 "H-0000000000100006"		# "h3"
[2](100008) 	"S-0000000000200000"[5]		# lid 7 lmc 1 "s1" lid 2 4xEDR

vendid=0x0
devid=0x0
sysimgguid=0x100000
caguid=0x100000
Ca	2 "H-0000000000100000"		# "h1"
[1](100001) 	"S-0000000000200000"[1]		# lid 1 lmc 0 "s1" lid 2 4xSDR
)";

TEST(TopologyRead, IbnetdiscoverTextFromTheInitiatingNode) {
  Fabric f = parse_topology_fabric(kIbnetdiscover, "t.txt");
  ASSERT_EQ(f.nodes.size(), 3u);
  EXPECT_EQ(f.nodes[0].description, "h1");
  EXPECT_TRUE(f.nodes[0].path.empty());
  EXPECT_EQ(f.nodes[0].info.port_guid, 0x100001u);
  EXPECT_EQ(f.nodes[1].description, "s1 \"quoted\"");
  EXPECT_EQ(f.nodes[1].path, std::vector<uint8_t>{1});
  EXPECT_EQ(f.nodes[1].info.port_guid, 0x200009u);
  EXPECT_EQ(f.nodes[1].info.vendor_id, 0x2c9u);
  EXPECT_EQ(f.nodes[1].info.device_id, 0xc738u);
  EXPECT_TRUE(f.nodes[1].sw->enhanced_port0);
  EXPECT_EQ(f.nodes[1].lids(), std::vector<uint16_t>{2});
  // LinearFDBTop: the highest LID, h3's LMC 1 making it 8.
  EXPECT_EQ(f.nodes[1].sw->linear_fdb_top, 8u);
  EXPECT_EQ(f.nodes[2].description, "h3");
  EXPECT_EQ(f.nodes[2].path, (std::vector<uint8_t>{1, 5}));
  EXPECT_EQ(f.nodes[2].info.port_guid, 0x100008u);
  EXPECT_EQ(f.nodes[2].info.local_port, 2u);
  EXPECT_EQ(f.nodes[2].lids(), std::vector<uint16_t>{7});
  EXPECT_EQ(f.nodes[2].ports[2].info->lmc, 1u);
  EXPECT_FALSE(f.nodes[2].ports[1].info);  // not in the file: unknown
  EXPECT_EQ(mad::generation_name(link_generation(
                *f.nodes[2].ports[2].info, speed_caps(f.nodes[2], *f.nodes[2].ports[2].info))),
            std::string("EDR"));
  EXPECT_EQ(mad::generation_name(link_generation(
                *f.nodes[1].ports[5].info, speed_caps(f.nodes[1], *f.nodes[1].ports[5].info))),
            std::string("EDR"));
  EXPECT_EQ(f.links().size(), 2u);
}

TEST(TopologyRead, LoadFabricTellsTheFormatsApart) {
  std::string path = ::testing::TempDir() + "rdma-topology-read-test.txt";
  std::ofstream(path) << kIbnetdiscover;
  EXPECT_EQ(load_fabric(path).nodes.size(), 3u);
  Fabric f = topo_read_discovered(testdata::kNet);
  save_fabric(f, path);
  EXPECT_EQ(load_fabric(path).nodes.size(), f.nodes.size());
  // Neither: the saved fabric's reader says what is wrong, as before.
  std::ofstream(path) << "\nhello\n";
  try {
    load_fabric(path);
    ADD_FAILURE() << "read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not a line of an rdma fabric file"), std::string::npos)
        << e.what();
  }
  std::remove(path.c_str());
  EXPECT_TRUE(is_topology_text("\nSwitch 8 \"x\"\n"));
  EXPECT_FALSE(is_topology_text("{\"format\":\"rdma-fabric\"}\n"));
}

void topo_read_expect_error(const std::string& text, const std::string& want) {
  try {
    parse_topology_fabric(text, "t.txt");
    ADD_FAILURE() << "no error, want " << want;
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), want);
  }
}

TEST(TopologyRead, WhatIsWrongIsNamedWithItsLine) {
  topo_read_expect_error("Switch 4 \"sw\"\n",
                         "t.txt:1: node \"sw\" has no GUID (no switchguid= "
                         "line before it, and its ID is not S-, H- or R-GUID)");
  topo_read_expect_error("Switch 4 \"S-1\"\n[5] \"S-1\"[1]\n", "t.txt:2: port 5 is out of range");
  topo_read_expect_error("Switch 4 \"S-1\"\n[1] \"S-2\"[1]\n",
                         "t.txt:2: no node \"S-2\" in the file");
  topo_read_expect_error("Switch 4 \"S-1\"\nSwitch 4 \"S-1\"\n",
                         "t.txt:2: node GUID 0x0000000000000001 is declared twice (line 1)");
  topo_read_expect_error("Switch 4 \"S-1\"\nwhat\n",
                         "t.txt:2: not a node, port or value line: what");
  topo_read_expect_error("Switch 4 \"S-1\"\nSwitch 4 \"S-2\"\n[1] \"S-1\"[9]\n",
                         "t.txt:3: \"S-1\" has no port 9");
  // Two lines that do not say the same link.
  topo_read_expect_error(
      "Switch 4 \"S-1\"\n[1] \"S-2\"[1]\nSwitch 4 \"S-2\"\n[1] \"S-1\"[2]\n",
      "t.txt:4: \"S-2\"[1] is linked to \"S-1\"[2] here, to \"S-1\"[1] on line 2");
  topo_read_expect_error("# nothing\n", "t.txt: no node line (Switch, Ca or Rt)");
}

}  // namespace
}  // namespace rdma::ib
