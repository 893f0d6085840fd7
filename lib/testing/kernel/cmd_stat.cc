// Statistics: RDMA_NLDEV_CMD_STAT_GET (port counters, QP counters and mode,
// MR statistics), STAT_SET (auto mode, manual bind, optional counters),
// STAT_DEL (unbind) and STAT_GET_STATUS.

#include <libmnl/libmnl.h>

#include <cerrno>

#include "lib/nl/nldev.h"
#include "lib/testing/kernel/counters.h"
#include "lib/testing/kernel/res_common.h"

namespace rdma::testkernel {
namespace {

ResSpec<StatCounter> counter_spec() {
  return {&Device::counters,
          RDMA_NLDEV_ATTR_STAT_COUNTER,
          RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY,
          RDMA_NLDEV_ATTR_STAT_COUNTER_ID,
          false,
          &fill_res_counter_entry};
}

ResSpec<Mr> stat_mr_spec() {
  return {
      &Device::mrs, RDMA_NLDEV_ATTR_RES_MR, RDMA_NLDEV_ATTR_RES_MR_ENTRY, RDMA_NLDEV_ATTR_RES_MRN,
      true,         &fill_stat_mr_entry};
}

bool port_valid(const Device& d, uint32_t port) {
  return port >= 1 && port <= d.ports.size();
}

}  // namespace

int TestKernel::add_qp(uint32_t index, Qp qp) {
  Device* dev = device(index);
  if (!dev || qp.port > dev->ports.size()) return -EINVAL;
  if (int err = bind_qp_auto(*dev, qp)) return err;
  dev->qps.items.push_back(std::move(qp));
  return 0;
}

int TestKernel::stat_get_doit(const nlmsghdr* nlh, Extack* ext) {
  Attrs tb;
  if (parse(nlh, !v612(), &tb, ext)) return -EINVAL;
  if (!tb.has(RDMA_NLDEV_ATTR_STAT_RES)) {
    // stat_get_doit_default_counter(): the port's hardware counters.
    if (!tb.has(RDMA_NLDEV_ATTR_DEV_INDEX) || !tb.has(RDMA_NLDEV_ATTR_PORT_INDEX)) return -EINVAL;
    const Device* dev = lookup(tb.u32(RDMA_NLDEV_ATTR_DEV_INDEX));
    if (!dev) return -EINVAL;
    bool has_stats = false;
    for (const Port& p : dev->ports) has_stats |= p.hw_counters.has_value();
    if (!has_stats) return -EINVAL;
    uint32_t port = tb.u32(RDMA_NLDEV_ATTR_PORT_INDEX);
    if (!port_valid(*dev, port) || !dev->ports[port - 1].hw_counters) return -EINVAL;
    Skb skb = reply_skb();
    if (!reply_header(skb, nlh, RDMA_NLDEV_CMD_STAT_GET) || fill_nldev_handle(skb, *dev) ||
        !skb.put_u32(RDMA_NLDEV_ATTR_PORT_INDEX, port))
      return -EMSGSIZE;
    size_t table = skb.nest_start(RDMA_NLDEV_ATTR_STAT_HWCOUNTERS, true);
    if (table == Skb::kNoRoom) return -EMSGSIZE;
    const auto& hw = *dev->ports[port - 1].hw_counters;
    for (size_t i = 0; i < hw.size(); ++i) {
      if (!hw[i].enabled) continue;
      // Plus what the port's QP counters counted (rdma_counter_get_hwstat_value).
      uint64_t v = hw[i].value;
      for (size_t c = 0; c < dev->counters.size(); ++c) {
        StatCounter sc = dev->counters.at(c);
        if (sc.port == port && i < sc.counters.size()) v += sc.counters[i].value;
      }
      if (fill_hwcounter_entry(skb, hw[i].name, v)) return -EMSGSIZE;
    }
    skb.nest_end(table);
    unicast(skb);
    return 0;
  }
  switch (tb.u32(RDMA_NLDEV_ATTR_STAT_RES)) {
    case RDMA_NLDEV_ATTR_RES_QP: {
      if (tb.has(RDMA_NLDEV_ATTR_STAT_COUNTER_ID))
        return ResCmd::doit(*this, nlh, ext, counter_spec());
      // stat_get_doit_qp(): the port's counter mode.
      if (!tb.has(RDMA_NLDEV_ATTR_STAT_MODE) || !tb.has(RDMA_NLDEV_ATTR_DEV_INDEX) ||
          !tb.has(RDMA_NLDEV_ATTR_PORT_INDEX))
        return -EINVAL;
      const Device* dev = lookup(tb.u32(RDMA_NLDEV_ATTR_DEV_INDEX));
      if (!dev) return -EINVAL;
      uint32_t port = tb.u32(RDMA_NLDEV_ATTR_PORT_INDEX);
      if (!port_valid(*dev, port)) return -EINVAL;
      const Port& p = dev->ports[port - 1];
      Skb skb = reply_skb();
      if (!reply_header(skb, nlh, RDMA_NLDEV_CMD_STAT_GET) || fill_nldev_handle(skb, *dev) ||
          !skb.put_u32(RDMA_NLDEV_ATTR_PORT_INDEX, port) ||
          !skb.put_u32(RDMA_NLDEV_ATTR_STAT_MODE, p.counter_mode))
        return -EMSGSIZE;
      if (p.counter_mode == RDMA_COUNTER_MODE_AUTO &&
          !skb.put_u32(RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK, p.counter_mask))
        return -EMSGSIZE;
      unicast(skb);
      return 0;
    }
    case RDMA_NLDEV_ATTR_RES_MR:
      return ResCmd::doit(*this, nlh, ext, stat_mr_spec());
    default:
      return -EINVAL;
  }
}

TestKernel::DumpFn TestKernel::stat_get_dump() {
  return [this](Skb& skb, const nlmsghdr* req, long& args) {
    Attrs tb;
    if (parse(req, !v612(), &tb, nullptr) || !tb.has(RDMA_NLDEV_ATTR_STAT_RES)) return -EINVAL;
    switch (tb.u32(RDMA_NLDEV_ATTR_STAT_RES)) {
      case RDMA_NLDEV_ATTR_RES_QP:
        return ResCmd::dump(*this, counter_spec())(skb, req, args);
      case RDMA_NLDEV_ATTR_RES_MR:
        return ResCmd::dump(*this, stat_mr_spec())(skb, req, args);
      default:
        return -EINVAL;
    }
  };
}

int TestKernel::stat_set_doit(const nlmsghdr* nlh, Extack* ext) {
  Attrs tb;
  int ret = parse(nlh, true, &tb, ext);
  if (ret || !tb.has(RDMA_NLDEV_ATTR_DEV_INDEX) || !tb.has(RDMA_NLDEV_ATTR_PORT_INDEX))
    return -EINVAL;
  Device* dev = device(tb.u32(RDMA_NLDEV_ATTR_DEV_INDEX));
  if (!dev) return -EINVAL;
  uint32_t port = tb.u32(RDMA_NLDEV_ATTR_PORT_INDEX);
  if (!port_valid(*dev, port)) return -EINVAL;
  if (!tb.has(RDMA_NLDEV_ATTR_STAT_MODE) && !tb.has(RDMA_NLDEV_ATTR_STAT_HWCOUNTERS))
    return -EINVAL;
  Skb skb = reply_skb();
  if (!reply_header(skb, nlh, RDMA_NLDEV_CMD_STAT_SET) || fill_nldev_handle(skb, *dev) ||
      !skb.put_u32(RDMA_NLDEV_ATTR_PORT_INDEX, port))
    return -EMSGSIZE;
  if (tb.has(RDMA_NLDEV_ATTR_STAT_MODE)) {
    // nldev_stat_set_mode_doit(): QP counters only.
    if (!tb.has(RDMA_NLDEV_ATTR_STAT_RES) ||
        tb.u32(RDMA_NLDEV_ATTR_STAT_RES) != RDMA_NLDEV_ATTR_RES_QP)
      return -EINVAL;
    if (tb.u32(RDMA_NLDEV_ATTR_STAT_MODE) == RDMA_COUNTER_MODE_AUTO) {
      uint32_t mask = tb.has(RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK)
                          ? tb.u32(RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK)
                          : 0;
      if ((ret = set_auto_mode(*dev, port, mask, ext))) return ret;
    } else {
      if (!tb.has(RDMA_NLDEV_ATTR_RES_LQPN)) return -EINVAL;
      uint32_t qpn = tb.u32(RDMA_NLDEV_ATTR_RES_LQPN);
      uint32_t cntn = 0;
      if (tb.has(RDMA_NLDEV_ATTR_STAT_COUNTER_ID)) {
        cntn = tb.u32(RDMA_NLDEV_ATTR_STAT_COUNTER_ID);
        ret = bind_qpn(*dev, port, qpn, cntn);
      } else {
        ret = bind_qpn_alloc(*dev, port, qpn, &cntn);
      }
      if (ret) return ret;
      skb.put_u32(RDMA_NLDEV_ATTR_STAT_COUNTER_ID, cntn);
      skb.put_u32(RDMA_NLDEV_ATTR_RES_LQPN, qpn);
    }
  }
  if (tb.has(RDMA_NLDEV_ATTR_STAT_HWCOUNTERS)) {
    // nldev_stat_set_counter_dynamic_doit(): the listed optional counters
    // on, the other optional ones off.
    Port& p = dev->ports[port - 1];
    if (!p.hw_counters) return -EINVAL;
    std::vector<bool> target(p.hw_counters->size());
    const nlattr* nest = tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS];
    const auto* end =
        static_cast<const char*>(mnl_attr_get_payload(nest)) + mnl_attr_get_payload_len(nest);
    for (const auto* a = static_cast<const nlattr*>(mnl_attr_get_payload(nest));
         mnl_attr_ok(a, static_cast<int>(end - reinterpret_cast<const char*>(a)));
         a = mnl_attr_next(a)) {
      if (mnl_attr_get_payload_len(a) != sizeof(uint32_t)) return -EINVAL;
      uint32_t index = mnl_attr_get_u32(a);
      if (index >= target.size() || !(*p.hw_counters)[index].optional) return -EINVAL;
      target[index] = true;
    }
    for (size_t i = 0; i < target.size(); ++i) {
      HwCounter& h = (*p.hw_counters)[i];
      if (!h.optional) continue;
      if (!dev->modify_hw_stat) return -EOPNOTSUPP;
      h.enabled = target[i];
    }
  }
  unicast(skb);
  return 0;
}

