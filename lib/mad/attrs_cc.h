// Congestion control attributes (IBA vol 1, annex A10; class 0x21, class
// version 2), as ibccquery reads and ibccconfig writes them. A CC MAD
// carries the CC_Key after the common header and its attribute at byte 64,
// except CongestionLog, whose data starts at byte 32 (cc_data_offset).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "lib/mad/field.h"

namespace rdma::mad {

inline constexpr uint8_t kClassCc = 0x21;
inline constexpr uint8_t kClassCcVersion = 2;

namespace hdr {
// The CC_Key, after the common header (A10.4.1).
inline constexpr FieldDef kCcKey{"CC_Key", "cc_key", 192, 64, Fmt::Key};
}  // namespace hdr

extern const AttrDef kCongestionInfo;
extern const AttrDef kCongestionKeyInfo;
// CongestionLog: one id, two layouts by LogType (1 switch, 2 CA).
extern const AttrDef kCongestionLogSwitch;
extern const AttrDef kCongestionLogCa;
extern const AttrDef kSwitchCongestionSetting;
// 48 ports a block: AttributeModifier = port / 48.
extern const AttrDef kSwitchPortCongestionSetting;
// Per SL: the table's elements are SL 0-15.
extern const AttrDef kCACongestionSetting;
// 64 entries a block after CCTI_Limit: AttributeModifier = block.
extern const AttrDef kCongestionControlTable;
extern const AttrDef kTimestamp;

// Where a CC attribute's data starts in the MAD.
size_t cc_data_offset(uint16_t attr_id);

// The CC attributes, in help order (CongestionLog as its switch layout),
// the class's ClassPortInfo last.
std::span<const AttrDef* const> cc_attrs();

// The attribute a word names: a name or any prefix of it (case-blind), or
// ibccquery's two-letter code (CI, CK, CL, SS, SP, CS, CT, TI, CP); nullptr
// when none.
const AttrDef* find_cc_attr(std::string_view word);

}  // namespace rdma::mad
