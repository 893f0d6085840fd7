// The fabric a command works on, from a FabricSource: read from a saved
// file or discovered, each discovery problem a warning line and exit
// status 1, the nodes named after the node-name-map. fabric and route share it.
#pragma once

#include "lib/ib/discover.h"
#include "lib/ib/fabric_model.h"
#include "rdma/command.h"
#include "rdma/ib/session.h"

namespace rdma {

struct FoundFabricOptions {
  bool sa = false;          // discovered from the SA's records (--sa), not by SMPs
  bool lid = false;         // by LID-routed SMPs where it can (--discovery lid)
  bool stats = false;       // what the discovery cost, a line on c.err (-d)
  ib::DiscoverScope scope;  // a partial discovery (fabric links from TARGET, hops N)
};

// The options the fabric commands take from the command line: --sa,
// --discovery and -d as given (route takes neither: it passes {}).
FoundFabricOptions fabric_options(const Ctx& c);

// The fabric: read from src.from, or discovered through session (or a
// session of its own on src.via). A sick fabric gives what was found, a
// warning line per problem on c.err and c.status 1.
ib::Fabric found_fabric(Ctx& c, const FabricSource& src, MadSession* session,
                        const FoundFabricOptions& o);

// The same with the nodes named after the node-name-map (read first: a bad
// map is an error before any MAD is sent).
ib::Fabric fabric_of(Ctx& c, const FabricSource& src, MadSession* session,
                     const FoundFabricOptions& o);

}  // namespace rdma
