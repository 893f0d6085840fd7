// Unicast forwarding: a switch's linear forwarding table read block by block
// (LinearForwardingTable SMPs, 64 LIDs each, up to LinearFDBTop), what sits
// at each LID of a fabric, and a trace from one port to a LID through the
// switches' tables (as ibroute and ibtracert).
#pragma once

#include <bitset>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "lib/ib/fabric_model.h"
#include "lib/mad/engine.h"
#include "lib/mad/mad.h"
#include "lib/mad/types.h"

namespace rdma::ib {

inline constexpr uint8_t kNoPort = 0xff;  // an LFT entry that forwards nowhere

struct Lft {
  uint16_t top = 0;            // LinearFDBTop: the highest LID the table holds
  uint16_t first = 0;          // the LID of ports[0]
  std::vector<uint8_t> ports;  // out port by LID from first; kNoPort: none
};

// LIDs [lo, min(hi, LinearFDBTop)] of the switch at r: its SwitchInfo, then
// the blocks in parallel (the engine's window). Throws Error (MadError for
// a failed query) naming the switch.
Lft read_lft(mad::Engine& e, const mad::Route& r, uint16_t lo, uint16_t hi);

using mad::kFirstMlid;

struct Mft {
  uint16_t first = kFirstMlid;  // the MLID of masks[0]
  int num_ports = 0;
  std::vector<std::bitset<256>> masks;  // by MLID from first; bit p: port p (up to 254)
};

// MLIDs [lo, hi] of the switch at r, within its MulticastFDBCap (and
// MulticastFDBTop when set, as ibroute -M): blocks of 32 MLIDs, one SMP per
// 16 ports of each. Throws Error as read_lft.
Mft read_mft(mad::Engine& e, const mad::Route& r, uint16_t lo, uint16_t hi);

// The last MLID a switch's table holds, from its SwitchInfo: within its
// MulticastFDBCap and MulticastFDBTop when set; nullopt: none.
std::optional<uint16_t> mft_last(const mad::Mad& switch_info);
// The same from the two fields (as the fabric model keeps them).
std::optional<uint16_t> mft_last(uint16_t mcast_fdb_cap, uint16_t mcast_fdb_top);

// One MLID's 16 port bits of a block read: bit b is port position * 16 + b.
using MftBits = std::function<void(uint16_t mlid, uint32_t position, uint16_t bits)>;

// Queues the MulticastForwardingTable SMPs for MLIDs [lo, hi] (lo at least
// kFirstMlid) of the switch at r with num_ports ports, run by the caller's
// e.run(): got for each MLID of each block answered, failed for each
// block that was not.
void submit_mft(mad::Engine& e, const mad::Route& r, int num_ports, uint16_t lo, uint16_t hi,
                const MftBits& got, const std::function<void(const mad::Failure&)>& failed);

// The out port for one LID: the one block holding it. Throws Error.
uint8_t lft_port(mad::Engine& e, const mad::Route& r, uint16_t lid);

// Who answers at each LID of the fabric: a switch's port 0 LID, each CA
// and router port's LID with its LMC range.
std::map<uint16_t, PortRef> lid_owners(const Fabric& f);

// One hop of a trace: the node, the port the packet came in by (0 at the
// source) and the port it leaves by (0 at the destination).
struct Hop {
  PortRef node;  // node index, and the port that carries the node's LID
  uint8_t in_port = 0;
  uint8_t out_port = 0;
};

// Reads one LFT entry of a switch (the fabric's node index) for a LID;
// the seam lets tests and callers choose how the switch is reached.
using LftLookup = std::function<uint8_t(uint32_t node, uint16_t lid)>;

// The hops from the port src to the port that answers at dlid, through the
// switches' tables. Throws Error naming the switch on a loop, a hole (no
// entry, or an out port with no link) or a CA in the middle.
std::vector<Hop> trace(const Fabric& f, PortRef src, uint16_t dlid, const LftLookup& lookup);

// A switch's MFT port mask for one MLID (bit p: port p), however read.
using MftLookup = std::function<std::bitset<256>(uint32_t node, uint16_t mlid)>;

// The multicast path from the port src to the port that answers at dlid
// for the group mlid (ibtracert -m): from src's switch, a breadth-first
// walk through the ports each switch's MFT sets for mlid (never back out
// of the port a packet came in by), the first path that reaches dlid's
// node. Throws Error when the tables do not lead there, naming how many
// switches the group reached.
std::vector<Hop> trace_mcast(const Fabric& f, PortRef src, uint16_t dlid, uint16_t mlid,
                             const MftLookup& lookup);

}  // namespace rdma::ib
