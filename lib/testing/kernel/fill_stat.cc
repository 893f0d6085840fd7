// Statistic entries: QP counters (fill_res_counter_entry), MR statistics
// (fill_stat_mr_entry) and hardware counter entries.
#include <cerrno>

#include "lib/testing/kernel/fill.h"

namespace rdma::testkernel {
namespace {

int fill_stat_counter_mode(Skb& skb, const StatCounter& c) {
  if (!skb.put_u32(RDMA_NLDEV_ATTR_STAT_MODE, c.mode)) return kEmsg;
  if (c.mode == RDMA_COUNTER_MODE_AUTO) {
    if ((c.mask & RDMA_COUNTER_MASK_QP_TYPE) && !skb.put_u8(RDMA_NLDEV_ATTR_RES_TYPE, c.qp_type))
      return kEmsg;
    if (c.mask & RDMA_COUNTER_MASK_PID) {
      if (c.owner.kernel()) {
        if (!skb.put_string(RDMA_NLDEV_ATTR_RES_KERN_NAME, c.owner.kern_name)) return kEmsg;
      } else if (c.owner.pid && !skb.put_u32(RDMA_NLDEV_ATTR_RES_PID, c.owner.pid)) {
        return kEmsg;
      }
    }
  }
  return 0;
}

int fill_stat_counter_qps(Skb& skb, const Device& dev, const StatCounter& c) {
  size_t table = skb.nest_start(RDMA_NLDEV_ATTR_RES_QP, true);
  if (table == Skb::kNoRoom) return kEmsg;
  for (size_t i = 0; i < dev.qps.size(); ++i) {
    Qp qp = dev.qps.at(i);
    if (!qp.counter_id || *qp.counter_id != c.id) continue;
    size_t entry = skb.nest_start(RDMA_NLDEV_ATTR_RES_QP_ENTRY, true);
    if (entry == Skb::kNoRoom || !skb.put_u32(RDMA_NLDEV_ATTR_RES_LQPN, qp.qp_num)) {
      skb.truncate(table);
      return kEmsg;
    }
    skb.nest_end(entry);
  }
  skb.nest_end(table);
  return 0;
}

int fill_stat_counter_hwcounters(Skb& skb, const StatCounter& c) {
  size_t table = skb.nest_start(RDMA_NLDEV_ATTR_STAT_HWCOUNTERS, true);
  if (table == Skb::kNoRoom) return kEmsg;
  for (const HwCounter& h : c.counters) {
    if (!h.enabled) continue;
    if (fill_hwcounter_entry(skb, h.name, h.value)) {
      skb.truncate(table);
      return kEmsg;
    }
  }
  skb.nest_end(table);
  return 0;
}

}  // namespace

int fill_hwcounter_entry(Skb& skb, const std::string& name, uint64_t value) {
  size_t entry = skb.nest_start(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY, true);
  if (entry == Skb::kNoRoom) return kEmsg;
  if (!skb.put_string(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, name) ||
      !skb.put_u64(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE, value, RDMA_NLDEV_ATTR_PAD)) {
    skb.truncate(entry);
    return kEmsg;
  }
  skb.nest_end(entry);
  return 0;
}

int fill_res_counter_entry(Skb& skb, bool, const Device& dev, const StatCounter& c, uint32_t port) {
  if (port && port != c.port) return -EAGAIN;
  if (!skb.put_u32(RDMA_NLDEV_ATTR_PORT_INDEX, c.port) ||
      !skb.put_u32(RDMA_NLDEV_ATTR_STAT_COUNTER_ID, c.id) || fill_stat_counter_mode(skb, c) ||
      fill_stat_counter_qps(skb, dev, c) || fill_stat_counter_hwcounters(skb, c))
    return kEmsg;
  return 0;
}

int fill_stat_mr_entry(Skb& skb, bool, const Device&, const Mr& mr, uint32_t) {
  if (!skb.put_u32(RDMA_NLDEV_ATTR_RES_MRN, mr.id)) return kEmsg;
  if (mr.stat_counters.empty()) return 0;
  size_t table = skb.nest_start(RDMA_NLDEV_ATTR_STAT_HWCOUNTERS, true);
  if (table == Skb::kNoRoom) return kEmsg;
  for (const HwCounter& h : mr.stat_counters) {
    if (fill_hwcounter_entry(skb, h.name, h.value)) {
      skb.truncate(table);
      return kEmsg;
    }
  }
  skb.nest_end(table);
  return 0;
}

}  // namespace rdma::testkernel
