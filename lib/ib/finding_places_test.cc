// The places of a finding in text and JSON, on a hand-built fabric: a
// switch's port 0 without its number, a CA's port 0 with it, the LID and
// port GUID only where given, descriptions quoted and escaped.
#include "lib/ib/finding_places.h"

#include <gtest/gtest.h>

namespace rdma::ib {
namespace {

Fabric places_fabric() {
  Fabric f;
  NodeInfo sw;
  sw.node_type = 2;
  sw.num_ports = 8;
  sw.node_guid = 0x200000;
  f.nodes[f.add(sw, {})].description = "sw1";
  NodeInfo ca;
  ca.node_type = 1;
  ca.num_ports = 2;
  ca.node_guid = 0x0002c90300001234ull;
  f.nodes[f.add(ca, {1})].description = "host \"a\"\\b";
  NodeInfo odd;
  odd.node_type = 9;  // no type the IBA defines
  odd.num_ports = 1;
  odd.node_guid = UINT64_MAX;
  f.add(odd, {2});
  return f;
}

TEST(FindingPlaces, TextOfEachPlace) {
  Fabric f = places_fabric();
  EXPECT_EQ(where_text(f, {{0, 3, 2, 0}}), "\"sw1\" 0x0000000000200000 port 3 lid 2");
  EXPECT_EQ(where_text(f, {{0, 0, 2, 0}}), "\"sw1\" 0x0000000000200000 lid 2");
  EXPECT_EQ(where_text(f, {{1, 0, 0, 0}}), "\"host \\\"a\\\"\\\\b\" 0x0002c90300001234 port 0");
  EXPECT_EQ(where_text(f, {{0, 3, 0, 0}, {1, 1, 65535, 0x1235}}),
            "\"sw1\" 0x0000000000200000 port 3; "
            "\"host \\\"a\\\"\\\\b\" 0x0002c90300001234 port 1 lid 65535");
  EXPECT_EQ(where_text(f, {}), "");
}

TEST(FindingPlaces, JsonOfEachPlace) {
  Fabric f = places_fabric();
  view::Json j = where_json(f, {{0, 0, 2, 0}, {1, 1, 3, 0x0002c90300001235ull}, {2, 1, 0, 0}});
  EXPECT_EQ(j.dump(),
            "[{\"node_guid\":\"0x0000000000200000\",\"description\":\"sw1\",\"type\":\"switch\","
            "\"lid\":2},"
            "{\"node_guid\":\"0x0002c90300001234\",\"description\":\"host \\\"a\\\"\\\\b\","
            "\"type\":\"ca\",\"port\":1,\"lid\":3,\"port_guid\":\"0x0002c90300001235\"},"
            "{\"node_guid\":\"0xffffffffffffffff\",\"description\":\"\",\"type\":\"unknown\","
            "\"port\":1}]");
  EXPECT_EQ(where_json(f, {}).dump(), "[]");
}

}  // namespace
}  // namespace rdma::ib
