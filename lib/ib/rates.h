// Per-second rates of PMA counters between two readings (fabric errors -w,
// perf show -w). PMA counters saturate instead of wrapping (IBA 16.1.3.5):
// a counter at its maximum has stopped counting, and one lower than before
// was cleared (ibclearerrors, perf reset, a reboot). Neither gives a rate
// (the true increase is unknown); both are flagged, never shown as a huge
// rate.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <vector>

#include "lib/ib/errors.h"
#include "lib/mad/field.h"
#include "lib/view/record.h"

namespace rdma::ib {

struct CounterReading {
  const mad::FieldDef* field;
  uint64_t value;  // as the counter holds it (4-byte words for the data counters)
};

struct CounterRate {
  const mad::FieldDef* field;
  uint64_t value;                    // as shown: the data counters in bytes (mad::shown_value)
  std::optional<double> per_second;  // in that unit; none: first reading, reset or saturated
  bool reset = false;                // lower than the previous reading
  bool saturated = false;            // at the maximum its width holds
  uint64_t increase = 0;             // since the previous reading, in value's unit; 0 after a reset
  // It rose or was reset since the previous reading (a counter that sits
  // saturated has not moved).
  bool changed() const { return reset || increase > 0; }
};

// The counters `fabric errors` lists for c with options o, as errors_record
// prints them: the checked ones, and with `data` the traffic counters
// (PortCountersExtended's 64-bit ones where the PMA answered them).
std::vector<CounterReading> sweep_readings(const PortCounters& c, const SweepOptions& o);

// The fields of an attribute's bytes, in the order given.
std::vector<CounterReading> readings(std::span<const mad::FieldDef* const> fields,
                                     std::span<const uint8_t> attr);

// True when v is the largest value of a counter of this width.
bool saturated(const mad::FieldDef& f, uint64_t v);

// Remembers each port's previous reading, by node GUID and port number.
class CounterRates {
 public:
  struct Key {
    uint64_t node_guid;
    uint32_t port;
    auto operator<=>(const Key&) const = default;
  };
  // The rates over `seconds` of this reading, in its order.
  std::vector<CounterRate> update(const Key& key, std::span<const CounterReading> now,
                                  double seconds);
  // Ends an interval: ports not read in it are forgotten.
  void end_interval();

 private:
  using Reading = std::map<const mad::FieldDef*, uint64_t>;
  std::map<Key, Reading> prev_;
  std::map<Key, Reading> cur_;
};

// True when a counter rose, was reset or is saturated.
bool moved(std::span<const CounterRate> rates);
// The counters that changed (CounterRate::changed), in their order.
std::vector<CounterRate> changed_only(std::span<const CounterRate> rates);

// Adds the counters as `perf show` prints them, each with its rate: text
// "symbol_errors 3 (0.5/s) ", "xmit_bytes 4096 (512/s) ", "(reset)" or
// "(saturated)"; JSON the values by
// the same keys, then a "rate" object (counters with a rate) and "reset" and
// "saturated" arrays naming the flagged counters (when there are any).
void add_counter_rates(std::span<const CounterRate> rates, view::Record& rec);

}  // namespace rdma::ib
