// The attributes this tool decodes, one table each (attrs_smp.cc,
// attrs_perf.cc, attrs_sa.cc).
#pragma once

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
// Performance management.
extern const AttrDef kClassPortInfo;  // any class; the tables are the same
extern const AttrDef kPortCounters;
extern const AttrDef kPortCountersExtended;
// Subnet administration.
extern const AttrDef kPathRecord;

// Every attribute `rdma mad get` knows, in help order.
std::span<const AttrDef* const> all_attrs();

// The attribute whose name the word abbreviates (case-blind), or whose id
// the word is (decimal or 0x hex; SMP and PMA attributes, one only), or an
// Error listing the names.
const AttrDef& find_attr(std::string_view word);

// The attribute with this id in this class (directed route SMPs count as
// SMPs, ClassPortInfo is in every GMP class), or nullptr.
const AttrDef* attr_by_id(uint8_t mgmt_class, uint16_t id);

// Capability bits the commands test.
inline constexpr uint16_t kPmaCapAllPortSelect = 1 << 8;
inline constexpr uint32_t kPortCapExtendedSpeeds = 1u << 14;

}  // namespace rdma::mad
