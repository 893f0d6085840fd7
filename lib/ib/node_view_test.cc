// node show's attributes read by SMPs and from the SA, on the fabric
// double (lib/testing/fabric/client.h): sw1 LID 2, hca2 LID 3.
#include "lib/ib/node_view.h"

#include <gtest/gtest.h>

#include <string>

#include "lib/mad/attrs.h"
#include "lib/mad/format.h"
#include "lib/testing/fabric/client.h"

namespace rdma::ib {
namespace {

// The JSON value of the record's field key, or null.
view::Json node_value(const view::Record& r, const std::string& key) {
  for (const view::Field& f : r)
    if (f.key == key) return f.value;
  return nullptr;
}

TEST(NodeView, SwitchInfoOnlyOnASwitch) {
  ibtest::FabricClient f;
  NodeAttrs sw = read_node_attrs(f.client(), ibtest::FabricClient::lid_route(2));
  EXPECT_EQ(sw.node().node_guid, f.node("sw1").node_guid);
  EXPECT_TRUE(sw.node().is_switch());
  EXPECT_FALSE(sw.switch_info.empty());
  EXPECT_EQ(sw.lid, 0);  // by SMP: no record's LID
  NodeAttrs ca = read_node_attrs(f.client(), ibtest::FabricClient::lid_route(3));
  EXPECT_EQ(ca.node().node_guid, f.node("hca2").node_guid);
  EXPECT_TRUE(ca.switch_info.empty());
  EXPECT_EQ(read_node_info(f.client(), ibtest::FabricClient::lid_route(3)).node_guid,
            f.node("hca2").node_guid);
}

// The SA's records give the same record as the SMPs, and their LID.
TEST(NodeView, TheSaSaysWhatTheSmpsSay) {
  ibtest::FabricClient f;
  for (uint16_t lid : {2, 3}) {
    NodeAttrs smp = read_node_attrs(f.client(), ibtest::FabricClient::lid_route(lid));
    NodeAttrs sa = read_node_attrs_sa(f.client(), ibtest::FabricClient::lid_target(lid));
    EXPECT_EQ(sa.lid, lid);
    EXPECT_EQ(sa.switch_info.empty(), smp.switch_info.empty());
    view::Record a, b;
    add_node_attrs(smp, 1, {}, a);
    add_node_attrs(sa, 1, {}, b);
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].text, b[i].text) << lid;
  }
}

// NodeInfo, then SwitchInfo, then the description, named by the map.
TEST(NodeView, DecodedInOrderWithTheMapsName) {
  ibtest::FabricClient f;
  NodeAttrs sw = read_node_attrs(f.client(), ibtest::FabricClient::lid_route(2));
  view::Record r;
  add_node_attrs(sw, 0, {}, r);
  ASSERT_GT(r.size(), 2u);
  EXPECT_EQ(r[r.size() - 1].key, "description");
  EXPECT_EQ(node_value(r, "description"), f.node("sw1").description);
  EXPECT_EQ(node_value(r, "node_guid"), mad::guid_hex(f.node("sw1").node_guid));
  EXPECT_FALSE(node_value(r, "linear_fdb_cap").is_null());
  NodeNameMap names;
  names.names[f.node("sw1").node_guid] = "leaf-1";
  r.clear();
  add_node_attrs(sw, 0, names, r);
  EXPECT_EQ(node_value(r, "description"), "leaf-1");
  r.clear();
  add_node_attrs(read_node_attrs(f.client(), ibtest::FabricClient::lid_route(3)), 0, {}, r);
  EXPECT_TRUE(node_value(r, "linear_fdb_cap").is_null());
}

}  // namespace
}  // namespace rdma::ib
