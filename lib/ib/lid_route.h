// The one way a GMP agent (a PMA, the CC agent, the vendor classes, the
// SA's paths) is reached from a directed route: GMPs go by LID, so the
// route is resolved first to the LID of the port it ends at, as
// python-rdma's ibtool does.
#pragma once

#include <string_view>

#include "lib/ib/client.h"
#include "lib/mad/target.h"

namespace rdma::ib {

// route itself when LID-routed; a directed (or combined) one: the LID its
// port's PortInfo gives (one SMP over the path). Error when that port has
// none or is not Active (GMPs pass Active ports only), ending with why a
// LID is needed (e.g. "its PMA is reached by LID").
mad::Route lid_route(MadClient& client, const mad::Route& route, std::string_view why);

}  // namespace rdma::ib
