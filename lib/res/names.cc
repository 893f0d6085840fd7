#include "lib/res/names.h"

#include <strings.h>

namespace rdma::res {

namespace {

bool same(std::string_view a, const char* b) {
  return a.size() == std::string_view(b).size() && strncasecmp(a.data(), b, a.size()) == 0;
}

constexpr const char* kQpTypeNames[] = {
    "SMI",           "GSI",     "RC",         "UC",      "UD",     "RAW_IPV6",
    "RAW_ETHERTYPE", "UNKNOWN", "RAW_PACKET", "XRC_INI", "XRC_TGT"};
constexpr const char* kQpStateNames[] = {"RESET", "INIT", "RTR", "RTS", "SQD", "SQE", "ERR"};
constexpr const char* kPathMigNames[] = {"MIGRATED", "REARM", "ARMED"};
constexpr const char* kCmIdStateNames[] = {
    "IDLE",       "ADDR_QUERY", "ADDR_RESOLVED", "ROUTE_QUERY",    "ROUTE_RESOLVED", "CONNECT",
    "DISCONNECT", "ADDR_BOUND", "LISTEN",        "DEVICE_REMOVAL", "DESTROYING"};
constexpr const char* kPollCtxNames[] = {"DIRECT", "SOFTIRQ", "WORKQUEUE", "UNBOUND_WORKQUEUE"};
constexpr const char* kSrqTypeNames[] = {"BASIC", "XRC", "TM"};

// RDMA_PS_* (include/uapi/rdma/rdma_user_cm.h). iproute2 prints RDMA_PS_IB
// as "IPoIB"; it is the native InfiniBand port space, so "IB" here.
struct PortSpace {
  uint32_t value;
  const char* name;
};
constexpr PortSpace kPortSpaces[] = {
    {0x0002, "IPoIB"}, {0x013F, "IB"}, {0x0106, "TCP"}, {0x0111, "UDP"}};

}  // namespace

const Names kQpTypes{kQpTypeNames};
const Names kQpStates{kQpStateNames};
const Names kPathMigStates{kPathMigNames};
const Names kCmIdStates{kCmIdStateNames};
const Names kPollCtx{kPollCtxNames};
const Names kSrqTypes{kSrqTypeNames};

bool Names::known(std::string_view word) const {
  if (same(word, fallback)) return true;
  for (const char* n : table)
    if (same(word, n)) return true;
  return false;
}

std::string Names::list() const {
  std::string out;
  for (const char* n : table) {
    if (std::string_view(n) == fallback) continue;
    if (!out.empty()) out += ", ";
    out += n;
  }
  return out;
}

const char* port_space_name(uint32_t ps) {
  for (const PortSpace& p : kPortSpaces)
    if (p.value == ps) return p.name;
  return "---";
}

bool port_space_known(std::string_view word) {
  if (word == "---") return true;
  for (const PortSpace& p : kPortSpaces)
    if (same(word, p.name)) return true;
  return false;
}

}  // namespace rdma::res
