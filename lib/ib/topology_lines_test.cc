// The topology file's node and port lines split into their parts, as both
// readers take them: ibnetdiscover's own lines, -g's [ext N] skipped.
#include "lib/ib/topology_lines.h"

#include <gtest/gtest.h>

namespace rdma::ib {
namespace {

TEST(TopologyLines, NodeLinesOfEachType) {
  auto sw =
      topology_node_line("Switch\t8 \"S-0000000000200000\"\t\t# \"sw1\" base port 0 lid 2 lmc 0");
  ASSERT_TRUE(sw);
  EXPECT_EQ(sw->type, "Switch");
  EXPECT_EQ(sw->ports, "8");
  EXPECT_EQ(sw->id, "S-0000000000200000");
  EXPECT_EQ(sw->rest, "\t\t# \"sw1\" base port 0 lid 2 lmc 0");
  auto hca = topology_node_line("Hca 2 \"hca1\"");
  ASSERT_TRUE(hca);
  EXPECT_EQ(hca->type, "Hca");
  EXPECT_EQ(hca->rest, "");
  EXPECT_TRUE(topology_node_line("Rt\t1 \"r\""));
  for (const char* no : {"Switch x \"a\"", "Swtch 8 \"a\"", "Switch 8 a", "[1] \"a\"[1]"})
    EXPECT_FALSE(topology_node_line(no)) << no;
}

TEST(TopologyLines, PortLinesWithGuidsAndFaceplateNumbers) {
  auto p = topology_port_line(
      "[1](100001) \t\"S-0000000000200000\"[2][ext 2]\t\t# lid 1 lmc 0 \"sw1\" lid 2 4xSDR");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->port, "1");
  EXPECT_EQ(p->guid, "100001");
  EXPECT_EQ(p->peer_id, "S-0000000000200000");
  EXPECT_EQ(p->peer_port, "2");
  EXPECT_FALSE(p->peer_guid);
  EXPECT_EQ(p->rest, "\t\t# lid 1 lmc 0 \"sw1\" lid 2 4xSDR");
  auto s =
      topology_port_line("[7][ext 7]\t\"H-0000000000100000\"[1](100001) \t\t# \"h\" lid 1 4xSDR");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->port, "7");
  EXPECT_FALSE(s->guid);
  EXPECT_EQ(s->peer_guid, "100001");
  EXPECT_EQ(s->rest, " \t\t# \"h\" lid 1 4xSDR");
  for (const char* no : {"[x]\t\"a\"[1]", "[1]\t\"a\"", "[1]\ta[1]", "[1][ext]\t\"a\"[1]"})
    EXPECT_FALSE(topology_port_line(no)) << no;
}

}  // namespace
}  // namespace rdma::ib