int TestKernel::stat_del_doit(const nlmsghdr* nlh, Extack* ext) {
  Attrs tb;
  int ret = parse(nlh, true, &tb, ext);
  if (ret || !tb.has(RDMA_NLDEV_ATTR_STAT_RES) || !tb.has(RDMA_NLDEV_ATTR_DEV_INDEX) ||
      !tb.has(RDMA_NLDEV_ATTR_PORT_INDEX) || !tb.has(RDMA_NLDEV_ATTR_STAT_COUNTER_ID) ||
      !tb.has(RDMA_NLDEV_ATTR_RES_LQPN))
    return -EINVAL;
  if (tb.u32(RDMA_NLDEV_ATTR_STAT_RES) != RDMA_NLDEV_ATTR_RES_QP) return -EINVAL;
  Device* dev = device(tb.u32(RDMA_NLDEV_ATTR_DEV_INDEX));
  if (!dev) return -EINVAL;
  uint32_t port = tb.u32(RDMA_NLDEV_ATTR_PORT_INDEX);
  if (!port_valid(*dev, port)) return -EINVAL;
  uint32_t cntn = tb.u32(RDMA_NLDEV_ATTR_STAT_COUNTER_ID);
  uint32_t qpn = tb.u32(RDMA_NLDEV_ATTR_RES_LQPN);
  // The reply carries STAT_SET, like the kernel's.
  Skb skb = reply_skb();
  if (!reply_header(skb, nlh, RDMA_NLDEV_CMD_STAT_SET) || fill_nldev_handle(skb, *dev) ||
      !skb.put_u32(RDMA_NLDEV_ATTR_PORT_INDEX, port) ||
      !skb.put_u32(RDMA_NLDEV_ATTR_STAT_COUNTER_ID, cntn) ||
      !skb.put_u32(RDMA_NLDEV_ATTR_RES_LQPN, qpn))
    return -EMSGSIZE;
  if ((ret = unbind_qpn(*dev, port, qpn, cntn))) return ret;
  unicast(skb);
  return 0;
}

