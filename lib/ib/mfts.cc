#include "lib/ib/mfts.h"

#include "lib/ib/unicast_route.h"
#include "lib/mad/attrs.h"
#include "lib/mad/format.h"
#include "lib/mad/target.h"

namespace rdma::ib {

Mfts read_mfts(mad::Engine& e, const Fabric& f, std::vector<std::string>& warnings) {
  Mfts out(f.nodes.size());
  std::vector<std::optional<std::string>> failed(f.nodes.size());
  for (uint32_t n = 0; n < f.nodes.size(); ++n) {
    const Node& node = f.nodes[n];
    if (!node.is_switch()) continue;
    out[n].emplace();
    mad::Route r{true, 0, node.path};
    auto fail = [&failed, n](const mad::Failure& x) {
      if (!failed[n]) failed[n] = x.message;
    };
    // The blocks up to the last MLID the switch holds (its MulticastFDBTop,
    // when kept, spares reading the whole capacity).
    auto submit_blocks = [&e, &out, fail, n, r,
                          ports = node.info.num_ports](std::optional<uint16_t> last) {
      if (!last) return;
      submit_mft(
          e, r, ports, kFirstMlid, *last,
          [&out, n](uint16_t mlid, uint32_t pos, uint16_t bits) {
            if (!bits) return;
            std::bitset<256>& m = (*out[n])[mlid];
            for (uint32_t b = 0; b < 16; ++b)
              if (bits >> b & 1) m.set(pos * 16 + b);
          },
          fail);
    };
    // Discovery's SwitchInfo (or the SA's) where it has MulticastFDBTop;
    // else the switch's, the blocks queued from its answer so they go out
    // while other switches are still being asked.
    if (node.sw && node.sw->mcast_fdb_top) {
      submit_blocks(mft_last(node.sw->mcast_fdb_cap, *node.sw->mcast_fdb_top));
      continue;
    }
    e.submit({mad::make_smp(r, mad::kGet, mad::kSwitchInfo, 0), mad::smp_address(r),
              "SwitchInfo from " + mad::route_text(r),
              [fail, submit_blocks](const mad::Mad* reply, const mad::Failure* x) {
                if (!reply) return fail(*x);
                submit_blocks(mft_last(*reply));
              }});
  }
  e.run();
  for (uint32_t n = 0; n < f.nodes.size(); ++n) {
    if (!failed[n]) continue;
    out[n].reset();
    const Node& node = f.nodes[n];
    warnings.push_back("no multicast forwarding table from switch " +
                       mad::guid_hex(node.info.node_guid) + " (" +
                       mad::desc_text(node.description) + "): " + *failed[n]);
  }
  return out;
}

}  // namespace rdma::ib
