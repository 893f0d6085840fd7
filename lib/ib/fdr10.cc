#include "lib/ib/fdr10.h"

#include "lib/mad/attrs.h"
#include "lib/mad/speed.h"

namespace rdma::ib {

namespace {

constexpr uint32_t kBull = 0x119f;

bool between(uint16_t v, uint16_t lo, uint16_t hi) {
  return v >= lo && v <= hi;
}

}  // namespace

// rdma-core's libibnetdisc/ibnetdisc.c, is_mlnx_ext_port_info_supported.
bool answers_mlnx_ext_port_info(uint32_t vendor, uint16_t dev) {
  // Switches: SwitchX, Switch-IB, Switch-IB 2, Quantum.
  if (between(dev, 0xc738, 0xc73b) || dev == 0xc839 || dev == 0xcb20 || dev == 0xcf08 ||
      dev == 0xcf09 || dev == 0xd2f0)
    return true;
  if (vendor == kBull && (dev == 0x1b02 || dev == 0x1b50 || dev == 0x1ba0 ||
                          between(dev, 0x1bd0, 0x1bd5) || dev == 0x1bf0))
    return true;
  // CAs: ConnectX-3 to ConnectX-8, Connect-IB, BlueField.
  if (between(dev, 0x1003, 0x101b) || dev == 0xa2d2) return true;
  return vendor == kBull &&
         (dev == 0x1b33 || dev == 0x1b73 || dev == 0x1b40 || dev == 0x1b41 || dev == 0x1b60 ||
          dev == 0x1b61 || dev == 0x1b83 || dev == 0x1b93 || dev == 0x1b94 || dev == 0x1bb4 ||
          dev == 0x1bb5 || between(dev, 0x1bc4, 0x1bc6));
}

bool may_be_fdr10(const PortInfo& port) {
  return port.phys_state == kPhysLinkUp &&
         mad::generation(port.speed_active, port.speed_ext_active, port.speed_ext2_active) ==
             mad::Generation::Qdr;
}

bool ask_fdr10(const NodeInfo& node, const PortInfo& port) {
  return may_be_fdr10(port) && answers_mlnx_ext_port_info(node.vendor_id, node.device_id);
}

uint8_t mlnx_speed_active(std::span<const uint8_t> attr) {
  return static_cast<uint8_t>(mad::get_field(mad::kMlnxExtPortInfo, attr, "LinkSpeedActive"));
}

uint8_t mlnx_speed_supported(std::span<const uint8_t> attr) {
  return static_cast<uint8_t>(mad::get_field(mad::kMlnxExtPortInfo, attr, "LinkSpeedSupported"));
}

}  // namespace rdma::ib
