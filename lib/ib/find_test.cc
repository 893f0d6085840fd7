// Finding ports of a discovered fabric (the suite's, swept: hca1 LID 1,
// sw1 2, hca2 3, sw2 4, hca3 5, hca4 6) by LID, GUID and GID.
#include "lib/ib/find.h"

#include <gtest/gtest.h>

#include "lib/error.h"
#include "lib/ib/discover.h"
#include "lib/ib/unicast_route.h"
#include "lib/mad/target.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/fabric/topology.h"
#include "lib/testing/test_data.h"

namespace rdma::ib {
namespace {

class Find : public ::testing::Test {
 protected:
  Find() : fake_(ibtest::load_topology(rdma::testdata::dir() + "/../ibsim/net")) {
    fake_.assign_lids();
    fake_.nodes()[fake_.node("hca4")].ports[1].lmc = 2;  // LIDs 6-9
    mad::Engine e(fake_, {100, 2, 16});
    f_ = discover(e).fabric;
  }
  // The fabric's node index of a node of the double.
  uint32_t node(const char* id) {
    return *find_node_guid(f_, fake_.nodes()[fake_.node(id)].node_guid);
  }
  uint64_t node_guid(const char* id) { return fake_.nodes()[fake_.node(id)].node_guid; }
  uint64_t port_guid(const char* id, int p) { return fake_.nodes()[fake_.node(id)].ports[p].guid; }

