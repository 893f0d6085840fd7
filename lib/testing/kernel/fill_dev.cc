// Devices, ports and the resource summary (fill_dev_info, fill_port_info,
// fill_res_info).
#include <cerrno>

#include "lib/nl/nldev.h"
#include "lib/testing/kernel/fill.h"

namespace rdma::testkernel {

int fill_nldev_handle(Skb& skb, const Device& dev) {
  if (!skb.put_u32(RDMA_NLDEV_ATTR_DEV_INDEX, dev.index)) return -EMSGSIZE;
  if (!skb.put_string(RDMA_NLDEV_ATTR_DEV_NAME, dev.name)) return -EMSGSIZE;
  return 0;
}

static const char* protocol_name(Protocol p) {
  switch (p) {
    case Protocol::kOpa:
      return "opa";
    case Protocol::kIb:
      return "ib";
    case Protocol::kIwarp:
      return "iw";
    case Protocol::kRoce:
      return "roce";
    case Protocol::kUsnic:
      return "usnic";
  }
  return "";
}

int fill_dev_info(Skb& skb, const Device& dev, KernelVersion v) {
  if (fill_nldev_handle(skb, dev)) return -EMSGSIZE;
  // rdma_end_port(): the number of the last port.
  if (!skb.put_u32(RDMA_NLDEV_ATTR_PORT_INDEX, static_cast<uint32_t>(dev.ports.size())))
    return -EMSGSIZE;
  if (!skb.put_u64(RDMA_NLDEV_ATTR_CAP_FLAGS, dev.cap_flags, RDMA_NLDEV_ATTR_PAD)) return -EMSGSIZE;
  if (!dev.fw.empty() && !skb.put_string(RDMA_NLDEV_ATTR_FW_VERSION, dev.fw)) return -EMSGSIZE;
  if (!skb.put_u64(RDMA_NLDEV_ATTR_NODE_GUID, dev.node_guid, RDMA_NLDEV_ATTR_PAD)) return -EMSGSIZE;
  if (!skb.put_u64(RDMA_NLDEV_ATTR_SYS_IMAGE_GUID, dev.sys_image_guid, RDMA_NLDEV_ATTR_PAD))
    return -EMSGSIZE;
  if (!skb.put_u8(RDMA_NLDEV_ATTR_DEV_NODE_TYPE, dev.node_type)) return -EMSGSIZE;
  if (!skb.put_u8(RDMA_NLDEV_ATTR_DEV_DIM, dev.use_cq_dim)) return -EMSGSIZE;
  if (v >= KernelVersion::k6_12) {
    if (dev.dev_type && !skb.put_u8(nldev::kAttrDevType, dev.dev_type)) return -EMSGSIZE;
    if (!dev.parent.empty() && !skb.put_string(nldev::kAttrParentName, dev.parent))
      return -EMSGSIZE;
    if (!skb.put_u8(nldev::kAttrNameAssignType, dev.name_assign_type)) return -EMSGSIZE;
  }
  // A device without ports has no protocol (nothing matches its port 1).
  if (dev.ports.empty()) return 0;
  return skb.put_string(RDMA_NLDEV_ATTR_DEV_PROTOCOL, protocol_name(dev.protocol)) ? 0 : -EMSGSIZE;
}

int fill_port_info(Skb& skb, const Device& dev, uint32_t port) {
  if (fill_nldev_handle(skb, dev)) return -EMSGSIZE;
  if (!skb.put_u32(RDMA_NLDEV_ATTR_PORT_INDEX, port)) return -EMSGSIZE;
  const Port& p = dev.ports[port - 1];
  if (dev.protocol == Protocol::kIb || dev.protocol == Protocol::kOpa) {
    uint64_t cap = p.port_cap_flags | (static_cast<uint64_t>(p.port_cap_flags2) << 32);
    if (!skb.put_u64(RDMA_NLDEV_ATTR_CAP_FLAGS, cap, RDMA_NLDEV_ATTR_PAD)) return -EMSGSIZE;
    if (!skb.put_u64(RDMA_NLDEV_ATTR_SUBNET_PREFIX, p.subnet_prefix, RDMA_NLDEV_ATTR_PAD))
      return -EMSGSIZE;
    if (!skb.put_u32(RDMA_NLDEV_ATTR_LID, p.lid)) return -EMSGSIZE;
    if (!skb.put_u32(RDMA_NLDEV_ATTR_SM_LID, p.sm_lid)) return -EMSGSIZE;
    if (!skb.put_u8(RDMA_NLDEV_ATTR_LMC, p.lmc)) return -EMSGSIZE;
  }
  if (!skb.put_u8(RDMA_NLDEV_ATTR_PORT_STATE, p.state)) return -EMSGSIZE;
  if (!skb.put_u8(RDMA_NLDEV_ATTR_PORT_PHYS_STATE, p.phys_state)) return -EMSGSIZE;
  if (p.netdev) {
    if (!skb.put_u32(RDMA_NLDEV_ATTR_NDEV_INDEX, p.netdev->ifindex)) return -EMSGSIZE;
    if (!skb.put_string(RDMA_NLDEV_ATTR_NDEV_NAME, p.netdev->name)) return -EMSGSIZE;
  }
  return 0;
}

template <typename T>
static uint64_t count(const ResTable<T>& t, bool show_details) {
  if (show_details) return t.size();
  uint64_t n = t.generated;  // generated entries are never driver-detail ones
  for (const T& r : t.items) n += !r.driver_detail;
  return n;
}

// max: the device's limit, put after CURR when non-zero (kNext).
static int fill_res_info_entry(Skb& skb, const char* name, uint64_t curr, uint64_t max) {
  size_t entry = skb.nest_start(RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY, false);
  if (entry == Skb::kNoRoom) return -EMSGSIZE;
  if (!skb.put_string(RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME, name) ||
      !skb.put_u64(RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR, curr, RDMA_NLDEV_ATTR_PAD) ||
      (max && !skb.put_u64(nldev::kAttrResSummaryEntryMax, max, RDMA_NLDEV_ATTR_PAD))) {
    skb.truncate(entry);
    return -EMSGSIZE;
  }
  skb.nest_end(entry);
  return 0;
}

int fill_res_info(Skb& skb, const Device& dev, bool show_details, bool with_max) {
  if (fill_nldev_handle(skb, dev)) return -EMSGSIZE;
  size_t table = skb.nest_start(RDMA_NLDEV_ATTR_RES_SUMMARY, false);
  if (table == Skb::kNoRoom) return -EMSGSIZE;
  // enum rdma_restrack_type order; counters have no summary name.
  // The kernel counts into an int: the value is truncated to 32 bits and
  // sign-extended.
  auto curr = [](uint64_t n) { return static_cast<uint64_t>(static_cast<int>(n)); };
  // Limits exist for pd, cq, qp, mr and srq; cm_id and ctx have none.
  auto max = [with_max](uint64_t m) { return with_max ? m : 0; };
  const Device::Limits& l = dev.limits;
  if (fill_res_info_entry(skb, "pd", curr(count(dev.pds, show_details)), max(l.pd)) ||
      fill_res_info_entry(skb, "cq", curr(count(dev.cqs, show_details)), max(l.cq)) ||
      fill_res_info_entry(skb, "qp", curr(count(dev.qps, show_details)), max(l.qp)) ||
      fill_res_info_entry(skb, "cm_id", curr(count(dev.cm_ids, show_details)), 0) ||
      fill_res_info_entry(skb, "mr", curr(count(dev.mrs, show_details)), max(l.mr)) ||
      fill_res_info_entry(skb, "ctx", curr(count(dev.ctxs, show_details)), 0) ||
      fill_res_info_entry(skb, "srq", curr(count(dev.srqs, show_details)), max(l.srq))) {
    skb.truncate(table);
    return -EMSGSIZE;
  }
  skb.nest_end(table);
  return 0;
}

}  // namespace rdma::testkernel
