// Voltaire chassis (ISR9288, ISR9096, ISR2012, ISR2004, ISR4700, ISR4200)
// as libibnetdisc decodes them for ibnetdiscover -g. Their chips name no
// slot: a chip's device ID says whether it is a spine (fabric board) or a
// line (leaf board), and the slot and chip follow from which port of the
// other kind it is cabled to inside the box; a CA or router module (any
// node that is no switch) takes a line slot from the spine port it meets.
// Pure functions of device IDs, port numbers and a spine's GUID;
// group_chassis (chassis.h) walks the links.
#pragma once

#include <cstdint>
#include <optional>

#include "lib/ib/chassis.h"

namespace rdma::ib {

inline constexpr uint32_t kVoltaireVendor = 0x0008f1;

bool voltaire_spine(uint16_t device_id);
bool voltaire_line(uint16_t device_id);

// The highest port of a chip that faces the other kind of chip inside
// the box (lines 12 or 18; the ISR4700 double spine 18), 0 for no limit.
unsigned voltaire_inner_ports(uint16_t device_id);

// A spine's place, from its own device and the port number of the line
// it is cabled to; nothing for a port no line slot uses.
std::optional<ChassisPlace> voltaire_spine_place(uint16_t spine_device, unsigned line_port);

// A line's place, from the device of the spine it is cabled to and that
// spine's port number.
std::optional<ChassisPlace> voltaire_line_place(uint16_t spine_device, unsigned spine_port);

// A CA or router module's place (slot kind Router, ibnetdiscover's
// "SRBD"), from the spine it is cabled to: the spine's device, its port
// and its node GUID (on the 12-chip spines libibnetdisc guesses the
// module's chip from where the spine's GUID falls among its board's
// three). Nothing for the ISR4700 and ISR4200 spines, which libibnetdisc
// has no module table for, or a port no line slot uses.
std::optional<ChassisPlace> voltaire_module_place(uint16_t spine_device, unsigned spine_port,
                                                  uint64_t spine_guid);

// Where a placed node goes among its chassis' lines (1-36) or spines
// (1-18), by its own device: boards with several chips take one position
// per chip (three a line slot). 0 for none. Any placed node goes where
// these say, whichever list it is put in, as libibnetdisc's does.
unsigned voltaire_line_position(uint16_t device_id, const ChassisPlace& p);
unsigned voltaire_spine_position(uint16_t device_id, const ChassisPlace& p);

// The faceplate port number of a chip's port, 0 for an inside one.
unsigned voltaire_external_port(uint16_t device_id, unsigned chip, unsigned port);

}  // namespace rdma::ib
