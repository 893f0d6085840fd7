#include "lib/ib/mfts.h"

#include <algorithm>

#include "lib/error.h"
#include "lib/ib/unicast_route.h"
#include "lib/mad/attrs.h"
#include "lib/mad/format.h"
#include "lib/mad/result.h"
#include "lib/mad/sa.h"
#include "lib/mad/target.h"

namespace rdma::ib {

namespace {

constexpr uint32_t kMlidsPerBlock = 32;

// The MLID ranges to read up to last: whole blocks of 32 from the first
// MLID, each run of blocks one range; all of them when only is null.
std::vector<std::pair<uint16_t, uint16_t>> ranges(const std::vector<uint16_t>* only,
                                                  uint16_t last) {
  if (!only) return {{kFirstMlid, last}};
  std::vector<uint32_t> blocks;
  for (uint16_t mlid : *only)
    if (mlid >= kFirstMlid && mlid <= last) blocks.push_back((mlid - kFirstMlid) / kMlidsPerBlock);
  std::sort(blocks.begin(), blocks.end());
  blocks.erase(std::unique(blocks.begin(), blocks.end()), blocks.end());
  std::vector<std::pair<uint16_t, uint16_t>> out;
  auto mlid = [](uint32_t block) { return kFirstMlid + block * kMlidsPerBlock; };
  for (size_t i = 0; i < blocks.size();) {
    size_t j = i;
    while (j + 1 < blocks.size() && blocks[j + 1] == blocks[j] + 1) ++j;
    out.emplace_back(
        static_cast<uint16_t>(mlid(blocks[i])),
        static_cast<uint16_t>(std::min<uint32_t>(last, mlid(blocks[j]) + kMlidsPerBlock - 1)));
    i = j + 1;
  }
  return out;
}

}  // namespace

SaMlids sa_mlids(mad::Engine& e, const Fabric& f) {
  SaMlids out;
  const Port* local = f.nodes.empty() ? nullptr : f.nodes[0].port(f.nodes[0].info.local_port);
  uint16_t sa_lid = local && local->info ? local->info->sm_lid : 0;
  if (!sa_lid) {
    out.why = "the local port knows no SM LID";
    return out;
  }
  std::vector<uint8_t> none(mad::kMcMemberRecord.bytes);
  try {
    mad::SaTable t = mad::get_table(e, sa_lid, mad::kMcMemberRecord, 0, none);
    if (std::string cut = mad::cut_warning(t, mad::kMcMemberRecord); !cut.empty()) {
      out.why = cut;
      return out;
    }
    std::vector<uint16_t>& mlids = out.mlids.emplace();
    for (const std::vector<uint8_t>& r : t.records)
      mlids.push_back(static_cast<uint16_t>(mad::get_field(mad::kMcMemberRecord, r, "MLID")));
    std::sort(mlids.begin(), mlids.end());
    mlids.erase(std::unique(mlids.begin(), mlids.end()), mlids.end());
  } catch (const Error& x) {
    out.why = x.what();
  }
  return out;
}

Mfts read_mfts(mad::Engine& e, const Fabric& f, std::vector<std::string>& warnings,
               const std::vector<uint16_t>* only) {
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
    if (only && only->empty()) continue;  // no group: nothing to read
    // The blocks up to the last MLID the switch holds (its MulticastFDBTop,
    // when kept, spares reading the whole capacity), those of only's MLIDs.
    auto submit_blocks = [&e, &out, fail, n, r, only,
                          ports = node.info.num_ports](std::optional<uint16_t> last) {
      if (!last) return;
      for (auto [lo, hi] : ranges(only, *last))
        submit_mft(
            e, r, ports, lo, hi,
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
