#include "lib/ib/lfts.h"

#include <algorithm>
#include <map>
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
  if (node < by_out.size() && out < by_out[node].size() && by_out[node][out])
    return (*by_out[node][out])[sl];
  if (node >= by_node.size()) return 0;
  auto it = by_node[node].find(static_cast<uint16_t>(in << 8 | out));
  return it == by_node[node].end() ? 0 : it->second[sl];
}

bool VlMaps::whole(uint32_t node) const {
  if (node < by_out.size() && !by_out[node].empty()) return true;
  size_t want = node < asked.size() ? asked[node] : 0;
  return node >= by_node.size() ? want == 0 : by_node[node].size() >= want;
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
  return read_sl2vls(e, f, hops, Sl2VlRead::Every);
}

namespace {

// The OperationalVLs of a switch's port (0: unknown): opensm programs a
// port's tables from its VLs, so ports alike get one table.
uint8_t oper_vls(const Node& node, uint8_t port) {
  const Port* p = node.port(port);
  return p && p->info ? p->info->oper_vls : 0;
}

// The hops of one switch probed: per class of output ports (by their
// OperationalVLs) its first hop, one with another input and another
// output port, and its last.
std::vector<uint16_t> probes(const Node& node, const std::vector<uint16_t>& hops) {
  std::vector<uint16_t> out;
  std::vector<uint8_t> classes;
  for (uint16_t h : hops)
    if (std::find(classes.begin(), classes.end(), oper_vls(node, h & 0xff)) == classes.end())
      classes.push_back(oper_vls(node, h & 0xff));
  for (uint8_t c : classes) {
    std::vector<uint16_t> in_class;
    for (uint16_t h : hops)
      if (oper_vls(node, h & 0xff) == c) in_class.push_back(h);
    uint16_t first = in_class.front();
    out.push_back(first);
    for (uint16_t h : in_class)
      if ((h >> 8) != (first >> 8) && (h & 0xff) != (first & 0xff)) {
        out.push_back(h);
        break;
      }
    out.push_back(in_class.back());
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// Queues the tables of these hops of switch n into out.by_node[n].
void submit_sl2vls(MadBatches& batches, const Fabric& f, uint32_t n,
                   const std::vector<uint16_t>& keys, VlMaps& out) {
  mad::Route r{true, 0, f.nodes[n].path};
  for (uint16_t key : keys)
    batches.submit({mad::make_smp(r, mad::kGet, mad::kSl2VlTable, key), mad::smp_address(r),
                    "SLtoVLMappingTable " + std::to_string(key >> 8) + "/" +
                        std::to_string(key & 0xff) + " from " + mad::route_text(r),
                    [&out, n, key](const mad::Mad* reply, const mad::Failure*) {
                      if (!reply) return;
                      VlMaps::Table& t = out.by_node[n][key];
                      for (unsigned sl = 0; sl < 16; ++sl)
                        t[sl] = static_cast<uint8_t>(
                            mad::get_field(mad::kSl2VlTable, reply->data(), "SLtoVL", sl));
                    }});
}

}  // namespace

VlMaps read_sl2vls(mad::Engine& e, const Fabric& f, const std::vector<std::vector<uint16_t>>& hops,
                   Sl2VlRead how) {
  VlMaps out;
  out.by_node.resize(f.nodes.size());
  out.by_out.resize(f.nodes.size());
  out.asked.resize(f.nodes.size());
  auto wanted = [&](uint32_t n) {
    return n < hops.size() && f.nodes[n].is_switch() && !hops[n].empty();
  };
  // A large fabric asks hundreds of thousands of tables (a switch's input
  // ports times its ports to switches): queued all at once the requests
  // took 300 MB at 4,800 nodes. A switch at a time, run every few thousand.
  MadBatches batches(e);
  std::vector<bool> full(f.nodes.size(), how == Sl2VlRead::Every);
  if (how == Sl2VlRead::Probe) {
    // The probes of every switch in one run; then the switches whose
    // probes differ (or did not all come) read whole.
    std::vector<std::vector<uint16_t>> probed(f.nodes.size());
    for (uint32_t n = 0; n < f.nodes.size(); ++n) {
      if (!wanted(n)) continue;
      batches.next_switch();
      probed[n] = probes(f.nodes[n], hops[n]);
      submit_sl2vls(batches, f, n, probed[n], out);
    }
    e.run();
    for (uint32_t n = 0; n < f.nodes.size(); ++n) {
      if (!wanted(n)) continue;
      const Node& node = f.nodes[n];
      std::map<uint8_t, VlMaps::Table> by_class;
      bool alike = out.by_node[n].size() == probed[n].size();
      for (const auto& [key, t] : out.by_node[n]) {
        auto [it, added] = by_class.try_emplace(oper_vls(node, key & 0xff), t);
        alike &= added || it->second == t;
      }
      if (!alike || probed[n].size() == hops[n].size()) {
        full[n] = !alike;
        continue;
      }
      // Alike: the table of each output port the hops leave by is its
      // class's; the probes' own entries go.
      std::vector<std::optional<VlMaps::Table>>& by_port = out.by_out[n];
      by_port.resize(node.ports.size());
      for (uint16_t h : hops[n])
        if ((h & 0xff) < by_port.size()) by_port[h & 0xff] = by_class.at(oper_vls(node, h & 0xff));
      out.by_node[n].clear();
    }
  }
  for (uint32_t n = 0; n < f.nodes.size(); ++n) {
    if (!wanted(n)) continue;
    out.asked[n] = hops[n].size();
    if (!full[n]) continue;
    batches.next_switch();
    std::vector<uint16_t> rest;
    for (uint16_t key : hops[n])
      if (!out.by_node[n].count(key)) rest.push_back(key);
    submit_sl2vls(batches, f, n, rest, out);
  }
  e.run();
  return out;
}

}  // namespace rdma::ib