int TestKernel::stat_get_status_doit(const nlmsghdr* nlh, Extack* ext) {
  Attrs tb;
  int ret = parse(nlh, !v612(), &tb, ext);
  if (ret || !tb.has(RDMA_NLDEV_ATTR_DEV_INDEX) || !tb.has(RDMA_NLDEV_ATTR_PORT_INDEX))
    return -EINVAL;
  const Device* dev = lookup(tb.u32(RDMA_NLDEV_ATTR_DEV_INDEX));
  if (!dev) return -EINVAL;
  uint32_t port = tb.u32(RDMA_NLDEV_ATTR_PORT_INDEX);
  if (!port_valid(*dev, port) || !dev->ports[port - 1].hw_counters) return -EINVAL;
  Skb skb = reply_skb();
  if (!reply_header(skb, nlh, RDMA_NLDEV_CMD_STAT_GET_STATUS) || fill_nldev_handle(skb, *dev) ||
      !skb.put_u32(RDMA_NLDEV_ATTR_PORT_INDEX, port))
    return -EMSGSIZE;
  size_t table = skb.nest_start(RDMA_NLDEV_ATTR_STAT_HWCOUNTERS, true);
  if (table == Skb::kNoRoom) return -EMSGSIZE;
  const auto& hw = *dev->ports[port - 1].hw_counters;
  for (size_t i = 0; i < hw.size(); ++i) {
    size_t entry = skb.nest_start(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY, true);
    if (entry == Skb::kNoRoom ||
        !skb.put_string(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, hw[i].name) ||
        !skb.put_u32(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX, static_cast<uint32_t>(i)) ||
        (hw[i].optional && !skb.put_u8(RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC, hw[i].enabled)))
      return -EMSGSIZE;
    skb.nest_end(entry);
  }
  skb.nest_end(table);
  unicast(skb);
  return 0;
}

}  // namespace rdma::testkernel
