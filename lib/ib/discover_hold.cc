#include "lib/ib/discover_hold.h"

namespace rdma::ib {

// A switch's PortInfo sweep probes behind each port as it answers, and the
// switch at the far end, found later, is doing the same from its side:
// whichever asks first lands its NodeInfo on the other. A switch found late
// (a fat tree's last aggregation switches, 1 ms a SMP) loses nearly every
// race, as its own PortInfos wait behind what lands on it: 32 probes on
// the busiest at 1,000 nodes, 17 of them from its two cores' parallel
// links. So the switch found first waits on a port that most likely leads
// to it: the port beside it leads there (or its probe is still out and the
// one beyond does). Its probe is still out most of the time: the far
// switch is busy, so waiting for its answer would hold little.
std::optional<uint64_t> ProbeHolds::beside_block(const Key& k, unsigned ports,
                                                 const Leads& leads) const {
  const uint8_t port = k.second;
  auto lead = [&](int q) -> PortLead {
    if (q < 1 || q > static_cast<int>(ports)) return {};
    auto h = held_for_.find({k.first, static_cast<uint8_t>(q)});
    if (h != held_for_.end()) return {PortLead::kSwitch, h->second};
    return leads(static_cast<uint8_t>(q));
  };
  bool blocks = false;
  int run = 0;
  uint64_t last = 0;
  for (unsigned q = 1; q <= ports && !blocks; ++q) {
    PortLead l = leads(static_cast<uint8_t>(q));
    uint64_t g = l.kind == PortLead::kSwitch ? l.guid : 0;
    run = !g ? 0 : g == last ? run + 1 : 1;
    last = g;
    blocks = run >= kBlock;
  }
  if (!blocks) return std::nullopt;
  for (int dir : {-1, 1}) {
    PortLead a = lead(port + dir), b = lead(port + 2 * dir);
    if (a.kind == PortLead::kSwitch &&
        (b.kind == PortLead::kOut || (b.kind == PortLead::kSwitch && b.guid == a.guid)))
      return a.guid;
    if (a.kind == PortLead::kOut && b.kind == PortLead::kSwitch) return b.guid;
  }
  return std::nullopt;
}

bool ProbeHolds::hold_beside(const Key& k, unsigned ports, const Leads& leads,
                             const std::function<bool(uint64_t)>& later) {
  std::optional<uint64_t> far = beside_block(k, ports, leads);
  if (!far || !later(*far)) return false;
  held_for_[k] = *far;
  held_[*far].push_back(k);
  return true;
}

std::vector<ProbeHolds::Key> ProbeHolds::release(uint64_t far) {
  auto it = held_.find(far);
  if (it == held_.end()) return {};
  std::vector<Key> keys = std::move(it->second);
  held_.erase(it);
  for (const Key& k : keys) held_for_.erase(k);
  return keys;
}

}  // namespace rdma::ib
