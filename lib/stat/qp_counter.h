// A QP statistic counter (fill_res_counter_entry): which QPs it counts, how
// they were bound, and its hardware counters.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lib/nl/attrs.h"
#include "lib/stat/hwcounters.h"

namespace rdma::stat {

struct QpCounter {
  std::optional<uint32_t> port;
  uint32_t id = 0;                  // cntn
  std::optional<uint8_t> qp_type;   // auto mode by type
  std::optional<uint32_t> pid;      // auto mode by pid: a user process
  std::optional<std::string> kern;  // ... or a kernel module
  std::vector<uint32_t> lqpns;
  std::vector<HwCounter> counters;
};

// Decodes the attributes of one STAT_COUNTER_ENTRY (or a doit reply). Throws
// Error for a counter without id, QP table or hardware counters.
QpCounter parse_qp_counter(const nl::Attrs& a);

// enum ib_qp_type as iproute2 prints it ("RC", "UD", ... "UNKNOWN").
const char* qp_type_name(uint8_t type);

}  // namespace rdma::stat
