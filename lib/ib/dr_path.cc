#include "lib/ib/dr_path.h"

#include <string>

#include "lib/error.h"
#include "lib/ib/smp.h"
#include "lib/ib/unicast_route.h"
#include "lib/mad/attrs.h"
#include "lib/mad/target.h"

namespace rdma::ib {

std::vector<uint8_t> directed_route_to(mad::Engine& e, uint8_t local_port, uint16_t local_lid,
                                       uint16_t lid) {
  std::vector<uint8_t> path;
  if (lid == local_lid) return path;
  for (;;) {
    mad::Route r{true, 0, path};
    NodeInfo ni = NodeInfo::from(e.call(mad::make_smp(r, mad::kGet, mad::kNodeInfo, 0),
                                        mad::smp_address(r), "NodeInfo from " + mad::route_text(r))
                                     .data());
    if (!ni.is_switch()) {
      if (!path.empty()) return path;  // a CA forwards nothing: lid is its
      path.push_back(local_port);
      continue;
    }
    uint8_t out = lft_port(e, r, lid);
    if (out == 0) return path;  // the switch's own LID
    if (out == kNoPort || out > ni.num_ports)
      throw Error("no route to lid " + std::to_string(lid) + ": the table of the switch at " +
                  mad::route_text(r) + " has no port for it");
    if (path.size() >= mad::kMaxHops)
      throw Error("no route to lid " + std::to_string(lid) + ": more than " +
                  std::to_string(mad::kMaxHops) + " hops from the local port");
    path.push_back(out);
  }
}

}  // namespace rdma::ib
