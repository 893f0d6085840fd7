// The P_Key tables of a fabric's end ports and of the switch ports they
// are cabled to, read in one run (`fabric check pkeys`, `fabric show
// pkeys`), and the partitions they make. A key's low 15 bits are its
// partition (its base), the top bit its membership: full (1) or limited
// (0); two limited members of a partition cannot talk (IBA 10.9.1).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "lib/ib/fabric_model.h"
#include "lib/mad/engine.h"

namespace rdma::ib {

inline constexpr uint16_t kPKeyBase = 0x7fff;     // the partition bits
inline constexpr uint16_t kPKeyFull = 0x8000;     // the membership bit
inline constexpr uint16_t kDefaultPKey = 0x7fff;  // the default partition

// "0x8002": a key as smpquery pkeys prints it.
std::string pkey_text(uint16_t key);

// A table's partitions: base -> full (true) or limited; a key 0 (an empty
// entry) is none, a base given full and limited counts as full.
using Memberships = std::map<uint16_t, bool>;
Memberships memberships(const std::vector<uint16_t>& table);

// Whether a switch's port checks P_Keys: PortInfo's
// PartitionEnforcementInbound or Outbound, as discovery read them.
bool enforces_pkeys(const Fabric& f, PortRef p);

struct PKeyTables {
  // The tables read, by (node, port), whole (PartitionCap entries of a CA
  // or router port, PartitionEnforcementCap of a switch's port).
  std::map<std::pair<uint32_t, uint8_t>, std::vector<uint16_t>> by_port;
  const std::vector<uint16_t>* find(PortRef p) const {
    auto it = by_port.find({p.node, p.port});
    return it == by_port.end() ? nullptr : &it->second;
  }
};

// The tables of every CA and router port with a link and, with switches,
// of each switch port cabled to one of them that enforces P_Keys, by
// directed route (a CA answers for the port the SMP arrives on: reached
// through its switch's port, or by its own path on the port discovery came
// in by). A table that could not be read is left out, with a warning.
PKeyTables read_pkey_tables(mad::Engine& e, const Fabric& f, bool switches,
                            std::vector<std::string>& warnings);

// A partition and its member ports (CA and router ports), in node order.
struct Partition {
  uint16_t base = 0;
  struct Member {
    PortRef port;
    bool full = false;
  };
  std::vector<Member> members;
};
// The partitions of the end ports' tables read, by base.
std::vector<Partition> partitions(const Fabric& f, const PKeyTables& t);

}  // namespace rdma::ib
