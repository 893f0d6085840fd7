// The routes check: every CA and router LID followed from every switch
// through the forwarding tables. Routing is by destination only, so a
// switch's way to a LID is the same whoever sent the packet: each
// (switch, LID) is walked once and each problem is reported at the switch
// where it is.
#include <map>

#include "lib/ib/check.h"
#include "lib/mad/format.h"

namespace rdma::ib {

namespace {

enum Kind { kNoTable, kMissing, kBadPort, kDown, kWrong, kLoop, kUnowned, kKinds };

// What the rest of each kind is counted as.
const char* const kKindText[kKinds] = {
    "switches without a forwarding table",         "LIDs missing from a table",
    "entries to a port the switch does not have",  "entries to a port without a link",
    "entries to a node that does not own the LID", "loops",
    "switches with entries for LIDs no port has",
};

// memo values per (switch, destination).
enum : uint8_t { kUnknown = 0, kOk = 1, kBad = 2, kOnPath = 3 };

std::string lid_text(uint16_t lid) {
  return "LID " + std::to_string(lid);
}

}  // namespace

std::vector<Finding> check_routes(const Fabric& f, const Lfts& lfts) {
  std::map<uint16_t, PortRef> owners = lid_owners(f);
  std::vector<std::pair<uint16_t, PortRef>> dests;
  for (const auto& [lid, r] : owners)
    if (!f.nodes[r.node].is_switch()) dests.emplace_back(lid, r);
  std::vector<uint32_t> switches;
  std::vector<std::vector<uint8_t>> memo(f.nodes.size());
  for (uint32_t n = 0; n < f.nodes.size(); ++n)
    if (f.nodes[n].is_switch()) {
      switches.push_back(n);
      memo[n].assign(dests.size(), kUnknown);
    }
  std::vector<Finding> found[kKinds];
  auto add = [&](Kind k, Severity s, std::string what, std::vector<FindingPlace> where) {
    found[k].push_back({"routes", s, std::move(what), std::move(where)});
  };
  for (uint32_t n : switches)
    if (!lfts[n]) add(kNoTable, Severity::Warning, "no forwarding table", {place(f, n, 0)});
  std::vector<uint32_t> walk;
  for (size_t d = 0; d < dests.size(); ++d) {
    auto [lid, owner] = dests[d];
    FindingPlace dest = place(f, owner.node, owner.port);
    for (uint32_t s : switches) {
      if (memo[s][d] != kUnknown) continue;
      walk.clear();
      uint32_t n = s;
      uint8_t result = kBad;
      while (true) {
        if (memo[n][d] == kOnPath) {
          std::vector<FindingPlace> where;
          size_t i = 0;
          while (walk[i] != n) ++i;
          std::string ring;
          for (; i < walk.size(); ++i) {
            where.push_back(place(f, walk[i], 0));
            ring += mad::desc_text(f.nodes[walk[i]].description) + " -> ";
          }
          where.push_back(dest);
          add(kLoop, Severity::Error,
              "loop: " + lid_text(lid) + " goes round " + ring +
                  mad::desc_text(f.nodes[n].description),
              std::move(where));
          break;
        }
        if (memo[n][d] != kUnknown) {
          result = memo[n][d];
          break;
        }
        memo[n][d] = kOnPath;
        walk.push_back(n);
        const Node& node = f.nodes[n];
        const std::optional<Lft>& t = lfts[n];
        if (!t) break;  // reported once above
        uint8_t out = lid < t->ports.size() ? t->ports[lid] : kNoPort;
        if (out == kNoPort) {
          add(kMissing, Severity::Error, lid_text(lid) + " missing from the table",
              {place(f, n, 0), dest});
          break;
        }
        if (out == 0 || out > node.info.num_ports) {
          add(kBadPort, Severity::Error,
              lid_text(lid) + " sent to port " + std::to_string(out) + ", which the switch has not",
              {place(f, n, out), dest});
          break;
        }
        const Port& p = node.ports[out];
        if (!p.peer) {
          const char* st = p.info ? mad::port_state_name(p.info->state) : nullptr;
          add(kDown, Severity::Error,
              lid_text(lid) + " sent to port " + std::to_string(out) + ", which has no link" +
                  (st ? std::string(" (") + st + ")" : ""),
              {place(f, n, out), dest});
          break;
        }
        const Node& next = f.nodes[p.peer->node];
        if (next.is_switch()) {
          n = p.peer->node;
          continue;
        }
        if (*p.peer == owner) {
          result = kOk;
        } else {
          add(kWrong, Severity::Error,
              lid_text(lid) + " sent to port " + std::to_string(out) +
                  ", whose peer is not its owner",
              {place(f, n, out), place(f, p.peer->node, p.peer->port), dest});
        }
        break;
      }
      for (uint32_t w : walk) memo[w][d] = result;
    }
  }
  // Entries for LIDs nobody answers at: one finding per switch.
  for (uint32_t n : switches) {
    if (!lfts[n]) continue;
    const std::vector<uint8_t>& ports = lfts[n]->ports;
    size_t count = 0;
    std::string first;
    for (size_t lid = 1; lid < ports.size(); ++lid) {
      if (ports[lid] == kNoPort || owners.count(static_cast<uint16_t>(lid))) continue;
      if (count++ < kFirstFew) first += (first.empty() ? "" : ", ") + std::to_string(lid);
    }
    if (count)
      add(kUnowned, Severity::Warning,
          std::to_string(count) + " entries for LIDs no port has (" + first +
              (count > kFirstFew ? ", ..." : "") + ")",
          {place(f, n, 0)});
  }
  std::vector<Finding> out;
  for (int k = 0; k < kKinds; ++k) add_first_few(out, std::move(found[k]), kKindText[k]);
  return out;
}

}  // namespace rdma::ib
