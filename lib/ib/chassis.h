// Chassis grouping (ibnetdiscover -g): which nodes are chips of one box,
// decoded from NodeInfo and NodeDescription as libibnetdisc groups them.
// Nodes sharing a chassis GUID (the SystemImageGUID, some vendors' with a
// slot byte masked) form a chassis; a Mellanox IS4 chip whose description
// is "MF0;system:type/L01/U1" also has its line or spine slot. Voltaire's
// chassis are found by their wiring (voltaire.h), CA and router modules
// on their spines included.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lib/ib/fabric_model.h"

namespace rdma::ib {

// Router: a CA or router module in a line slot (libibnetdisc's "SRBD").
enum class ChassisSlot : uint8_t { Line = 1, Spine = 2, Router = 3 };

// Where a chip sits in its box, as its description names it.
struct ChassisPlace {
  std::string type;  // the system type: "MSX6536"
  ChassisSlot slot = ChassisSlot::Line;
  unsigned number = 0;  // slot number, 1-36 (lines, modules) or 1-18 (spines)
  unsigned chip = 0;    // "U1"
};

// The place a Mellanox switch chip's description gives, nothing for
// another device or a description in no such form.
std::optional<ChassisPlace> mellanox_place(uint32_t vendor_id, uint16_t device_id,
                                           std::string_view description);

// The GUID that names a node's chassis, 0 for none. Topspin and InfiniCon
// put the slot in byte 4 of the SystemImageGUID, Xsigo switches the port
// type; a Xsigo CA belongs to the chassis of the leaf its port 1 meets
// (peer_sys_image_guid, 0 when unlinked).
uint64_t chassis_guid(const NodeInfo& info, uint64_t peer_sys_image_guid = 0);

// "Line 3 Chip 1", "SRBD 2 Chip 3".
std::string slot_text(const ChassisPlace& p);

// Numbered as libibnetdisc numbers them: Voltaire's first, each from its
// spine found last; then the others in the order of their node found
// last. Listed in that order.
struct Chassis {
  unsigned number = 0;
  uint64_t guid = 0;
  // By position (a slot's chips and modules one after another); a line
  // position may hold a CA or router module.
  std::vector<uint32_t> spines, lines;
  std::vector<uint32_t> nodes;  // the chassis' other nodes, in discovery order
};

struct Grouping {
  std::vector<Chassis> chassis;
  std::vector<unsigned> chassis_of;  // per node: its chassis number, 0 none
  // Per node: its decoded place (also for a chip left out of every chassis).
  std::vector<std::optional<ChassisPlace>> place;
  // The external port number (the faceplate's) of a node's port, 0: none.
  unsigned external_port(const Fabric& f, PortRef r) const;
  // What ibnetdiscover -g notes after a chassis node's switch line: the
  // system type and place ("ISR9096 Line 1 Chip 2"); empty outside a
  // chassis and for a module of another vendor than Voltaire or Mellanox.
  std::string note(const Fabric& f, uint32_t node) const;
};

Grouping group_chassis(const Fabric& f);

}  // namespace rdma::ib
