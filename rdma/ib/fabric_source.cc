#include "rdma/ib/fabric_source.h"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "lib/error.h"
#include "lib/ib/cache.h"
#include "lib/ib/discover.h"
#include "lib/ib/engine_config.h"
#include "lib/ib/lid_discover.h"
#include "lib/ib/node_name_map.h"
#include "lib/ib/sa_fabric.h"

namespace rdma {

FoundFabricOptions fabric_options(const Ctx& c) {
  return {.sa = c.opt.sa, .lid = c.opt.lid_discovery, .stats = c.opt.details != 0, .scope = {}};
}

ib::Fabric found_fabric(Ctx& c, const FabricSource& src, MadSession* session,
                        const FoundFabricOptions& o) {
  if (!src.from.empty()) return ib::load_fabric(src.from);
  std::optional<MadSession> own;
  MadSession& s = session ? *session : own.emplace(c, src.via);
  // A fabric-wide command ends within its time budget whatever the fabric
  // answers (man rdma, TIME BOUND), from here on to its last step (a
  // watch arms one for each sweep after this: rdma/ib/watch_sweep.h).
  s.engine().set_budget(ib::sweep_budget(c.opt.deadline_s));
  ib::Discovery d;
  if (o.sa) {
    // From the SA's records: no SMP sent.
    if (!s.local().sm_lid) throw Error("no subnet manager: --sa needs the SA at the SM's LID");
    d.fabric = ib::fabric_from_sa(s.engine(), s.local().sm_lid, s.local().port_guid, d.warnings);
  } else if (o.lid) {
    d = ib::discover_by_lid(s.engine(), &s.nodes_found);
  } else {
    ib::DiscoverScope scope = o.scope;
    scope.nodes_found = &s.nodes_found;
    d = ib::discover(s.engine(), scope);
  }
  s.end_progress();
  c.warn(d.warnings);
  if (o.stats) {
    const mad::EngineStats& st = s.engine().stats();
    // Replies that did not answer their request, when there were any.
    std::string dropped = st.dropped_text();
    // The longest directed route discovery took to a node (ibnetdiscover
    // -m's max hops): how deep the fabric is from here.
    size_t hops = 0;
    for (const ib::Node& n : d.fabric.nodes) hops = std::max(hops, n.path.size());
    std::fprintf(
        c.err,
        "fabric: %zu nodes, %zu links, max hops %zu; MADs sent %llu, retried %llu, failed %llu "
        "(window %zu)%s%s\n",
        d.fabric.nodes.size(), d.fabric.links().size(), hops,
        static_cast<unsigned long long>(st.sent), static_cast<unsigned long long>(st.retried),
        static_cast<unsigned long long>(st.failed()), s.engine().config().window,
        dropped.empty() ? "" : "; ", dropped.c_str());
    // Where the time went: on a real fabric the busiest node's queue bounds
    // it from below (bench/latency_results.md).
    std::fprintf(
        c.err,
        "discovery: MADs sent %llu, retried %llu, timed out %llu; busiest node %s "
        "(%llu MADs); %.3f s%s%s%s%s\n",
        static_cast<unsigned long long>(st.sent), static_cast<unsigned long long>(st.retried),
        static_cast<unsigned long long>(st.timeouts), st.busiest.empty() ? "-" : st.busiest.c_str(),
        static_cast<unsigned long long>(st.busiest_sent), st.seconds,
        st.gave_up_on.empty() ? "" : "; ", st.given_up_text().c_str(), st.not_retried ? "; " : "",
        st.not_retried_text().c_str());
  }
  return std::move(d.fabric);
}

ib::Fabric fabric_of(Ctx& c, const FabricSource& src, MadSession* session,
                     const FoundFabricOptions& o) {
  ib::NodeNameMap names = ib::load_node_name_map(c.opt.node_name_map);
  ib::Fabric f = found_fabric(c, src, session, o);
  ib::rename_nodes(names, f);
  return f;
}

}  // namespace rdma
