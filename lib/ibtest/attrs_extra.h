// Attributes the double answers that lib/mad has no table for yet (IBA vol 1
// 14.2.5.10 and 15.2.5). TO MOVE into lib/mad/attrs_*.cc once the fabric
// commands decode them; the field names are the IBA's.
#pragma once

#include <cstdint>

#include "lib/mad/field.h"

namespace rdma::ibtest {

// SMP: 64 output ports, AttributeModifier = block (LIDs 64*block ...).
extern const mad::AttrDef kLinearForwardingTable;

// SA records. Each starts with its own fields; the attribute it carries
// follows at the byte offset given here.
extern const mad::AttrDef kNodeRecord;  // LID; NodeInfo at 8, NodeDescription at 48
inline constexpr size_t kNodeRecordNodeInfo = 8, kNodeRecordNodeDesc = 48;
extern const mad::AttrDef kPortInfoRecord;  // EndportLID, PortNum; PortInfo at 4
inline constexpr size_t kPortInfoRecordPortInfo = 4;
extern const mad::AttrDef kSwitchInfoRecord;  // LID; SwitchInfo at 4
inline constexpr size_t kSwitchInfoRecordSwitchInfo = 4;
extern const mad::AttrDef kLftRecord;  // LID, BlockNum; 64 ports at 8
inline constexpr size_t kLftRecordBlock = 8;
extern const mad::AttrDef kSmInfoRecord;  // LID; SMInfo at 4
inline constexpr size_t kSmInfoRecordSmInfo = 4;
extern const mad::AttrDef kLinkRecord;  // FromLID, FromPort, ToPort, ToLID

// SA methods (15.2.2).
inline constexpr uint8_t kSaGetTable = 0x12;
inline constexpr uint8_t kSaGetTableResp = 0x92;
// SA statuses (class-specific, bits 8-15 of Status).
inline constexpr uint16_t kSaNoRecords = 3 << 8;
inline constexpr uint16_t kSaTooManyRecords = 4 << 8;
// MAD statuses (13.4.7).
inline constexpr uint16_t kStatusBadVersion = 1 << 2;
inline constexpr uint16_t kStatusBadMethod = 2 << 2;
inline constexpr uint16_t kStatusBadMethodAttr = 3 << 2;
inline constexpr uint16_t kStatusBadField = 7 << 2;

// RMPP header fields (13.6.2.1) lib/mad's header lacks.
inline constexpr mad::FieldDef kRmppSegment{"SegmentNumber", "segment", 224, 32};
inline constexpr mad::FieldDef kRmppPayload{"PayloadLength", "paylen_newwin", 256, 32};
inline constexpr uint8_t kRmppData = 1, kRmppAck = 2;
inline constexpr uint8_t kRmppActive = 1, kRmppFirst = 2, kRmppLast = 4;

}  // namespace rdma::ibtest
