// port show from FILE: a discovered port as the file holds it prints as
// port show prints the port live, field for field, the fields the file
// does not hold left out and named; a topology file's fewer.
#include "lib/ib/saved_port.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "lib/error.h"
#include "lib/ib/discover.h"
#include "lib/ib/port_view.h"
#include "lib/testing/fabric/client.h"

namespace rdma::ib {
namespace {

std::map<std::string, std::string> saved_port_fields(const view::Record& r) {
  std::map<std::string, std::string> out;
  for (const view::Field& f : r) out[f.key] = f.text;
  return out;
}

// Every port of every node with a PortInfo, live and from the model, at
// detail 1; returns how many fields were compared.
size_t compare_ports(MadClient& c, const Fabric& f, bool topology) {
  size_t compared = 0;
  for (const Node& n : f.nodes) {
    unsigned arrive = n.is_switch() ? 0 : n.info.local_port;
    for (const Port& p : n.ports) {
      if (!p.info || (!n.is_switch() && p.num == 0)) continue;
      SCOPED_TRACE(n.description + " port " + std::to_string(p.num));
      mad::Route r{true, 0, n.path};
      mad::Mad pi = read_port_info(c, r, p.num);
      view::Record live, saved;
      add_port_attrs(port_attrs(c, r, p.num, pi.data()), 1, false, live);
      std::vector<std::string> missing =
          add_saved_port(n, arrive, p.num, topology, 1, false, "x", saved);
      std::map<std::string, std::string> want = saved_port_fields(live),
                                         got = saved_port_fields(saved);
      for (const auto& [k, v] : got) EXPECT_EQ(v, want[k]) << k;
      for (const auto& [k, v] : want) {
        bool said = std::find(missing.begin(), missing.end(), k) != missing.end();
        EXPECT_NE(got.count(k) != 0, said) << k;
      }
      EXPECT_EQ(missing.size(), std::set<std::string>(missing.begin(), missing.end()).size());
      compared += got.size();
    }
  }
  return compared;
}

TEST(SavedPort, EveryHeldFieldAsTheLiveViewPrintsIt) {
  ibtest::FabricClient fc;
  Fabric f = discover(fc.client().engine()).fabric;
  ASSERT_GT(f.nodes.size(), 2u);
  EXPECT_GT(compare_ports(fc.client(), f, false), 20u * f.nodes.size());
  // A CA's port in a saved fabric: the whole default view.
  const Node& ca = f.nodes[0];
  ASSERT_FALSE(ca.is_switch());
  view::Record r;
  unsigned port = ca.info.local_port;
  EXPECT_EQ(add_saved_port(ca, port, port, false, 0, false, "x", r).size(), 0u);
  std::map<std::string, std::string> got = saved_port_fields(r);
  EXPECT_EQ(got.count("state"), 1u);
  EXPECT_EQ(got.count("gid"), 1u);
  EXPECT_EQ(got.count("speed"), 1u);
}

TEST(SavedPort, ATopologyFileHoldsLidWidthAndSpeedOnly) {
  ibtest::FabricClient fc;
  Fabric f = discover(fc.client().engine()).fabric;
  compare_ports(fc.client(), f, true);
  const Node& ca = f.nodes[0];
  unsigned port = ca.info.local_port;
  view::Record r;
  std::vector<std::string> missing = add_saved_port(ca, port, port, true, 0, false, "x", r);
  std::map<std::string, std::string> got = saved_port_fields(r);
  EXPECT_EQ(got.count("lid"), 1u);
  EXPECT_EQ(got.count("width"), 1u);
  EXPECT_EQ(got.count("state"), 0u);
  for (const char* k : {"state", "physical_state", "subnet_prefix", "gid", "mtu"})
    EXPECT_NE(std::find(missing.begin(), missing.end(), k), missing.end()) << k;
  // A switch's port 0: no rate word, so none of the speed keys, though
  // zeros (as topology_read leaves them) give no rate or generation.
  Node sw = f.nodes[1];
  ASSERT_TRUE(sw.is_switch());
  sw.ports[0].info->width_active = 0;
  sw.ports[0].info->speed_active = 0;
  view::Record s;
  missing = add_saved_port(sw, 0, 0, true, 0, false, "x", s);
  EXPECT_EQ(saved_port_fields(s).count("speed"), 0u);
  for (const char* k : {"width", "speed", "rate", "generation"})
    EXPECT_NE(std::find(missing.begin(), missing.end(), k), missing.end()) << k;
}

TEST(SavedPort, APortTheNodeLacksOrTheFileDoesNotHoldIsAnError) {
  ibtest::FabricClient fc;
  Fabric f = discover(fc.client().engine()).fabric;
  Node ca = f.nodes[0];
  view::Record r;
  EXPECT_THROW(add_saved_port(ca, 1, ca.info.num_ports + 1u, false, 0, false, "lid 1", r), Error);
  EXPECT_THROW(add_saved_port(ca, 1, 0, false, 0, false, "lid 1", r), Error);
  ca.ports[1].info.reset();
  try {
    add_saved_port(ca, 1, 1, true, 0, false, "lid 1", r);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("holds no PortInfo of lid 1 port 1"), std::string::npos);
  }
}

}  // namespace
}  // namespace rdma::ib
