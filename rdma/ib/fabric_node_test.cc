// How one host is cabled: `fabric links node NAME|lid L|guid G [port N]`
// lists every port of the node, its end first; `fabric show hosts` is
// `cas` (ibhosts' word). On fabric.net, whose h3 is dual-homed (port 1 to
// s2, port 2 to s1).
#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

class FabricNodeCmd : public madtest::MadCmd {
 protected:
  FabricNodeCmd() : MadCmd("fabric.net") {}
};

TEST_F(FabricNodeCmd, LinksOfOneNodeAreEveryPortOfItsEndFirst) {
  nlohmann::json j = json({"fabric", "links", "node", "h3"});
  ASSERT_EQ(j.size(), 2u) << j.dump();
  for (const auto& l : j) EXPECT_EQ(l["description"], "h3");
  EXPECT_EQ(j[0]["port"], 1);
  EXPECT_EQ(j[0]["peer_description"], "s2");
  EXPECT_EQ(j[1]["port"], 2);
  EXPECT_EQ(j[1]["peer_description"], "s1");
  // By LID and by GUID the same; `port N` one of them.
  uint16_t lid = j[1]["lid"];
  EXPECT_EQ(json({"fabric", "links", "node", "lid", std::to_string(lid)}), j);
  EXPECT_EQ(json({"fabric", "links", "node", "guid", guid(node("h3").node_guid)}), j);
  nlohmann::json one = json({"fabric", "links", "node", "name", "h3", "port", "2"});
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0], j[1]);
  // A switch: its links, and with `all` its ports without a link too.
  size_t links = json({"fabric", "links", "node", "s3"}).size();
  EXPECT_GT(json({"fabric", "links", "all", "node", "s3"}).size(), links);
}

TEST_F(FabricNodeCmd, BadNodeWords) {
  test::Result r = run({"fabric", "links", "node", "h3", "port", "7"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "name \"h3\" has no port 7 (ports 1-2)\n");
  r = run({"fabric", "links", "port", "1"});
  EXPECT_EQ(r.err, "\"port N\" is a port of \"node TARGET\"\n");
  r = run({"fabric", "links", "node"});
  EXPECT_EQ(r.err, "missing NAME, lid L or guid G after \"node\"\n");
  r = run({"fabric", "links", "node", "h3", "hops", "2"});
  EXPECT_EQ(r.err, "\"node\" lists one node's ports; not with \"from TARGET\" or \"hops\"\n");
  r = run({"fabric", "links", "node", "h9"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err.rfind("no node named \"h9\" ", 0), 0u) << r.err;
}

TEST_F(FabricNodeCmd, HostsAreCas) {
  test::Result hosts = run({"fabric", "show", "hosts"});
  ASSERT_EQ(hosts.status, 0) << hosts.err;
  EXPECT_EQ(hosts.out, run({"fabric", "show", "cas"}).out);
  EXPECT_NE(hosts.out.find("description \"h3\""), std::string::npos) << hosts.out;
}

}  // namespace
}  // namespace rdma
