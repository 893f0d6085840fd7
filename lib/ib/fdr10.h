// FDR10: when to ask a port the vendor's MlnxExtPortInfo, which alone tells
// FDR10 from QDR, as libibnetdisc (so iblinkinfo) does, and what it says.
#pragma once

#include <cstdint>
#include <span>

#include "lib/ib/smp.h"

namespace rdma::ib {

// The devices libibnetdisc asks MlnxExtPortInfo (its
// is_mlnx_ext_port_info_supported): Mellanox switches and CAs by device ID,
// Bull's by vendor and device ID.
bool answers_mlnx_ext_port_info(uint32_t vendor_id, uint16_t device_id);

// A port whose link is up (LinkUp) at QDR with no extended speed: what an
// FDR10 link reads as in PortInfo.
bool may_be_fdr10(const PortInfo& port);

// Whether the port should be asked: such a port of a device that answers.
bool ask_fdr10(const NodeInfo& node, const PortInfo& port);

// MlnxExtPortInfo's LinkSpeedActive and LinkSpeedSupported from the
// attribute's bytes.
uint8_t mlnx_speed_active(std::span<const uint8_t> mlnx_ext_port_info);
uint8_t mlnx_speed_supported(std::span<const uint8_t> mlnx_ext_port_info);

}  // namespace rdma::ib
