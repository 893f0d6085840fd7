// Hardware counters as nldev sends them: a STAT_HWCOUNTERS nest of
// STAT_HWCOUNTER_ENTRY nests, each with a name and (except in STAT_GET_STATUS
// replies) a value.
#pragma once

#include <libmnl/libmnl.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lib/view/record.h"

namespace rdma::stat {

struct HwCounter {
  std::string name;
  uint64_t value = 0;
  std::optional<uint32_t> index;  // STAT_HWCOUNTER_INDEX (status replies)
  std::optional<bool> enabled;    // STAT_HWCOUNTER_DYNAMIC: optional counters only
};

// Entries of a STAT_HWCOUNTERS nest, in the kernel's order. An entry without
// a name, or without a value when need_value, is a malformed reply (Error).
std::vector<HwCounter> parse_hwcounters(const nlattr* nest, bool need_value = true);

// Appends the counters as iproute2 6.7+ prints them: one per line in text
// ("\n    name value "), flattened into the object in JSON.
void add_counters(const std::vector<HwCounter>& counters, view::Record& r);

}  // namespace rdma::stat
