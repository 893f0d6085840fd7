// The fabric's error sweep, as ibqueryerrors does it: the PMA counters of
// every port of every node, by LID, many queries in flight through the
// engine. A switch whose PMA has AllPortSelect is asked once for the sum
// of its ports, and port by port only when the sum is over a threshold.
// A PMA that does not answer, or answers an error status, is one warning
// and the sweep goes on.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "lib/ib/fabric_model.h"
#include "lib/ib/thresholds.h"
#include "lib/mad/engine.h"
#include "lib/mad/field.h"

namespace rdma::ib {

struct PmaCaps;  // lib/ib/pma.h

// The error counters ibqueryerrors checks (PortCounters fields), in its
// order, then QP1Dropped, which it does not check.
const std::vector<const mad::FieldDef*>& error_counters();
// The traffic counters (`data`): PortCounters' 32-bit ones.
const std::vector<const mad::FieldDef*>& data_counters();
// A PortCounters error counter by IBA name ("SymbolErrorCounter") or by the
// name `perf show` prints ("symbol_errors"); nullptr when there is none.
const mad::FieldDef* error_counter(std::string_view name);

// The nodes a sweep or a clear covers: every node, one node (an index into
// Fabric::nodes), the nodes of one type (NodeType), or both.
struct NodeSelect {
  std::optional<uint32_t> node;
  uint8_t node_type = 0;        // 0: any
  std::optional<uint8_t> port;  // with node: only this port of it (has_counters_port)
  bool covers(const Fabric& f, uint32_t n) const;
};

// Whether the PMA of node n keeps counters for port: a switch's ports
// (0 included), a channel adapter's or router's ports 1 and up with a LID.
bool has_counters_port(const Fabric& f, uint32_t n, uint8_t port);

struct SweepOptions {
  std::vector<const mad::FieldDef*> counters = error_counters();  // the ones checked
  Thresholds thresholds;
  bool extended = false;    // also PortCountersExtended of the ports kept, where supported
  bool every_port = false;  // keep every port, not only those over a threshold (rates)
  NodeSelect nodes;         // the nodes whose PMAs are asked
  // Also PortRcvErrorDetails and PortXmitDiscardDetails of the ports kept
  // (ibqueryerrors --details), where the PMA has them.
  bool details = false;
  // Also the 64-bit error counters of the ports kept (PortCountersExtended
  // in IBA 1.3's layout), where the PMA's CapabilityMask2 says it has them.
  bool wide_errors = false;
  // Also each node's PortSamplesControl Tick (lib/ib/lost_bandwidth.h),
  // where the PMA answers it (the local CA's is not asked: errors.cc);
  // asked once, without retries: one that does not answer is no warning,
  // and its ports take the default tick.
  bool wait_tick = false;
  // When set, the PMAs' ClassPortInfo capabilities by node index, kept
  // across the sweeps of a watch (fabric top): a PMA that answered once is
  // not asked again (its capabilities do not change), one not in it is,
  // and its answer is kept here.
  std::map<uint32_t, PmaCaps>* known_pmas = nullptr;
  // When set, the LIDs whose PMA left every query of the last sweep
  // unanswered, kept across a watch's sweeps: each is asked once, with
  // the engine's shortest timeout (EngineConfig::min_timeout_ms), until
  // it answers again, so that hundreds of silent PMAs do not hold the
  // window a full timeout each, sweep after sweep (man rdma, fabric top).
  std::set<uint16_t>* silent_pmas = nullptr;
};

// What one port's PMA answered: the attributes' bytes.
struct PortCounters {
  PortRef port;
  uint16_t lid = 0;
  std::vector<uint8_t> pc;            // PortCounters
  std::vector<uint8_t> ext;           // PortCountersExtended; empty: not asked or not supported
  std::vector<uint8_t> rcv_details;   // PortRcvErrorDetails; empty: not asked or not supported
  std::vector<uint8_t> xmit_details;  // PortXmitDiscardDetails; likewise
  std::vector<uint8_t> wide;          // PortCountersExtended, 1.3 layout; empty: not asked or none
  uint64_t get(const mad::FieldDef& f) const;  // a PortCounters field
};

struct ErrorSweep {
  std::vector<PortCounters> ports;  // kept ports, in node and port order
  std::vector<std::string> warnings;
  size_t nodes_checked = 0;  // PMAs that answered ClassPortInfo
  size_t ports_checked = 0;
  std::map<uint32_t, uint8_t> ticks;  // PortSamplesControl Tick by node (wait_tick)
};

// True when a checked counter of c is over its threshold.
bool over_threshold(const PortCounters& c, const SweepOptions& o);
// The checked counters of c over their thresholds, in o.counters' order.
std::vector<const mad::FieldDef*> counters_over(const PortCounters& c, const SweepOptions& o);

// ibqueryerrors' summary of a sweep: nodes and ports checked, the ports
// over a threshold and the nodes they are on, the PMA queries that failed.
struct SweepSummary {
  size_t nodes_checked = 0;
  size_t ports_checked = 0;
  size_t ports_over = 0;
  size_t nodes_over = 0;
  size_t pma_failures = 0;
};

// The sweep over f (discovered or loaded: only LIDs and PortInfo are used).
ErrorSweep sweep_errors(mad::Engine& e, const Fabric& f, const SweepOptions& o);

// The PortSamplesControl Tick of every node nodes covers, by node index,
// as SweepOptions::wait_tick asks it, on its own: a counter window asks
// it while it waits between its readings.
std::map<uint32_t, uint8_t> read_wait_ticks(mad::Engine& e, const Fabric& f,
                                            const NodeSelect& nodes = {});

// The summary of a sweep whose kept ports are those over a threshold (not
// every_port); each warning is a PMA query that failed.
SweepSummary summarize(const ErrorSweep& s);

// The ports clear_counters clears: every port of every node, or of one node
// (an index into Fabric::nodes), or one port of it, or of the nodes of a type.
struct ClearSelect {
  std::optional<uint32_t> node;
  std::optional<uint8_t> port;  // with node
  uint8_t node_type = 0;        // NodeType: only the nodes of this type; 0 any
};

// Clears the counters of the ports selected, as ibclearerrors (the error
// counters and PortXmitWait) or, with all, ibclearcounters too (every
// counter, PortCountersExtended where supported): one Set per switch whose
// PMA has AllPortSelect (unless one port is selected), else one per port.
// Returns one warning per PMA that refused or was silent.
std::vector<std::string> clear_counters(mad::Engine& e, const Fabric& f, bool all,
                                        const ClearSelect& only = {});

}  // namespace rdma::ib
