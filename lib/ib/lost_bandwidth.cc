#include "lib/ib/lost_bandwidth.h"

#include <algorithm>

#include "lib/ib/records.h"
#include "lib/mad/speed.h"

namespace rdma::ib {

WaitTick wait_tick(const std::map<uint32_t, uint8_t>& ticks, uint32_t n) {
  auto it = ticks.find(n);
  if (it == ticks.end()) return {};
  return {it->second, true};
}

double link_bytes_per_second(const Fabric& f, PortRef p) {
  const Node& node = f.nodes[p.node];
  const Port* port = node.port(p.port);
  if (!port || !port->info) return 0;
  unsigned tenths = mad::rate_tenths(link_generation(*port->info, speed_caps(node, *port->info)),
                                     port->info->width_active);
  return tenths * 1e8 / 8;  // tenths of Gb/s to bytes per second
}

double lost_bytes_per_second(uint64_t wait_increase, double seconds, WaitTick tick) {
  if (seconds <= 0) return 0;
  return static_cast<double>(wait_increase) * (tick.value + 1.0) * 8 / seconds;
}

double wait_share(uint64_t wait_increase, double seconds, WaitTick tick, double link_bytes_ps) {
  if (link_bytes_ps <= 0) return 0;
  return std::min(1.0, lost_bytes_per_second(wait_increase, seconds, tick) / link_bytes_ps);
}

}  // namespace rdma::ib
