// Names of the enum values in resource entries, spelled as iproute2 prints
// them. A value past the end of a table prints as "UNKNOWN".
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace rdma::res {

struct Names {
  std::span<const char* const> table;
  const char* fallback = "UNKNOWN";
  const char* name(uint64_t v) const { return v < table.size() ? table[v] : fallback; }
  // True when word (any case) is one of the names or the fallback.
  bool known(std::string_view word) const;
  // "A, B, C" for error messages.
  std::string list() const;
};

extern const Names kQpTypes;        // enum ib_qp_type
extern const Names kQpStates;       // enum ib_qp_state
extern const Names kPathMigStates;  // enum ib_mig_state
extern const Names kCmIdStates;     // enum rdma_cm_state
extern const Names kPollCtx;        // enum ib_poll_context
extern const Names kSrqTypes;       // enum ib_srq_type

// enum rdma_ucm_port_space: sparse values, "---" for unknown ones.
const char* port_space_name(uint32_t ps);
bool port_space_known(std::string_view word);

}  // namespace rdma::res
