#include "lib/ib/lfts.h"

#include <algorithm>
#include <utility>

#include "lib/mad/attrs.h"
#include "lib/mad/format.h"
#include "lib/mad/target.h"
#include "lib/mad/types.h"

namespace rdma::ib {

namespace {

// The requests queued in the engine before it runs them: enough to keep
// the window full, few enough that the queue stays small (a queued
// request holds its MAD, its text and its callback).
constexpr size_t kMadBatch = 4096;

// The engine run a batch at a time: submit counts what is queued,
// next_switch runs it once kMadBatch are, so a switch's requests stay in
// one batch.
class MadBatches {
 public:
  explicit MadBatches(mad::Engine& e) : e_(e) {}
  void next_switch() {
    if (queued_ < kMadBatch) return;
    e_.run();
    queued_ = 0;
  }
  void submit(mad::Query q) {
    ++queued_;
    e_.submit(std::move(q));
  }

 private:
  mad::Engine& e_;
  size_t queued_ = 0;
};

}  // namespace

std::vector<std::optional<Lft>> read_lfts(mad::Engine& e, const Fabric& f,
                                          std::vector<std::string>& warnings) {
  std::vector<std::optional<Lft>> out(f.nodes.size());
  std::vector<std::optional<std::string>> failed(f.nodes.size());
  // A run every few thousand blocks, a switch's blocks together: queued
  // all at once the requests (75 blocks a switch at 4,800 LIDs) took 25 MB.
  MadBatches batches(e);
  for (uint32_t n = 0; n < f.nodes.size(); ++n) {
    const Node& node = f.nodes[n];
    if (!node.is_switch()) continue;
    batches.next_switch();
    if (!node.sw) {
      failed[n] = "no SwitchInfo";
      continue;
    }
    Lft& t = out[n].emplace();
    t.top = std::min<uint16_t>(node.sw->linear_fdb_top, mad::kMaxUnicastLid);
    t.ports.assign(size_t{t.top} + 1, kNoPort);
    mad::Route r{true, 0, node.path};
    for (uint32_t block = 0; block <= t.top / 64u; ++block) {
      std::string what =
          "LinearForwardingTable block " + std::to_string(block) + " from " + mad::route_text(r);
      batches.submit({mad::make_smp(r, mad::kGet, mad::kLinearForwardingTable, block),
                      mad::smp_address(r), what,
                      [&out, &failed, n, block](const mad::Mad* reply, const mad::Failure* fail) {
                        if (!reply) {
                          if (!failed[n]) failed[n] = fail->message;
                          return;
                        }
                        std::vector<uint8_t>& ports = out[n]->ports;
                        auto d = reply->data();
                        for (uint32_t i = 0; i < 64 && block * 64 + i < ports.size(); ++i)
                          ports[block * 64 + i] = d[i];
                      }});
    }
  }
  e.run();
  for (uint32_t n = 0; n < f.nodes.size(); ++n) {
    if (!failed[n]) continue;
    out[n].reset();
    const Node& node = f.nodes[n];
    warnings.push_back("no forwarding table from switch " + mad::guid_hex(node.info.node_guid) +
                       " (" + mad::desc_text(node.description) + "): " + *failed[n]);
  }
  return out;
}

uint8_t VlMaps::vl(uint32_t node, uint8_t in, uint8_t out, uint8_t sl) const {
  if (node >= by_node.size()) return 0;
  auto it = by_node[node].find(static_cast<uint16_t>(in << 8 | out));
  return it == by_node[node].end() ? 0 : it->second[sl];
}

VlMaps read_sl2vls(mad::Engine& e, const Fabric& f) {
  std::vector<std::vector<uint16_t>> hops(f.nodes.size());
  for (uint32_t n = 0; n < f.nodes.size(); ++n) {
    const Node& node = f.nodes[n];
    if (!node.is_switch()) continue;
    for (const Port& in : node.ports) {
      if (!in.num || !in.peer) continue;
      for (const Port& o : node.ports)
        if (o.num && o.num != in.num && o.peer && f.nodes[o.peer->node].is_switch())
          hops[n].push_back(static_cast<uint16_t>(in.num << 8 | o.num));
    }
  }
  return read_sl2vls(e, f, hops);
}

VlMaps read_sl2vls(mad::Engine& e, const Fabric& f,
                   const std::vector<std::vector<uint16_t>>& hops) {
  VlMaps out;
  out.by_node.resize(f.nodes.size());
  out.asked.resize(f.nodes.size());
  // A large fabric asks hundreds of thousands of tables (a switch's input
  // ports times its ports to switches): queued all at once the requests
  // took 300 MB at 4,800 nodes. A switch at a time, run every few thousand.
  MadBatches batches(e);
  for (uint32_t n = 0; n < f.nodes.size() && n < hops.size(); ++n) {
    const Node& node = f.nodes[n];
    if (!node.is_switch() || hops[n].empty()) continue;
    batches.next_switch();
    out.asked[n] = hops[n].size();
    mad::Route r{true, 0, node.path};
    for (uint16_t key : hops[n]) {
      batches.submit({mad::make_smp(r, mad::kGet, mad::kSl2VlTable, key), mad::smp_address(r),
                      "SLtoVLMappingTable " + std::to_string(key >> 8) + "/" +
                          std::to_string(key & 0xff) + " from " + mad::route_text(r),
                      [&out, n, key](const mad::Mad* reply, const mad::Failure*) {
                        if (!reply) return;
                        std::array<uint8_t, 16>& t = out.by_node[n][key];
                        for (unsigned sl = 0; sl < 16; ++sl)
                          t[sl] = static_cast<uint8_t>(
                              mad::get_field(mad::kSl2VlTable, reply->data(), "SLtoVL", sl));
                      }});
    }
  }
  e.run();
  return out;
}

}  // namespace rdma::ib
