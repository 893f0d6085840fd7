// Diffs of two discoveries of the fabric double (the suite's fabric, swept)
// with the fabric changed between them.
#include "lib/ib/diff.h"

#include <gtest/gtest.h>

#include <set>

#include "lib/ib/discover.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/fabric/topology.h"
#include "lib/testing/test_data.h"

namespace rdma::ib {
namespace {

class Diff : public ::testing::Test {
 protected:
  Diff() : fake_(ibtest::load_topology(rdma::testdata::dir() + "/../ibsim/net")) {
    fake_.assign_lids();
  }
  Fabric discovered() {
    mad::Engine e(fake_, {100, 1, 8});
    return discover(e).fabric;
  }
  uint64_t guid(const char* id) { return fake_.nodes()[fake_.node(id)].node_guid; }

  ibtest::FakeFabric fake_;
};

TEST_F(Diff, TheSameFabricTwiceHasNoChange) {
  EXPECT_TRUE(diff(discovered(), discovered()).empty());
}

TEST_F(Diff, ANodeGoneIsTheNodeItsLinkAndThePortLeft) {
  Fabric before = discovered();
  fake_.unlink(fake_.node("sw2"), 2);  // hca4's only link
  std::vector<Change> c = diff(before, discovered());
  ASSERT_GE(c.size(), 3u);
  EXPECT_EQ(c[0].kind, Change::Kind::Gone);
  EXPECT_EQ(c[0].object, Change::Object::Node);
  EXPECT_EQ(c[0].node_guid, guid("hca4"));
  EXPECT_EQ(c[0].description, "hca4");
  EXPECT_EQ(c[1].kind, Change::Kind::Gone);
  EXPECT_EQ(c[1].object, Change::Object::Link);
  EXPECT_EQ(std::minmax(c[1].node_guid, c[1].peer_node_guid),
            std::minmax(guid("sw2"), guid("hca4")));
  // sw2 port 2 went down: its values, each a change.
  bool state = false;
  for (size_t i = 2; i < c.size(); ++i) {
    EXPECT_EQ(c[i].kind, Change::Kind::Changed);
    EXPECT_EQ(c[i].object, Change::Object::Port);
    EXPECT_EQ(c[i].node_guid, guid("sw2"));
    EXPECT_EQ(c[i].port, 2);
    if (c[i].field == "state") {
      state = true;
      EXPECT_EQ(c[i].before, "ACTIVE");
      EXPECT_EQ(c[i].now, "DOWN");
    }
  }
  EXPECT_TRUE(state);
  // Backwards: the node and link come back as added.
  std::vector<Change> back = diff(discovered(), before);
  ASSERT_GE(back.size(), 2u);
  EXPECT_EQ(back[0].kind, Change::Kind::Added);
  EXPECT_EQ(back[0].node_guid, guid("hca4"));
  EXPECT_EQ(back[1].kind, Change::Kind::Added);
  EXPECT_EQ(back[1].object, Change::Object::Link);
}

TEST_F(Diff, ADegradedLinkIsAWidthChangeAtBothEnds) {
  Fabric before = discovered();
  fake_.set_link_active(fake_.node("sw1"), 2, ibtest::kWidth1x, ibtest::kSpeedSdr);
  std::vector<Change> c = diff(before, discovered());
  ASSERT_EQ(c.size(), 2u);
  std::set<uint64_t> nodes;
  for (const Change& ch : c) {
    EXPECT_EQ(ch.field, "width");
    EXPECT_EQ(ch.before, "4X");
    EXPECT_EQ(ch.now, "1X");
    nodes.insert(ch.node_guid);
  }
  EXPECT_EQ(nodes, (std::set<uint64_t>{guid("sw1"), guid("hca2")}));
  view::Record r;
  change_record(c[0], r);
  std::string text;
  for (const view::Field& f : r) text += f.text;
  EXPECT_NE(text.find("changed port node_guid "), std::string::npos) << text;
  EXPECT_NE(text.find(" field width before 4X now 1X "), std::string::npos) << text;
}

// ibnetdiscover --diffcheck: the kinds of node looked at, and what of
// them. hca4 unlinked: the CA gone, its link, sw2 port 2's values.
TEST_F(Diff, ChecksPickTheKindsOfNodeAndWhatOfThem) {
  Fabric before = discovered();
  fake_.unlink(fake_.node("sw2"), 2);
  Fabric now = discovered();
  const size_t all = diff(before, now).size();
  auto objects = [&](const DiffChecks& k) {
    std::multiset<std::pair<Change::Object, uint64_t>> out;
    for (const Change& c : diff(before, now, k)) out.insert({c.object, c.node_guid});
    return out;
  };
  // Switches, links only: the link (its switch end), nothing of the CA.
  std::multiset<std::pair<Change::Object, uint64_t>> links = objects(
      {.cas = false, .routers = false, .lids = false, .descriptions = false, .ports = false});
  ASSERT_EQ(links.size(), 1u);
  EXPECT_EQ(links.begin()->first, Change::Object::Link);
  // CAs, every part: the node gone and its link, not sw2's port values.
  std::multiset<std::pair<Change::Object, uint64_t>> cas =
      objects({.switches = false, .routers = false});
  EXPECT_EQ(cas.count({Change::Object::Node, guid("hca4")}), 1u);
  EXPECT_EQ(cas.size(), 2u);
  // Switches, their ports' values: sw2 port 2's, all of them.
  DiffChecks ports{.cas = false, .routers = false, .links = false};
  std::vector<Change> values = diff(before, now, ports);
  EXPECT_EQ(values.size(), all - 2);
  for (const Change& c : values) EXPECT_EQ(c.node_guid, guid("sw2"));
  // Descriptions of every kind: none changed, but a node gone is listed
  // whatever is compared of its kind.
  EXPECT_EQ(
      objects({.links = false, .lids = false, .ports = false}),
      (std::multiset<std::pair<Change::Object, uint64_t>>{{Change::Object::Node, guid("hca4")}}));
  EXPECT_TRUE(objects({.cas = false, .links = false, .lids = false, .ports = false}).empty());
}

TEST(ChangeRecord, ALinkNamesBothEnds) {
  Change c;
  c.kind = Change::Kind::Added;
  c.object = Change::Object::Link;
  c.node_guid = 0x20;
  c.description = "sw1";
  c.port = 3;
  c.peer_node_guid = 0x21;
  c.peer_port = 4;
  c.peer_description = "sw2";
  view::Record r;
  change_record(c, r);
  std::string text;
  for (const view::Field& f : r) text += f.text;
  EXPECT_EQ(text,
            "added link node_guid 0x0000000000000020 port 3 description \"sw1\" peer_node_guid "
            "0x0000000000000021 peer_port 4 peer_description \"sw2\" ");
}

}  // namespace
}  // namespace rdma::ib
