// `rdma fabric top`: the busiest and sickest ports of the whole fabric,
// from two sweeps of every port's counters. Plain rows, sorted and filtered
// here; the screen is the front end's.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "lib/ib/errors.h"
#include "lib/ib/fabric_model.h"
#include "lib/ib/lost_bandwidth.h"

namespace rdma::ib {

// A port and what moved on it between two sweeps.
struct TopRow {
  PortRef port;
  std::string name;            // "leaf1/3": the node's description (or GUID) and port
  std::string peer;            // the other end of its cable, "" without one
  double xmit_bps = 0;         // bytes per second sent
  double rcv_bps = 0;          // and received
  double util = 0;             // the busier direction's share of the link's data rate, 0..1
  double wait_ps = 0;          // PortXmitWait ticks per second (waiting to send)
  double wait_share = 0;       // the share of the link's rate lost waiting, 0..1 (lost_bandwidth.h)
  bool tick_from_pma = false;  // its tick from PortSamplesControl, else the default
  uint64_t errors = 0;         // error counters' increase (waits and times down apart)
  uint64_t downed = 0;         // LinkDownedCounter's increase: the link went down
  bool unknown = false;        // a counter went down (reset) or saturated: no rates
};

// The columns rows sort by, busiest first.
enum class TopSort : uint8_t { Util, Xmit, Rcv, Wait, Errors, Downed };
// "util", "xmit", "rcv", "wait", "errors", "downed".
const char* top_sort_name(TopSort s);

// Remembers every port's last reading, and each PMA's PortXmitWait tick
// from the sweeps that asked it (wait_tick); update() gives the rows of the
// interval since the previous sweep (none for the first).
class TopModel {
 public:
  std::vector<TopRow> update(const Fabric& f, const ErrorSweep& sweep, double seconds);

 private:
  struct Reading {
    uint64_t xmit = 0, rcv = 0;  // bytes
    uint64_t wait = 0, errors = 0, downed = 0;
    bool saturated = false;
  };
  std::map<std::pair<uint64_t, uint8_t>, Reading> prev_;  // by node GUID and port
  std::map<uint32_t, uint8_t> ticks_;                     // by node index
};

// Rows sorted by a column (ties by name), and those whose name or peer
// holds filter (any case); rows itself is changed.
void sort_rows(std::vector<TopRow>& rows, TopSort by);
std::vector<TopRow> filter_rows(const std::vector<TopRow>& rows, std::string_view filter);

}  // namespace rdma::ib
