// Which ports of a node a query covers. The IBA decides most of it: a
// switch names the port in the attribute modifier, a channel adapter
// answers for the port the MAD arrives on; a PMA with AllPortSelect sums
// every port in one reply.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lib/ib/smp.h"

namespace rdma::ib {

// The port of a per-port table query (P_Key, GUIDInfo, SL2VL, VL
// arbitration): `port N` when given, else the port the MAD arrives on (CAs)
// or port 0 (switches). Throws Error, naming the node by where ("lid 4"),
// for a port the node does not have, or a CA port other than the one the
// MAD arrives on (its tables cannot be read from there).
uint8_t table_port(const NodeInfo& n, std::optional<uint8_t> port, const std::string& where);

// Throws Error, naming the node by where ("lid 4"), for a port it does not
// have: above NumPorts, or 0 on a channel adapter (only switches have a
// port 0). Checked before a command sends anything for a list of ports, so
// a bad one neither prints nor changes the others.
void check_port(const NodeInfo& n, uint8_t port, const std::string& where);

// PortSelect 0xFF: every port at once (AllPortSelect).
inline constexpr uint8_t kAllPorts = 0xff;

// The PortSelect values of a PMA query: `port N`; by default the port the
// LID belongs to (CAs) or port 1 (switches); with all, 0xFF when the PMA has
// AllPortSelect, else each port 1..NumPorts.
std::vector<uint8_t> perf_ports(const NodeInfo& n, std::optional<uint8_t> port, bool all,
                                bool all_port_select);

}  // namespace rdma::ib
