// RDMA_NLDEV_CMD_MONITOR notifications (6.12: rdma_nl_notify_event) to
// sockets in RDMA_NL_GROUP_NOTIFY.
#include <cerrno>

#include "lib/error.h"
#include "lib/nl/nldev.h"
#include "lib/testing/kernel/testkernel.h"

namespace rdma::testkernel {

// 6.1's NETLINK_RDMA has 32 groups, so root may join group 4; nothing is
// ever sent there. Without CAP_NET_ADMIN (root) 6.1 refuses non-root
// listeners (no NL_CFG_F_NONROOT_RECV) with EPERM.
void TestKernel::join_group(unsigned group) {
  if (group == 0 || group > 32)
    throw Error("join group " + std::to_string(group) + ": Invalid argument");
  if (!v612() && !opts.net_admin)
    throw Error("join group " + std::to_string(group) + ": Operation not permitted");
  if (group == nldev::kGroupNotify) notify_group_ = true;
}

void TestKernel::multicast(Skb& skb) {
  if (notify_group_) queue_.push_back({skb.take()});
}

void TestKernel::notify(const Device& dev, uint32_t port, uint8_t event) {
  if (!v612()) return;
  Skb skb = reply_skb();
  skb.put_msg(0, 0, nldev::msg_type(nldev::kCmdMonitor), 0);
  if (event == nldev::kEventRegister || event == nldev::kEventUnregister) {
    skb.put_u32(RDMA_NLDEV_ATTR_DEV_INDEX, dev.index);
    skb.put_string(RDMA_NLDEV_ATTR_DEV_NAME, dev.name);
  } else if (event == nldev::kEventNetdevAttach || event == nldev::kEventNetdevDetach) {
    // fill_mon_netdev_association()
    const Port& p = dev.ports[port - 1];
    skb.put_u32(RDMA_NLDEV_ATTR_DEV_INDEX, dev.index);
    skb.put_string(RDMA_NLDEV_ATTR_DEV_NAME, dev.name);
    skb.put_u32(RDMA_NLDEV_ATTR_PORT_INDEX, port);
    if (p.netdev) {
      skb.put_u32(RDMA_NLDEV_ATTR_NDEV_INDEX, p.netdev->ifindex);
      skb.put_string(RDMA_NLDEV_ATTR_NDEV_NAME, p.netdev->name);
    }
  }
  skb.put_u8(nldev::kAttrEventType, event);
  multicast(skb);
}

}  // namespace rdma::testkernel
