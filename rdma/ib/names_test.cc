// Nodes named by NodeDescription or node-name-map wherever a target is
// taken (`name NAME`, or a bare word where nothing else can stand), on the
// fabric double: found in the SA's NodeRecords, or by discovery without an
// SM; an ambiguous or unknown name lists the candidates.
#include <cstdio>
#include <fstream>

#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

using madtest::MadCmd;
using madtest::Result;

class Names : public MadCmd {
 protected:
  Names() {
    node("hca2").description = "gpu-node-02 HCA-1";
    node("hca3").description = "gpu-node-07 HCA-1";
    node("hca4").description = "gpu-node-07 HCA-2";
  }
};

TEST_F(Names, NodeShowByNameAndBareWord) {
  Result r = run({"node", "show", "name", "sw2"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("lid 4: type switch ", 0), 0u) << r.out;
  r = run({"node", "show", "gpu-node-02"});  // the host its description starts with
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("lid 3: type ca ", 0), 0u) << r.out;
  r = run({"port", "show", "name", "sw1", "port", "3"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("lid 2: port 3 ", 0), 0u) << r.out;
  r = run({"port", "show", "sw1", "port", "3"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("lid 2: port 3 ", 0), 0u) << r.out;
  r = run({"perf", "show", "name", "sw1", "port", "3"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("lid 2: port 3 ", 0), 0u) << r.out;
}

TEST_F(Names, AnAmbiguousOrUnknownNameListsCandidates) {
  Result r = run({"node", "show", "gpu-node-07"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "node name \"gpu-node-07\" is ambiguous: 2 nodes have it (\"gpu-node-07 HCA-1\" " +
                guid(node("hca3").node_guid) + ", \"gpu-node-07 HCA-2\" " +
                guid(node("hca4").node_guid) + "); name one by guid or lid\n");
  r = run({"node", "show", "name", "gpu-node-03"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err.rfind("no node named \"gpu-node-03\" (NodeDescription or node-name-map) among 6 "
                        "nodes; like it: \"gpu-node-02 HCA-1\" ",
                        0),
            0u)
      << r.err;
  // A keyword of the command is not taken for a name.
  r = run({"port", "show", "port", "3"});
  EXPECT_EQ(r.err, "missing target (lid N, guid G, gid G, dr PATH or name NAME)\n");
}

TEST_F(Names, TheNodeNameMapNamesToo) {
  std::string map = ::testing::TempDir() + "rdma-names-names.map";
  std::ofstream(map) << guid(node("sw2").node_guid) << " \"spine ü 1\"\n";
  Result r = run({"--node-name-map", map, "node", "show", "name", "spine ü 1"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("lid 4: type switch ", 0), 0u) << r.out;
  r = run({"--node-name-map", map, "route", "trace", "gpu-node-02", "spine ü 1"});
  std::remove(map.c_str());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("description \"spine ü 1\""), std::string::npos) << r.out;
}

TEST_F(Names, RouteTraceBetweenTwoNames) {
  Result r = run({"-j", "route", "trace", "gpu-node-02", "name", "gpu-node-07 HCA-2"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_GE(j.size(), 3u);
  EXPECT_EQ(j.front()["description"], "gpu-node-02 HCA-1");
  EXPECT_EQ(j.back()["description"], "gpu-node-07 HCA-2");
}

// Without a subnet manager there are no NodeRecords and no LIDs: the name
// is found by discovery and reached by its directed route.
TEST_F(Names, WithoutAnSmANameIsFoundByDiscovery) {
  no_sm();
  node("hca3").description = "gpu-node-07 HCA-1";
  Result r = run({"node", "show", "gpu-node-07"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("dr 0,1,3,1: type ca ", 0), 0u) << r.out;
}

}  // namespace
}  // namespace rdma
