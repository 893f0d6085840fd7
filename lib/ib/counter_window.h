// Error counters judged over a window, never reset: two readings of every
// port (the error sweep's, lib/ib/errors.h), taken seconds apart
// (`fabric errors window`) or across runs through a saved file (`save`,
// `since`), and the increase of each counter between them against its
// increase threshold. PortCounters' counters are 8, 16 or 32 bits and stop
// at their maximum (IBA 16.1.3.5); a counter that sits there, or that went
// down (someone reset it, or it wrapped), cannot be judged, and says why.
// The 64-bit counters of PortCountersExtended (IBA 1.3) are used wherever
// the PMA has them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lib/ib/errors.h"
#include "lib/ib/fabric_model.h"
#include "lib/ib/lost_bandwidth.h"
#include "lib/ib/port_states.h"
#include "lib/mad/field.h"

namespace rdma::ib {

// One port's error counters at one time.
struct PortReading {
  uint64_t node_guid = 0;
  uint64_t port_guid = 0;  // 0: none of its own (a switch port)
  uint8_t port = 0;
  uint16_t lid = 0;
  std::string description;
  bool wide = false;             // 64-bit counters (PortCountersExtended); else PortCounters'
  std::vector<uint64_t> values;  // by error_counters()' order
  uint8_t state = 0;             // PortState at the reading; 0: not known
  double link_bytes_ps = 0;      // the link's data rate (lost_bandwidth.h); 0: not known
  WaitTick tick;                 // PortXmitWait's tick
};

struct Reading {
  double time = 0;  // seconds since the epoch
  std::vector<PortReading> ports;
};

// The ports of a sweep (every_port, wide_errors asked) as a reading: the
// state of each port from states (read_port_states) where it has it, else
// from f's PortInfo (discovery's); the tick from the sweep (wait_tick).
Reading reading_of(const Fabric& f, const ErrorSweep& sweep, double time,
                   const PortStates* states = nullptr);

// The saved form (`fabric errors save`): one JSON object, the time, then
// every port with its GUIDs, PortState and counters by IBA name.
std::string reading_json(const Reading& r);
// Throws Error naming file for what is not such a document.
Reading parse_reading(std::string_view text, const std::string& file);

// One counter of one port between two readings.
struct CounterChange {
  const mad::FieldDef* field = nullptr;
  uint64_t before = 0, after = 0, increase = 0;
  std::string cannot_judge;  // why not; empty: judged
  bool over = false;         // increase over its increase threshold
};

struct PortIncrease {
  const PortReading* before = nullptr;
  const PortReading* after = nullptr;
  std::vector<CounterChange> counters;  // the ones over or not judged
  std::vector<CounterChange> every;     // every counter judged, in its order (metrics)
  uint64_t link_downs = 0;              // LinkDownedCounter's increase: the link flapped
  bool left_active = false;             // Active at the first reading, not at the second
  // The share of the link's rate lost waiting to send (lost_bandwidth.h),
  // 0..1; known: PortXmitWait judged and the link's rate known.
  bool wait_known = false;
  double wait_share = 0;
  bool congested = false;  // wait_share at or over the congestion threshold
  bool flapped() const { return link_downs > 0 || left_active; }
  bool over() const;
  bool cannot_judge() const;
};

struct WindowJudgement {
  double seconds = 0;               // after.time - before.time
  std::vector<PortIncrease> ports;  // those with a counter over or not judged, or a flap
  size_t ports_compared = 0;        // in both readings
  size_t ports_over = 0;
  size_t ports_cannot_judge = 0;
  size_t flaps = 0;  // ports whose link went down in the window (flapped())
  size_t ports_congested = 0;
};

// The ports of both readings (matched by node GUID and port), each of
// counters judged against its increase threshold.
// every_port: every port compared is in ports (the metrics want the
// zeros too), not only those with a finding. congestion (a share, 0..1;
// negative: not judged): a port whose wait share reaches it is a finding.
WindowJudgement judge_window(const Reading& before, const Reading& after,
                             std::span<const mad::FieldDef* const> counters,
                             const Thresholds& thresholds, bool every_port = false,
                             double congestion = -1);

}  // namespace rdma::ib
