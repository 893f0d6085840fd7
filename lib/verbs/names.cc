#include "lib/verbs/names.h"

#include <infiniband/verbs.h>

#include <cinttypes>
#include <cstdio>
#include <iterator>
#include <string>

#include "lib/verbs/verbs.h"

namespace rdma::verbs {

const char* transport_name(int t) {
  switch (t) {
    case IBV_TRANSPORT_IB:
      return "InfiniBand";
    case IBV_TRANSPORT_IWARP:
      return "iWARP";
    case IBV_TRANSPORT_USNIC:
      return "usNIC";
    case IBV_TRANSPORT_USNIC_UDP:
      return "usNIC_UDP";
    case IBV_TRANSPORT_UNSPECIFIED:
      return "unspecified";
    default:
      return "invalid";
  }
}

const char* atomic_cap_name(int a) {
  switch (a) {
    case IBV_ATOMIC_NONE:
      return "ATOMIC_NONE";
    case IBV_ATOMIC_HCA:
      return "ATOMIC_HCA";
    case IBV_ATOMIC_GLOB:
      return "ATOMIC_GLOB";
    default:
      return "invalid";
  }
}

const char* mtu_name(int m) {
  switch (m) {
    case IBV_MTU_256:
      return "256";
    case IBV_MTU_512:
      return "512";
    case IBV_MTU_1024:
      return "1024";
    case IBV_MTU_2048:
      return "2048";
    case IBV_MTU_4096:
      return "4096";
    default:
      return "invalid";
  }
}

const char* width_name(uint8_t w) {
  switch (w) {
    case 1:
      return "1X";
    case 2:
      return "4X";
    case 4:
      return "8X";
    case 8:
      return "12X";
    case 16:
      return "2X";
    default:
      return "invalid";
  }
}

// Per lane, as the IB speeds SDR..NDR: 8 is FDR10 (10 Gb/s, 64b/66b).
const char* speed_name(uint8_t s) {
  switch (s) {
    case 1:
      return "2.5";
    case 2:
      return "5.0";
    case 4:
      return "10.0";
    case 8:
      return "10.0";
    case 16:
      return "14.0";
    case 32:
      return "25.0";
    case 64:
      return "50.0";
    case 128:
      return "100.0";
    default:
      return "invalid";
  }
}

const char* port_state_name(int s) {
  switch (s) {
    case IBV_PORT_NOP:
      return "NOP";
    case IBV_PORT_DOWN:
      return "DOWN";
    case IBV_PORT_INIT:
      return "INIT";
    case IBV_PORT_ARMED:
      return "ARMED";
    case IBV_PORT_ACTIVE:
      return "ACTIVE";
    case IBV_PORT_ACTIVE_DEFER:
      return "ACTIVE_DEFER";
    default:
      return "invalid";
  }
}

const char* phys_state_name(uint8_t s) {
  switch (s) {
    case 0:
      return "NOP";
    case 1:
      return "SLEEP";
    case 2:
      return "POLLING";
    case 3:
      return "DISABLED";
    case 4:
      return "PORT_CONFIGURATION_TRAINING";
    case 5:
      return "LINK_UP";
    case 6:
      return "LINK_ERROR_RECOVERY";
    case 7:
      return "PHY_TEST";
    default:
      return "invalid";
  }
}

const char* link_layer_name(uint8_t l) {
  switch (l) {
    case IBV_LINK_LAYER_UNSPECIFIED:
    case IBV_LINK_LAYER_INFINIBAND:
      return "InfiniBand";
    case IBV_LINK_LAYER_ETHERNET:
      return "Ethernet";
    default:
      return "Unknown";
  }
}

const char* vl_name(uint8_t v) {
  switch (v) {
    case 1:
      return "1";
    case 2:
      return "2";
    case 3:
      return "4";
    case 4:
      return "8";
    case 5:
      return "15";
    default:
      return "invalid";
  }
}

view::Json flag_names(uint64_t v, const Flag* flags, size_t n) {
  view::Json out = view::Json::array();
  for (size_t i = 0; i < n; ++i) {
    if (!(v & flags[i].bit)) continue;
    out.push_back(flags[i].name);
    v &= ~flags[i].bit;
  }
  if (v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%" PRIX64, v);
    out.push_back(buf);
  }
  return out;
}

std::string flag_text(const view::Json& names) {
  std::string s = "<";
  for (size_t i = 0; i < names.size(); ++i) {
    if (i) s += ", ";
    s += names[i].get<std::string>();
  }
  return s + ">";
}

const Flag kDeviceCapFlags[24] = {
    {IBV_DEVICE_RESIZE_MAX_WR, "RESIZE_MAX_WR"},
    {IBV_DEVICE_BAD_PKEY_CNTR, "BAD_PKEY_CNTR"},
    {IBV_DEVICE_BAD_QKEY_CNTR, "BAD_QKEY_CNTR"},
    {IBV_DEVICE_RAW_MULTI, "RAW_MULTI"},
    {IBV_DEVICE_AUTO_PATH_MIG, "AUTO_PATH_MIG"},
    {IBV_DEVICE_CHANGE_PHY_PORT, "CHANGE_PHY_PORT"},
    {IBV_DEVICE_UD_AV_PORT_ENFORCE, "UD_AV_PORT_ENFORCE"},
    {IBV_DEVICE_CURR_QP_STATE_MOD, "CURR_QP_STATE_MOD"},
    {IBV_DEVICE_SHUTDOWN_PORT, "SHUTDOWN_PORT"},
    {IBV_DEVICE_INIT_TYPE, "INIT_TYPE"},
    {IBV_DEVICE_PORT_ACTIVE_EVENT, "PORT_ACTIVE_EVENT"},
    {IBV_DEVICE_SYS_IMAGE_GUID, "SYS_IMAGE_GUID"},
    {IBV_DEVICE_RC_RNR_NAK_GEN, "RC_RNR_NAK_GEN"},
    {IBV_DEVICE_SRQ_RESIZE, "SRQ_RESIZE"},
    {IBV_DEVICE_N_NOTIFY_CQ, "N_NOTIFY_CQ"},
    {IBV_DEVICE_MEM_WINDOW, "MEM_WINDOW"},
    {IBV_DEVICE_UD_IP_CSUM, "UD_IP_CSUM"},
    {IBV_DEVICE_XRC, "XRC"},
    {IBV_DEVICE_MEM_MGT_EXTENSIONS, "MEM_MGT_EXTENSIONS"},
    {IBV_DEVICE_MEM_WINDOW_TYPE_2A, "MEM_WINDOW_TYPE_2A"},
    {IBV_DEVICE_MEM_WINDOW_TYPE_2B, "MEM_WINDOW_TYPE_2B"},
    {IBV_DEVICE_RC_IP_CSUM, "RC_IP_CSUM"},
    {IBV_DEVICE_RAW_IP_CSUM, "RAW_IP_CSUM"},
    {IBV_DEVICE_MANAGED_FLOW_STEERING, "MANAGED_FLOW_STEERING"},
};

const Flag kDeviceCapFlagsEx[2] = {
    {IBV_DEVICE_RAW_SCATTER_FCS, "RAW_SCATTER_FCS"},
    {IBV_DEVICE_PCI_WRITE_END_PADDING, "PCI_WRITE_END_PADDING"},
};

const Flag kOdpGeneralCaps[2] = {
    {IBV_ODP_SUPPORT, "ODP_SUPPORT"},
    {IBV_ODP_SUPPORT_IMPLICIT, "ODP_SUPPORT_IMPLICIT"},
};

const Flag kOdpTransportCaps[6] = {
    {IBV_ODP_SUPPORT_SEND, "SUPPORT_SEND"},     {IBV_ODP_SUPPORT_RECV, "SUPPORT_RECV"},
    {IBV_ODP_SUPPORT_WRITE, "SUPPORT_WRITE"},   {IBV_ODP_SUPPORT_READ, "SUPPORT_READ"},
    {IBV_ODP_SUPPORT_ATOMIC, "SUPPORT_ATOMIC"}, {IBV_ODP_SUPPORT_SRQ_RECV, "SUPPORT_SRQ"},
};

const Flag kRawPacketCaps[4] = {
    {IBV_RAW_PACKET_CAP_CVLAN_STRIPPING, "CVLAN_STRIPPING"},
    {IBV_RAW_PACKET_CAP_SCATTER_FCS, "SCATTER_FCS"},
    {IBV_RAW_PACKET_CAP_IP_CSUM, "IP_CSUM"},
    {IBV_RAW_PACKET_CAP_DELAY_DROP, "DELAY_DROP"},
};

const Flag kSupportedQpts[2] = {
    {1u << IBV_QPT_RAW_PACKET, "SUPPORT_RAW_PACKET"},
    {1u << IBV_QPT_UD, "SUPPORT_UD"},
};

const Flag kTmCaps[1] = {{IBV_TM_CAP_RC, "IBV_TM_CAP_RC"}};

std::string async_event_name(int type) {
  static constexpr const char* kNames[] = {
      "CQ_ERR",
      "QP_FATAL",
      "QP_REQ_ERR",
      "QP_ACCESS_ERR",
      "COMM_EST",
      "SQ_DRAINED",
      "PATH_MIG",
      "PATH_MIG_ERR",
      "DEVICE_FATAL",
      "PORT_ACTIVE",
      "PORT_ERR",
      "LID_CHANGE",
      "PKEY_CHANGE",
      "SM_CHANGE",
      "SRQ_ERR",
      "SRQ_LIMIT_REACHED",
      "QP_LAST_WQE_REACHED",
      "CLIENT_REREGISTER",
      "GID_CHANGE",
      "WQ_FATAL",
      "DEVICE_SPEED_CHANGE",
  };
  static_assert(std::size(kNames) == kEventDeviceSpeedChange + 1);
  if (type >= 0 && static_cast<size_t>(type) < std::size(kNames)) return kNames[type];
  return "EVENT_" + std::to_string(type);
}

bool is_port_event(int type) {
  switch (type) {
    case IBV_EVENT_PORT_ACTIVE:
    case IBV_EVENT_PORT_ERR:
    case IBV_EVENT_LID_CHANGE:
    case IBV_EVENT_PKEY_CHANGE:
    case IBV_EVENT_SM_CHANGE:
    case IBV_EVENT_CLIENT_REREGISTER:
    case IBV_EVENT_GID_CHANGE:
    case kEventDeviceSpeedChange:  // libibverbs sets port_num (its default case)
      return true;
    default:
      return false;
  }
}

}  // namespace rdma::verbs
