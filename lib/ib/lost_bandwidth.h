// Lost bandwidth: the share of a link's data rate a port lost waiting to
// send (PortXmitWait, IBA 16.1.3.5), over a window. NVIDIA's formula
// (ib-traffic-monitor issue 3; ibdiagnet's Congestion Assessment reads the
// tick the same way): lost bytes/s = ΔPortXmitWait × (Tick + 1) × 8 ÷
// seconds, with Tick the PMA's PortSamplesControl Tick where it answers
// it, else 7 ("modern generations set the tick to 7, legacy will use
// 31"). The share is that over the link's data rate (active width ×
// speed), at most 1. man rdma-fabric(8) says the same.
#pragma once

#include <cstdint>
#include <map>

#include "lib/ib/fabric_model.h"

namespace rdma::ib {

// The Tick assumed when the PMA does not answer PortSamplesControl.
inline constexpr uint8_t kDefaultWaitTick = 7;

// A port's PortXmitWait tick and where it came from.
struct WaitTick {
  uint8_t value = kDefaultWaitTick;
  bool from_pma = false;
  // "pma" or "default", as text and JSON say it (tick_source).
  const char* source() const { return from_pma ? "pma" : "default"; }
};

// The tick of node n: its PMA's answer in ticks (by node index), else the
// default.
WaitTick wait_tick(const std::map<uint32_t, uint8_t>& ticks, uint32_t n);

// The data rate of the link at port p in bytes per second (its active
// width and speed); 0 when unknown (no PortInfo, or a port down).
double link_bytes_per_second(const Fabric& f, PortRef p);

// Bytes per second lost waiting: ΔPortXmitWait × (Tick + 1) × 8 ÷ seconds.
double lost_bytes_per_second(uint64_t wait_increase, double seconds, WaitTick tick);

// The share of the link's rate lost, 0..1; 0 when the rate or the window is
// unknown (0).
double wait_share(uint64_t wait_increase, double seconds, WaitTick tick, double link_bytes_ps);

}  // namespace rdma::ib
