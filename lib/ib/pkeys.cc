#include "lib/ib/pkeys.h"

#include <cstdio>
#include <optional>

#include "lib/mad/attrs.h"
#include "lib/mad/format.h"
#include "lib/mad/target.h"

namespace rdma::ib {

std::string pkey_text(uint16_t key) {
  char s[8];
  std::snprintf(s, sizeof s, "0x%04x", key);
  return s;
}

Memberships memberships(const std::vector<uint16_t>& table) {
  Memberships m;
  for (uint16_t k : table) {
    uint16_t base = k & kPKeyBase;
    if (!base) continue;  // an empty entry (0x0000 and 0x8000 are not keys)
    m[base] = m[base] || (k & kPKeyFull);
  }
  return m;
}

bool enforces_pkeys(const Fabric& f, PortRef p) {
  const Node& n = f.nodes[p.node];
  if (!n.is_switch() || p.port == 0 || !n.sw || !n.sw->partition_enforcement_cap) return false;
  const Port* port = n.port(p.port);
  return port && port->info && (port->info->pkey_enforce_in || port->info->pkey_enforce_out);
}

namespace {

// The requests queued before the engine runs them: the window stays full,
// the queue small.
constexpr size_t kBatch = 4096;

struct Wanted {
  PortRef at;
  mad::Route route;
  unsigned capacity = 0;
  std::vector<uint16_t> keys;
  std::optional<std::string> failed;
};

std::string port_text(const Fabric& f, PortRef p) {
  const Node& n = f.nodes[p.node];
  const char* type = n.is_switch() ? "switch" : "CA";
  return std::string(type) + " " + mad::desc_text(n.description) + " " +
         mad::guid_hex(n.info.node_guid) + " port " + std::to_string(p.port);
}

}  // namespace

PKeyTables read_pkey_tables(mad::Engine& e, const Fabric& f, bool switches,
                            std::vector<std::string>& warnings) {
  std::vector<Wanted> wanted;
  auto want = [&](PortRef at, std::vector<uint8_t> path, unsigned capacity) {
    wanted.push_back({at, {true, 0, std::move(path)}, capacity, {}, {}});
  };
  for (uint32_t n = 0; n < f.nodes.size(); ++n) {
    const Node& node = f.nodes[n];
    if (node.is_switch()) continue;
    for (const Port& p : node.ports) {
      if (!p.num || !p.peer) continue;
      const Node& peer = f.nodes[p.peer->node];
      // The CA answers for the port the SMP comes in by: its own path on
      // the port discovery arrived at, else through the switch cabled to it.
      if (p.num == node.info.local_port) {
        want({n, p.num}, node.path, node.info.partition_cap);
      } else if (peer.is_switch()) {
        std::vector<uint8_t> path = peer.path;
        path.push_back(p.peer->port);
        want({n, p.num}, std::move(path), node.info.partition_cap);
      } else {
        warnings.push_back("no directed route into " + port_text(f, {n, p.num}) +
                           ": its P_Key table is not read");
        continue;
      }
      if (switches && enforces_pkeys(f, *p.peer))
        want(*p.peer, peer.path, peer.sw->partition_enforcement_cap);
    }
  }
  size_t queued = 0;
  for (size_t i = 0; i < wanted.size(); ++i) {
    Wanted& w = wanted[i];
    w.keys.assign(w.capacity, 0);
    // A switch names its port in the modifier; a CA's port is the arrival one.
    bool sw = f.nodes[w.at.node].is_switch();
    for (unsigned b = 0; b * 32 < w.capacity; ++b) {
      uint32_t mod = (sw ? uint32_t{w.at.port} << 16 : 0) | b;
      e.submit({mad::make_smp(w.route, mad::kGet, mad::kPKeyTable, mod), mad::smp_address(w.route),
                "P_KeyTable block " + std::to_string(b) + " from " + mad::route_text(w.route),
                [&wanted, i, b](const mad::Mad* reply, const mad::Failure* fail) {
                  Wanted& w = wanted[i];
                  if (!reply) {
                    if (!w.failed) w.failed = fail->message;
                    return;
                  }
                  for (unsigned j = 0; j < 32 && b * 32 + j < w.keys.size(); ++j)
                    w.keys[b * 32 + j] = static_cast<uint16_t>(
                        mad::get_field(mad::kPKeyTable, reply->data(), "P_KeyTableBlock", j));
                }});
      ++queued;
    }
    if (queued >= kBatch) {
      e.run();
      queued = 0;
    }
  }
  e.run();
  PKeyTables out;
  for (Wanted& w : wanted) {
    if (w.failed)
      warnings.push_back("no P_Key table from " + port_text(f, w.at) + ": " + *w.failed);
    else
      out.by_port[{w.at.node, w.at.port}] = std::move(w.keys);
  }
  return out;
}

std::vector<Partition> partitions(const Fabric& f, const PKeyTables& t) {
  std::map<uint16_t, Partition> by_base;
  for (const auto& [at, table] : t.by_port) {
    if (f.nodes[at.first].is_switch()) continue;
    for (const auto& [base, full] : memberships(table)) {
      Partition& p = by_base[base];
      p.base = base;
      p.members.push_back({{at.first, at.second}, full});
    }
  }
  std::vector<Partition> out;
  for (auto& [base, p] : by_base) out.push_back(std::move(p));
  return out;
}

}  // namespace rdma::ib
