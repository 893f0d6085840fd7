#include "lib/ib/port_labels.h"

#include "lib/ib/records.h"
#include "lib/ib/types.h"
#include "lib/mad/format.h"

namespace rdma::ib {

namespace {}  // namespace

PortEnd port_end(const Fabric& f, PortRef p) {
  const Node& n = f.nodes[p.node];
  return {n.info.node_type, n.info.node_guid, n.description, p.port, port_guid(f, p)};
}

void add_port_labels(const PortEnd& local, const std::optional<PortEnd>& remote,
                     view::Record& rec) {
  auto side = [&](const PortEnd& e, const std::string& prefix, const char* component) {
    if (const char* type = node_type_name(e.node_type)) rec.pair(component, type);
    rec.pair(prefix + "guid", mad::guid_hex(e.node_guid));
    rec.pair(prefix + "name", e.name);
    // A PMA's sum of every port is port 255 (the PortSelect that asks for
    // it), as in the JSON, so the two join.
    rec.pair(prefix + "port", std::to_string(e.port));
    if (e.port_guid) rec.pair(prefix + "port_guid", mad::guid_hex(e.port_guid));
  };
  side(local, "local_", "component");
  if (remote) side(*remote, "remote_", "remote_component");
}

void add_port_labels(const Fabric& f, PortRef p, view::Record& rec) {
  std::optional<PortEnd> remote;
  if (const std::optional<PortRef>& peer = f.at(p).peer) remote = port_end(f, *peer);
  add_port_labels(port_end(f, p), remote, rec);
}

const std::vector<std::pair<std::string, std::string>>& port_label_keys() {
  static const std::vector<std::pair<std::string, std::string>> keys = [] {
    std::vector<std::pair<std::string, std::string>> k;
    for (const char* name :
         {"component", "local_guid", "local_name", "local_port", "local_port_guid",
          "remote_component", "remote_guid", "remote_name", "remote_port", "remote_port_guid"})
      k.emplace_back(name, name);
    return k;
  }();
  return keys;
}

view::MetricsSpec port_metrics_spec() {
  return {"rdma_ib_port_",
          "InfiniBand PMA counter",
          port_label_keys(),
          {},
          {"port", "lid", "port_select", "counter_select", "counter_select2", "op_code"}};
}

}  // namespace rdma::ib