  ibtest::FakeFabric fake_;
  Fabric f_;
};

TEST_F(Find, ByLidASwitchsPort0AndACaPortsLmcRange) {
  EXPECT_EQ(find_port_lid(f_, 2), (PortRef{node("sw1"), 0}));
  EXPECT_EQ(find_port_lid(f_, 3), (PortRef{node("hca2"), 1}));
  for (uint16_t lid = 6; lid <= 9; ++lid)
    EXPECT_EQ(find_port_lid(f_, lid), (PortRef{node("hca4"), 1}));
  EXPECT_FALSE(find_port_lid(f_, 10));
  EXPECT_FALSE(find_port_lid(f_, 0));
}

TEST_F(Find, ByLidAgreesWithLidOwners) {
  std::map<uint16_t, PortRef> owners = lid_owners(f_);
  EXPECT_EQ(owners.size(), 9u);  // 1-5, and 6-9
  for (uint32_t lid = 0; lid < 0x20; ++lid) {
    auto o = owners.find(static_cast<uint16_t>(lid));
    std::optional<PortRef> p = find_port_lid(f_, static_cast<uint16_t>(lid));
    EXPECT_EQ(p.has_value(), o != owners.end()) << lid;
    if (p && o != owners.end()) {
      EXPECT_EQ(*p, o->second) << lid;
    }
  }
}

TEST_F(Find, LidRangesStopBelowMulticast) {
  Node n;
  n.info.node_type = 1;
  Port p;
  p.num = 1;
  p.info.emplace();
  p.info->lid = 0xbffe;
  p.info->lmc = 2;
  LidRange r = lid_range(n, p);
  EXPECT_EQ(r.first, 0xbffe);
  EXPECT_EQ(r.count, 2u);
  p.info->lid = 0xc000;
  EXPECT_EQ(lid_range(n, p).count, 0u);
  n.info.node_type = 2;  // a switch: its external ports have no LID
  p.info->lid = 7;
  EXPECT_EQ(lid_range(n, p).count, 0u);
  p.num = 0;
  EXPECT_EQ(lid_range(n, p).count, 1u);  // port 0: one LID whatever the LMC
}

TEST_F(Find, ByPortGuidNodeGuidAndGid) {
  EXPECT_EQ(find_port_guid(f_, port_guid("hca2", 1)), (PortRef{node("hca2"), 1}));
  uint64_t sw_port = f_.nodes[node("sw2")].info.port_guid;
  EXPECT_EQ(find_port_guid(f_, sw_port), (PortRef{node("sw2"), 0}));
  EXPECT_FALSE(find_port_guid(f_, node_guid("hca2")));  // a node GUID is no port's
  EXPECT_FALSE(find_port_guid(f_, 0));
  EXPECT_EQ(find_node_guid(f_, node_guid("hca3")), node("hca3"));
  EXPECT_FALSE(find_node_guid(f_, port_guid("hca3", 1)));
  EXPECT_EQ(find_port_gid(f_, mad::make_gid(0xfe80000000000000, port_guid("hca4", 1))),
            (PortRef{node("hca4"), 1}));
  EXPECT_FALSE(find_port_gid(f_, mad::make_gid(0xfe80000000000000, 0x1234)));
}

TEST_F(Find, AGuidNamesANodeOrAPort) {
  // A CA by node GUID: its first port with a LID; a switch: port 0.
  EXPECT_EQ(find_guid(f_, node_guid("hca3")), (PortRef{node("hca3"), 1}));
  EXPECT_EQ(find_guid(f_, node_guid("sw1")), (PortRef{node("sw1"), 0}));
  EXPECT_EQ(find_guid(f_, f_.nodes[node("sw1")].info.port_guid), (PortRef{node("sw1"), 0}));
  EXPECT_EQ(find_guid(f_, port_guid("hca2", 1)), (PortRef{node("hca2"), 1}));
  EXPECT_FALSE(find_guid(f_, 0x1234));
  EXPECT_FALSE(find_guid(f_, 0));  // unreached ports have GUID 0: no match
}

TEST_F(Find, ANameIsADescriptionOrTheHostItStartsWith) {
  EXPECT_EQ(find_name(f_, "sw2"), (PortRef{node("sw2"), 0}));
  EXPECT_EQ(find_name(f_, "hca3"), (PortRef{node("hca3"), 1}));
  std::vector<NamedNode> nodes = {{1, "gpu-node-02 HCA-1", ""},
                                  {1, "gpu-node-02 HCA-1", ""},  // its second port's record
                                  {2, "gpu-node-07 HCA-1", ""},
                                  {3, "gpu-node-07 HCA-2", ""},
                                  {4, "leaf 1", "rack1-leaf"}};
  EXPECT_EQ(find_named(nodes, "gpu-node-02"), 0u);  // one node, two records
  EXPECT_EQ(find_named(nodes, "gpu-node-07 HCA-2"), 3u);
  EXPECT_EQ(find_named(nodes, "rack1-leaf"), 4u);  // the map's name
  EXPECT_EQ(find_named(nodes, "leaf 1"), 4u);      // and still its description
}

TEST_F(Find, AnAmbiguousOrUnknownNameListsTheCandidates) {
  std::vector<NamedNode> nodes = {{1, "gpu-node-02 HCA-1", ""},
                                  {2, "gpu-node-07 HCA-1", ""},
                                  {3, "gpu-node-07 HCA-2", ""},
                                  {4, "storage-1", ""}};
  try {
    find_named(nodes, "gpu-node-07");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "node name \"gpu-node-07\" is ambiguous: 2 nodes have it (\"gpu-node-07 HCA-1\" "
                 "0x0000000000000002, \"gpu-node-07 HCA-2\" 0x0000000000000003); name one by guid "
                 "or lid");
  }
  try {
    find_named(nodes, "gpu-node-03");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "no node named \"gpu-node-03\" (NodeDescription or node-name-map) among 4 nodes; "
                 "like it: \"gpu-node-02 HCA-1\" 0x0000000000000001, \"gpu-node-07 HCA-1\" "
                 "0x0000000000000002, \"gpu-node-07 HCA-2\" 0x0000000000000003");
  }
  EXPECT_THROW(find_named(nodes, "storage"), Error);  // a prefix is no name
  try {
    find_named(nodes, "zzz");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "no node named \"zzz\" (NodeDescription or node-name-map) among 4 nodes");
  }
}

}  // namespace
}  // namespace rdma::ib
