// A port's tables read by SMPs, block by block up to the capacities the
// node reports: P_KeyTable, GUIDInfo, SLtoVLMappingTable and
// VLArbitrationTable (IBA 14.2.5.7-9, 14.2.5.12). Which port a table
// belongs to follows the IBA: a switch names the port in the attribute
// modifier, a channel adapter answers for the port the MAD arrives on.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "lib/ib/client.h"
#include "lib/ib/smp.h"
#include "lib/mad/mad.h"

namespace rdma::ib {

// The port whose tables are read, settled.
struct TablePort {
  mad::Route route;
  NodeInfo node;
  uint8_t port = 0;
};

// Reads the node's NodeInfo and settles the port (table_port in
// port_select.h): `port N` when given, else the arrival port (CAs) or
// port 0 (switches). Throws Error for a port the node cannot answer for.
TablePort read_table_port(MadClient& c, const mad::Route& r, std::optional<uint8_t> port);

// A switch's port 0 keeps its partition capacity in NodeInfo, its external
// ports in SwitchInfo (PartitionEnforcementCap); a CA's in NodeInfo.
struct PKeyTable {
  unsigned capacity = 0;
  std::vector<uint16_t> pkeys;  // capacity entries
};
PKeyTable read_pkeys(MadClient& c, const TablePort& p);

// GUIDInfo has no port in its modifier: a CA's port, or switch port 0 (an
// Error for a switch's external port). Capacity: PortInfo GUIDCap.
struct GuidTable {
  unsigned capacity = 0;
  std::vector<uint64_t> guids;
};
GuidTable read_guids(MadClient& c, const TablePort& p);

// A CA has one table (in_port empty); a switch one per input port (0 to
// NumPorts) to output port p.port, each given to each as it is read.
struct Sl2VlTable {
  std::optional<uint8_t> in_port;
  std::array<uint8_t, 16> vl{};  // by SL
};
void read_sl2vl(MadClient& c, const TablePort& p,
                const std::function<void(const Sl2VlTable&)>& each);

// The low-priority table (blocks 1-2), then the high one (3-4), each up to
// its PortInfo capacity and at most 64 entries, given to each as it is
// read. A base switch port 0 has no data VLs and so no tables: an Error.
struct VlArbTable {
  bool high = false;
  unsigned capacity = 0;
  struct Entry {
    uint8_t vl = 0, weight = 0;
  };
  std::vector<Entry> entries;  // capacity entries
};
void read_vlarb(MadClient& c, const TablePort& p,
                const std::function<void(const VlArbTable&)>& each);

}  // namespace rdma::ib
