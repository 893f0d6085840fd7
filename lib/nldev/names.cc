#include "lib/nldev/names.h"

#include <iterator>

namespace rdma::nldev {

namespace {
template <size_t N>
const char* lookup(const char* const (&names)[N], unsigned i, const char* fallback) {
  return i < N && names[i] ? names[i] : fallback;
}
}  // namespace

const char* node_type_name(uint8_t v) {
  static const char* const names[] = {"unknown", "ca",    "switch",    "router",
                                      "rnic",    "usnic", "usnic_udp", "unspecified"};
  return lookup(names, v, "unknown");
}

const char* port_state_name(uint8_t v) {
  static const char* const names[] = {"NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER"};
  return lookup(names, v, "UNKNOWN");
}

const char* phys_state_name(uint8_t v) {
  static const char* const names[] = {
      "NOP",      "SLEEP",   "POLLING",     "DISABLED", "ARMED",   "LINK_UP", "LINK_ERROR_RECOVER",
      "PHY_TEST", "UNKNOWN", "OPA_OFFLINE", "UNKNOWN",  "OPA_TEST"};
  return lookup(names, v, "UNKNOWN");
}

// Bits 0-31 and 32-36 of ib_device_cap_flags, with the spelling of iproute2.
const char* dev_cap_name(unsigned bit) {
  static const char* const names[64] = {
      "RESIZE_MAX_WR", "BAD_PKEY_CNTR", "BAD_QKEY_CNTR", "RAW_MULTI", "AUTO_PATH_MIG",
      "CHANGE_PHY_PORT", "UD_AV_PORT_ENFORCE_PORT_ENFORCE", "CURR_QP_STATE_MOD", "SHUTDOWN_PORT",
      "INIT_TYPE", "PORT_ACTIVE_EVENT", "SYS_IMAGE_GUID", "RC_RNR_NAK_GEN", "SRQ_RESIZE",
      "N_NOTIFY_CQ", "LOCAL_DMA_LKEY", nullptr, "MEM_WINDOW", "UD_IP_CSUM", "UD_TSO", "XRC",
      "MEM_MGT_EXTENSIONS", "BLOCK_MULTICAST_LOOPBACK", "MEM_WINDOW_TYPE_2A", "MEM_WINDOW_TYPE_2B",
      "RC_IP_CSUM", "RAW_IP_CSUM", "CROSS_CHANNEL", nullptr, "MANAGED_FLOW_STEERING",
      "SIGNATURE_HANDOVER", "ON_DEMAND_PAGING",
      // The high word: iproute2 indexes it right after the low table's
      // last named bit (31), so bit 32 is SG_GAPS_REG.
      "SG_GAPS_REG", "VIRTUAL_FUNCTION", "RAW_SCATTER_FCS", "RDMA_NETDEV_OPA_VNIC",
      "PCI_WRITE_END_PADDING"};
  return lookup(names, bit, "UNKNOWN");
}

const char* port_cap_name(unsigned bit) {
  static const char* const names[] = {nullptr,
                                      "SM",
                                      "NOTICE",
                                      "TRAP",
                                      "OPT_IPD",
                                      "AUTO_MIGR",
                                      "SL_MAP",
                                      "MKEY_NVRAM",
                                      "PKEY_NVRAM",
                                      "LED_INFO",
                                      "SM_DISABLED",
                                      "SYS_IMAGE_GUID",
                                      "PKEY_SW_EXT_PORT_TRAP",
                                      nullptr,
                                      "EXTENDED_SPEEDS",
                                      nullptr,
                                      "CM",
                                      "SNMP_TUNNEL",
                                      "REINIT",
                                      "DEVICE_MGMT",
                                      "VENDOR_CLASS",
                                      "DR_NOTICE",
                                      "CAP_MASK_NOTICE",
                                      "BOOT_MGMT",
                                      "LINK_LATENCY",
                                      "CLIENT_REG",
                                      "IP_BASED_GIDS"};
  return lookup(names, bit, "UNKNOWN");
}

}  // namespace rdma::nldev
