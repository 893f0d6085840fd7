// rdma port show TARGET [port N] {pkeys|guids|sl2vl|vlarb}: the per-port
// tables (read by lib/ib/port_table_blocks.h), printed.
#pragma once

#include <optional>
#include <string>

#include "lib/ib/port_table_blocks.h"
#include "rdma/ib/session.h"

namespace rdma {

using PortTarget = ib::TablePort;

// Reads the target's NodeInfo and settles the port: `port N` when given,
// else the port the MAD arrives on (CAs) or port 0 (switches). Throws Error
// for a port the node does not have, or a CA port other than the one the
// MAD arrives on (its tables cannot be read from there).
PortTarget port_target(MadSession& s, const mad::Route& r, std::optional<uint8_t> port);

// Prints table ("pkeys", "guids", "sl2vl" or "vlarb") of p, one record per
// table (sl2vl of a switch: one per input port; vlarb: low, then high).
void show_port_table(Ctx& c, MadSession& s, const PortTarget& p, const std::string& table);

}  // namespace rdma
