// The labels of lib/ib/port_labels.h for one node's ports when no fabric
// was discovered (perf show): the node's own NodeInfo and NodeDescription,
// and each port's far end asked of the wire, one hop further by directed
// route or, for a node reached by LID, from the SA's LinkRecord.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "lib/ib/client.h"
#include "lib/ib/node_name_map.h"
#include "lib/ib/port_labels.h"
#include "lib/ib/smp.h"
#include "lib/mad/mad.h"
#include "lib/view/record.h"

namespace rdma::ib {

class PortLabelProbe {
 public:
  // The node at r, whose NodeInfo is node; its NodeDescription is asked
  // here (Error when it does not answer), names rename it and its peers.
  PortLabelProbe(MadClient& s, mad::Route r, const NodeInfo& node, NodeNameMap names);
  // Adds the labels of port: its end (its port GUID when it is the port
  // the node was reached by) and, when found, the far end; a far end that
  // cannot be found (no link, no SA) is no labels, not an error.
  void add(uint8_t port, view::Record& rec);

 private:
  std::optional<PortEnd> remote(uint8_t port);
  PortEnd end_at(const mad::Route& r);

  MadClient& s_;
  mad::Route r_;
  NodeInfo node_;
  NodeNameMap names_;
  std::string name_;
};

}  // namespace rdma::ib
