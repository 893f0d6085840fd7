// Congestion control (IBA annex A10) as ibccquery reads and ibccconfig
// writes it: each MAD carries the CC_Key, the attribute's data where its
// layout puts it, tables in blocks. The front end (rdma cc) names the
// attribute and the fields; the wire is here.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "lib/ib/client.h"
#include "lib/mad/assign.h"
#include "lib/mad/field.h"

namespace rdma::ib {

// SwitchPortCongestionSetting holds 48 ports a block: the block (the
// AttributeModifier) a port is in, and its element there.
uint32_t cc_port_block(unsigned port);
unsigned cc_port_element(unsigned port);

// The attribute cc show reads when none is named: CongestionInfo.
const mad::AttrDef& cc_default_attr();

// Whether the attribute's blocks hold one element a port, which `port N`
// names: SwitchPortCongestionSetting.
bool cc_has_ports(const mad::AttrDef& a);

// Whether the attribute is read and written in blocks (AttributeModifier
// = block): SwitchPortCongestionSetting and CongestionControlTable.
bool cc_has_blocks(const mad::AttrDef& a);

// Whether the attribute is only read (CongestionInfo, CongestionLog,
// Timestamp, ClassPortInfo).
bool cc_read_only(const mad::AttrDef& a);

// A CC attribute's data from the agent at lid, block mod (0: none), asked
// with key. Throws MadError as the engine does.
std::vector<uint8_t> cc_get(MadClient& c, uint16_t lid, const mad::AttrDef& a, uint32_t mod,
                            uint64_t key);

// Reads the attribute, stores the changes in it, writes it back; the
// data of the Set's answer.
std::vector<uint8_t> cc_change(MadClient& c, uint16_t lid, const mad::AttrDef& a, uint32_t mod,
                               uint64_t key, std::span<const mad::Assignment> changes);

// The layout data has: CongestionLog's switch layout reads as the CA's
// when its LogType says so; any other attribute as it is.
const mad::AttrDef& cc_layout(const mad::AttrDef& a, std::span<const uint8_t> data);

}  // namespace rdma::ib
