#include "lib/ib/lid_route.h"

#include <string>

#include "lib/error.h"
#include "lib/ib/smp.h"
#include "lib/mad/attrs.h"
#include "lib/mad/format.h"
#include "lib/mad/types.h"

namespace rdma::ib {

mad::Route lid_route(MadClient& client, const mad::Route& route, std::string_view why) {
  if (!route.directed) return route;
  // PortInfo of port 0: a CA's port the SMP arrived on, a switch's
  // management port, the one whose LID reaches the node's agents.
  PortInfo pi = PortInfo::from(client.smp(route, mad::kGet, mad::kPortInfo, 0).data());
  if (!pi.lid)
    throw Error(mad::route_text(route) +
                " has no LID (no subnet manager has assigned one): " + std::string(why));
  // GMPs pass a port only once it is Active (Init and Armed carry SMPs
  // alone): a GMP sent sooner would only time out.
  if (pi.state && pi.state != mad::kPortActive)
    throw Error(mad::route_text(route) + " is " + mad::port_state_name(pi.state) +
                ", not ACTIVE: " + std::string(why));
  return {false, pi.lid, {}};
}

}  // namespace rdma::ib
