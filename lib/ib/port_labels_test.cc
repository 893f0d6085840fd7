// The labels of a port's samples: both ends, the exporters' names, no
// remote labels for a port without a link.
#include "lib/ib/port_labels.h"

#include <gtest/gtest.h>

#include "lib/ib/types.h"

namespace rdma::ib {
namespace {

std::string port_labels_text(const view::Record& rec) {
  std::string out;
  for (const view::Field& f : rec) out += f.key + "=" + f.value.get<std::string>() + " ";
  return out;
}

Fabric port_labels_fabric() {
  Fabric f;
  NodeInfo sw;
  sw.node_type = static_cast<uint8_t>(NodeType::Switch);
  sw.num_ports = 4;
  sw.node_guid = 0x200000;
  sw.port_guid = 0x200000;
  uint32_t s = f.add(sw, {});
  f.nodes[s].description = "leaf \"1\"";
  NodeInfo ca;
  ca.node_type = static_cast<uint8_t>(NodeType::Ca);
  ca.num_ports = 2;
  ca.node_guid = 0x100;
  uint32_t c = f.add(ca, {3});
  f.nodes[c].description = "host mlx5_0";
  f.nodes[c].ports[1].guid = 0x101;
  f.connect({s, 3}, {c, 1});
  return f;
}

TEST(PortLabels, BothEndsOfTheCable) {
  Fabric f = port_labels_fabric();
  view::Record rec;
  add_port_labels(f, {1, 1}, rec);
  EXPECT_EQ(port_labels_text(rec),
            "component=ca local_guid=0x0000000000000100 local_name=host mlx5_0 local_port=1 "
            "local_port_guid=0x0000000000000101 remote_component=switch "
            "remote_guid=0x0000000000200000 remote_name=leaf \"1\" remote_port=3 ");
  rec.clear();
  add_port_labels(f, {0, 4}, rec);  // no link
  EXPECT_EQ(port_labels_text(rec),
            "component=switch local_guid=0x0000000000200000 local_name=leaf \"1\" local_port=4 ");
  // Every key a label of the same name, in the order added.
  std::vector<std::string> keys;
  for (const auto& [key, label] : port_label_keys()) {
    EXPECT_EQ(key, label);
    keys.push_back(key);
  }
  rec.clear();
  add_port_labels(f, {0, 3}, rec);
  size_t i = 0;
  for (const view::Field& fl : rec) {
    while (i < keys.size() && keys[i] != fl.key) ++i;
    EXPECT_LT(i, keys.size()) << fl.key;
  }
}

}  // namespace
}  // namespace rdma::ib
