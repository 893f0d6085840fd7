// LID-routed discovery against the fabric double: the same fabric as
// directed-route discovery finds, with most SMPs LID-routed.
#include "lib/ib/lid_discover.h"

#include <gtest/gtest.h>

#include <string>

#include "lib/ib/discover.h"
#include "lib/mad/attrs.h"
#include "lib/mad/engine.h"
#include "lib/mad/mad.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/fabric/topology.h"
#include "lib/testing/test_data.h"

namespace rdma::ib {
namespace {

using ibtest::FakeFabric;

// What every fabric view reads of a fabric, one line a port: node order,
// paths, descriptions, GUIDs, LIDs, states, widths and peers.
std::string lid_walk_text(const Fabric& f) {
  std::string out;
  for (const Node& n : f.nodes) {
    out += std::to_string(n.info.node_guid) + " type " + std::to_string(n.info.node_type) +
           " path " + std::to_string(n.path.size()) + " \"" + n.description + "\"" +
           (n.sw ? " top " + std::to_string(n.sw->linear_fdb_top) : "") + "\n";
    for (const Port& p : n.ports) {
      out += "  " + std::to_string(p.num) + " guid " + std::to_string(p.guid);
      if (p.info)
        out += " lid " + std::to_string(p.info->lid) + " state " + std::to_string(p.info->state) +
               " width " + std::to_string(p.info->width_active);
      if (p.peer)
        out += " peer " + std::to_string(p.peer->node) + "/" + std::to_string(p.peer->port);
      out += "\n";
    }
  }
  return out;
}

const std::string kLidFatTree = rdma::testdata::dir() + "/fattree-100.net";

TEST(LidDiscover, TheSameFabricAsDirectedRoutes) {
  for (const std::string& net : {testdata::kNet, kLidFatTree}) {
    FakeFabric f(ibtest::load_topology(net));
    f.assign_lids();
    mad::Engine e(f, {100, 3, 16});
    Discovery dr = discover(e);
    uint64_t dr_smps = f.stats().received[mad::kClassSmiDr];
    size_t found = 0;
    Discovery lid = discover_by_lid(e, &found);
    EXPECT_TRUE(lid.warnings.empty()) << net << ": " << lid.warnings.front();
    EXPECT_EQ(lid_walk_text(lid.fabric), lid_walk_text(dr.fabric)) << net;
    EXPECT_EQ(found, dr.fabric.nodes.size());
    // Most of them by LID: the directed ones are two per node (the probe
    // and the PortInfo that gives its LID).
    uint64_t by_lid = f.stats().received[mad::kClassSmiLid];
    uint64_t directed = f.stats().received[mad::kClassSmiDr] - dr_smps;
    EXPECT_GT(by_lid, 0u);
    EXPECT_LE(directed, 2 * lid.fabric.nodes.size() + lid.fabric.links().size()) << net;
  }
}

TEST(LidDiscover, NodesWithoutALidAreReadByDirectedRouteAndSaid) {
  FakeFabric f(ibtest::load_topology(testdata::kNet));  // no subnet manager: no LIDs
  mad::Engine e(f, {100, 3, 16});
  Discovery dr = discover(e);
  Discovery lid = discover_by_lid(e);
  EXPECT_EQ(lid_walk_text(lid.fabric), lid_walk_text(dr.fabric));
  ASSERT_EQ(lid.warnings.size(), 1u);
  EXPECT_NE(lid.warnings[0].find("6 nodes have no LID"), std::string::npos) << lid.warnings[0];
  EXPECT_EQ(f.stats().received[mad::kClassSmiLid], 0u);
}

TEST(LidDiscover, ASwitchThatDoesNotAnswerByLidIsAWarning) {
  FakeFabric f(ibtest::load_topology(testdata::kNet));
  f.assign_lids();
  // Every LID-routed SwitchInfo lost: the switches are found, without it.
  f.drop({.match = {.mgmt_class = mad::kClassSmiLid, .attr = mad::kSwitchInfo.id}});
  mad::Engine e(f, {50, 1, 16});
  Discovery lid = discover_by_lid(e);
  EXPECT_EQ(lid.fabric.nodes.size(), 6u);
  ASSERT_FALSE(lid.warnings.empty());
  EXPECT_NE(lid.warnings[0].find("SwitchInfo from lid"), std::string::npos) << lid.warnings[0];
  for (const Node& n : lid.fabric.nodes) EXPECT_FALSE(n.sw.has_value());
}

TEST(LidDiscover, TheLocalNodeSilentIsAnError) {
  FakeFabric f(ibtest::load_topology(testdata::kNet));
  f.drop({.match = {.mgmt_class = mad::kClassSmiDr, .attr = mad::kNodeInfo.id}});
  mad::Engine e(f, {50, 0, 16});
  EXPECT_THROW(discover_by_lid(e), Error);
}

}  // namespace
}  // namespace rdma::ib
