// The attributes this tool decodes, one table each (attrs_smp.cc,
// attrs_perf.cc, attrs_sa.cc).
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string_view>

#include "lib/mad/field.h"

namespace rdma::mad {

// Subnet management (SMPs).
extern const AttrDef kNodeDescription;
extern const AttrDef kNodeInfo;
extern const AttrDef kSwitchInfo;
extern const AttrDef kGuidInfo;
extern const AttrDef kPortInfo;
extern const AttrDef kPKeyTable;
extern const AttrDef kSl2VlTable;
extern const AttrDef kVlArbTable;
extern const AttrDef kSmInfo;
// The vendor's (Mellanox) port attribute that tells FDR10 from QDR
// (smpquery's mlnxextportinfo); discovery asks it only where lib/ib/fdr10.h
// says.
extern const AttrDef kMlnxExtPortInfo;
// 64 output ports, AttributeModifier = block (LIDs 64*block ...).
extern const AttrDef kLinearForwardingTable;
// 32 MLIDs x 16 ports, AttributeModifier = position << 28 | block.
extern const AttrDef kMulticastForwardingTable;
// Performance management.
extern const AttrDef kClassPortInfo;  // any class; the tables are the same
extern const AttrDef kPortCounters;
extern const AttrDef kPortCountersExtended;
// The counters a PortCounters Set clears, by CounterSelect bit (IBA
// 16.1.3.5): bits 0-11 the error counters, 12-15 the traffic counters
// (CounterSelect2 bit 0 is PortXmitWait); and PortCountersExtended's.
std::span<const char* const> port_counters_select();
std::span<const char* const> port_counters_ext_select();
// Subnet administration.
extern const AttrDef kPathRecord;
// Records that carry an SMP attribute: their own fields first, the
// attribute at the byte offset given here.
extern const AttrDef kNodeRecord;  // LID; NodeInfo at 4, NodeDescription at 44
inline constexpr size_t kNodeRecordNodeInfo = 4, kNodeRecordNodeDesc = 44;
extern const AttrDef kPortInfoRecord;  // EndportLID, PortNum; PortInfo at 4
inline constexpr size_t kPortInfoRecordPortInfo = 4;
extern const AttrDef kSwitchInfoRecord;  // LID; SwitchInfo at 4
inline constexpr size_t kSwitchInfoRecordSwitchInfo = 4;
extern const AttrDef kLftRecord;  // LID, BlockNum; 64 ports at 8
inline constexpr size_t kLftRecordBlock = 8;
extern const AttrDef kSmInfoRecord;  // LID; SMInfo at 4
inline constexpr size_t kSmInfoRecordSmInfo = 4;
extern const AttrDef kLinkRecord;  // FromLID, FromPort, ToPort, ToLID
extern const AttrDef kServiceRecord;
extern const AttrDef kMcMemberRecord;
// Records of an SMP table's block, the block at byte 8.
inline constexpr size_t kTableRecordBlock = 8;
extern const AttrDef kGuidInfoRecord;   // LID, BlockNum; GUIDInfo
extern const AttrDef kPKeyTableRecord;  // LID, BlockNum, PortNum; P_KeyTable
extern const AttrDef kSl2VlRecord;      // LID, InputPortNum, OutputPortNum; SLtoVLMappingTable
extern const AttrDef kVlArbRecord;      // LID, OutputPortNum, BlockNum; VLArbitrationTable

// The ComponentMask bit (IBA 15.2.5) of rec's field called name, or -1
// for a field no query here selects on; component_mask: the bits of the
// fields named (Error for one without a bit: a bug).
int component_bit(const AttrDef& rec, std::string_view name);
uint64_t component_mask(const AttrDef& rec, std::initializer_list<std::string_view> names);

// Every attribute `rdma mad get` knows, in help order.
std::span<const AttrDef* const> all_attrs();

// The attribute whose name the word abbreviates (case-blind), or whose id
// the word is (decimal or 0x hex; SMP and PMA attributes, one only), or a
// UsageError listing the names (the word is one the user typed).
const AttrDef& find_attr(std::string_view word);

// The attribute with this id in this class (directed route SMPs count as
// SMPs, ClassPortInfo is in every GMP class), or nullptr.
const AttrDef* attr_by_id(uint8_t mgmt_class, uint16_t id);

// Capability bits the commands test.
inline constexpr uint16_t kPmaCapAllPortSelect = 1 << 8;

}  // namespace rdma::mad
