// Hardware counters as nldev sends them: a STAT_HWCOUNTERS nest of
// STAT_HWCOUNTER_ENTRY nests, each with a name and (except in STAT_GET_STATUS
// replies) a value.
#pragma once

#include <libmnl/libmnl.h>
#include <rdma/rdma_netlink.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/nl/attrs.h"
#include "lib/view/record.h"

namespace rdma::stat {

struct HwCounter {
  std::string name;
  uint64_t value = 0;
  std::optional<uint32_t> index;  // STAT_HWCOUNTER_INDEX (status replies)
  std::optional<bool> enabled;    // STAT_HWCOUNTER_DYNAMIC: optional counters only
};

// One entry read in place: name points into the message and lives as long
// as it does.
struct HwCounterEntry {
  std::string_view name;
  std::optional<uint64_t> value;
  std::optional<uint32_t> index;
  std::optional<bool> enabled;
};

// One STAT_HWCOUNTER_ENTRY nest, checked as nl::Attrs checks a nest. An
// entry without a name, or without a value when need_value, is a malformed
// reply (Error).
HwCounterEntry read_hwcounter(const nlattr* entry, bool need_value);

// Calls fn(const HwCounterEntry&) for the entries of a STAT_HWCOUNTERS nest,
// in the kernel's order, without copying them out of the message.
template <typename Fn>
void for_each_hwcounter(const nlattr* nest, bool need_value, Fn&& fn) {
  nl::for_each_nested(nest, [&](const nlattr* entry) {
    if (nl::Attrs::type_of(entry) == RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY)
      fn(read_hwcounter(entry, need_value));
  });
}

// Entries of a STAT_HWCOUNTERS nest, in the kernel's order, copied out (for
// views that keep them: rates, status, QP counters).
std::vector<HwCounter> parse_hwcounters(const nlattr* nest, bool need_value = true);

// Appends the counters as iproute2 6.7+ prints them: one per line in text
// ("\n    name value "), flattened into the object in JSON.
void add_counters(const std::vector<HwCounter>& counters, view::Record& r);
// The same straight from a STAT_HWCOUNTERS nest (values required): no
// counter is copied out of the message.
void add_counters_from(const nlattr* nest, view::Record& r);

}  // namespace rdma::stat
