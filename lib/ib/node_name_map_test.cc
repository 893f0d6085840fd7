// The node-name-map file as infiniband-diags reads it: GUIDs in either form,
// quoted and bare names (blanks and UTF-8 kept), comments, blank lines, and
// a bad line named by file and line.
#include "lib/ib/node_name_map.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "lib/error.h"

namespace rdma::ib {
namespace {

TEST(NodeNameMap, ReadsQuotedAndBareNames) {
  NodeNameMap m = parse_node_name_map(
      "# the site's names\n"
      "\n"
      "0x0000000000200000 \"leaf 1 (rack A)\"  # a switch\n"
      "  0000:0000:0010:0001\t\"höst ünö\"\n"
      "0x100002 bare name here   # comment\n"
      "4194307 \"decimal\"\n"
      "0x100004\n"
      "0x200000 \"second name: the first stays\"\n",
      "map");
  EXPECT_EQ(m.names.size(), 4u);
  EXPECT_EQ(m.names.at(0x200000), "leaf 1 (rack A)");
  EXPECT_EQ(m.names.at(0x100001), "höst ünö");
  EXPECT_EQ(m.names.at(0x100002), "bare name here");
  EXPECT_EQ(m.names.at(4194307), "decimal");
  EXPECT_FALSE(m.names.count(0x100004));  // a GUID with no name maps nothing
  std::string desc = "sw1";
  EXPECT_EQ(m.name(0x200000, desc), "leaf 1 (rack A)");
  EXPECT_EQ(&m.name(0x999, desc), &desc);
}

TEST(NodeNameMap, NamesTheBadLine) {
  try {
    parse_node_name_map("0x1 \"a\"\n\n0x1g \"b\"\n", "/etc/map");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "/etc/map:3: invalid GUID \"0x1g\" (expected GUID \"NAME\", e.g. "
                 "0x0002c90300a1b2c3 \"leaf 1\")");
  }
  try {
    parse_node_name_map("0x1 \"a\nb\"\n", "m");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "m:1: the name's closing '\"' is missing");
  }
  try {
    parse_node_name_map("0x1 \"a\" b\n", "m");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "m:1: unexpected \"b\" after the name");
  }
  EXPECT_THROW(parse_node_name_map("\"name\" 0x1\n", "m"), Error);
}

TEST(NodeNameMap, LoadsTheNamedOrTheDefaultFile) {
  std::string dir = testing::TempDir();
  std::string file = dir + "/node_name_map_test.map";
  std::ofstream(file) << "0x10 \"ten\"\n";
  EXPECT_EQ(load_node_name_map(file).names.at(0x10), "ten");
  // No file named: the default when it exists, nothing when it does not.
  EXPECT_EQ(load_node_name_map(std::nullopt, file.c_str()).names.at(0x10), "ten");
  std::string none = dir + "/node_name_map_test.none";
  EXPECT_TRUE(load_node_name_map(std::nullopt, none.c_str()).names.empty());
  try {
    load_node_name_map(none);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "cannot read the node name map \"" + none + "\": No such file or directory");
  }
  std::remove(file.c_str());
}

TEST(NodeNameMap, RenamesNodesAndDescriptionFields) {
  NodeNameMap m = parse_node_name_map("0x20 \"leaf \\ 1\"\n", "m");
  Fabric f;
  f.nodes.resize(2);
  f.nodes[0].info.node_guid = 0x20;
  f.nodes[0].description = "sw1";
  f.nodes[1].info.node_guid = 0x21;
  f.nodes[1].description = "sw2";
  rename_nodes(m, f);
  EXPECT_EQ(f.nodes[0].description, "leaf \\ 1");
  EXPECT_EQ(f.nodes[1].description, "sw2");

  view::Record rec;
  rec.pair("node_guid", "0x0000000000000020");
  rec.pair("description", "\"sw1\"", view::Json("sw1"));
  rec.pair("ports", 3);
  rename_description(m, 0x21, rec);
  EXPECT_EQ(rec[1].text, "description \"sw1\" ");
  rename_description(m, 0x20, rec);
  ASSERT_EQ(rec.size(), 3u);
  EXPECT_EQ(rec[1].text, "description \"leaf \\\\ 1\" ");
  EXPECT_EQ(rec[1].value, "leaf \\ 1");
  EXPECT_EQ(rec[2].text, "ports 3 ");
}

}  // namespace
}  // namespace rdma::ib
