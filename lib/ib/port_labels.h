// The labels of a port's metric samples: both ends of its cable, named as
// guilbaults/infiniband-exporter names them (component, local_guid,
// local_name, local_port, remote_guid, remote_name, remote_port) so that
// dashboards written for it join ours, plus the port GUIDs and the far
// end's node type (remote_component).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lib/ib/fabric_model.h"
#include "lib/view/openmetrics.h"
#include "lib/view/record.h"

namespace rdma::ib {

// One end of a cable as its labels name it.
struct PortEnd {
  uint8_t node_type = 0;  // NodeType: component "switch", "ca", "router"
  uint64_t node_guid = 0;
  std::string name;        // the description, or the node-name-map's name
  uint8_t port = 0;        // 255: every port (AllPortSelect's sum), labelled "all"
  uint64_t port_guid = 0;  // a CA's or router's port; 0: none (a switch's)
};

// The end p of a fabric (named as the fabric's descriptions are).
PortEnd port_end(const Fabric& f, PortRef p);

// Adds the labels as string fields named as the labels: local's, then
// remote's when there is one. A GUID is 0x and 16 hex digits; a port GUID
// or a node type that is not known is no label.
void add_port_labels(const PortEnd& local, const std::optional<PortEnd>& remote, view::Record& rec);
// The labels of p and of its peer, when it has one.
void add_port_labels(const Fabric& f, PortRef p, view::Record& rec);

// The record keys add_port_labels adds and the label each is (the same
// name): what a view::MetricsSpec lists as labels, in this order.
const std::vector<std::pair<std::string, std::string>>& port_label_keys();

// The MetricsSpec of a port's PMA counters (fabric errors, perf show):
// families rdma_ib_port_NAME, these labels; the record's port, LID and
// CounterSelect fields are no samples.
view::MetricsSpec port_metrics_spec();

}  // namespace rdma::ib
