// Devices, ports and system settings: RDMA_NLDEV_CMD_GET, PORT_GET, SET,
// SYS_GET, SYS_SET, GET_CHARDEV.
#include <algorithm>
#include <cerrno>

#include "lib/nl/nldev.h"
#include "lib/testing/kernel/fill.h"
#include "lib/testing/kernel/testkernel.h"

namespace rdma::testkernel {

int TestKernel::get_doit(const nlmsghdr* nlh, Extack* ext) {
  Attrs tb;
  int err = parse(nlh, false, &tb, ext);
  if (err || !tb.has(RDMA_NLDEV_ATTR_DEV_INDEX)) return -EINVAL;
  const Device* dev = lookup(tb.u32(RDMA_NLDEV_ATTR_DEV_INDEX));
  if (!dev) return -EINVAL;
  Skb skb = reply_skb();
  if (!reply_header(skb, nlh, RDMA_NLDEV_CMD_GET)) return -EMSGSIZE;
  if ((err = fill_dev_info(skb, *dev, opts.version))) return err;
  unicast(skb);
  return 0;
}

// ib_enum_all_devs() with _nldev_get_dumpit(): one device per skb.
TestKernel::DumpFn TestKernel::get_dump() {
  return per_device_dump(RDMA_NLDEV_CMD_GET, [this](Skb& skb, const Device& d) {
    return fill_dev_info(skb, d, opts.version);
  });
}

TestKernel::DumpFn TestKernel::per_device_dump(int cmd,
                                               std::function<int(Skb&, const Device&)> fill) {
  return [this, cmd, fill](Skb& skb, const nlmsghdr* req, long& args) {
    long idx = 0;
    for (const Device& d : state.devices) {
      if (idx >= args) {
        size_t mark = skb.len();
        if (!skb.put_msg(opts.port_id, req->nlmsg_seq, nldev::msg_type(cmd), NLM_F_MULTI) ||
            fill(skb, d)) {
          skb.truncate(mark);
          args = idx;
        } else {
          args = idx + 1;
        }
        if (skb.len()) return static_cast<int>(skb.len());
      }
      ++idx;
    }
    return 0;
  };
}

int TestKernel::port_get_doit(const nlmsghdr* nlh, Extack* ext) {
  Attrs tb;
  int err = parse(nlh, false, &tb, ext);
  if (err || !tb.has(RDMA_NLDEV_ATTR_DEV_INDEX) || !tb.has(RDMA_NLDEV_ATTR_PORT_INDEX))
    return -EINVAL;
  const Device* dev = lookup(tb.u32(RDMA_NLDEV_ATTR_DEV_INDEX));
  if (!dev) return -EINVAL;
  uint32_t port = tb.u32(RDMA_NLDEV_ATTR_PORT_INDEX);
  if (port < 1 || port > dev->ports.size()) return -EINVAL;
  Skb skb = reply_skb();
  // The kernel answers a port query with the GET command type.
  if (!reply_header(skb, nlh, RDMA_NLDEV_CMD_GET)) return -EMSGSIZE;
  if ((err = fill_port_info(skb, *dev, port))) return err;
  unicast(skb);
  return 0;
}

// nldev_port_get_dumpit(): all ports of the device named by DEV_INDEX.
TestKernel::DumpFn TestKernel::port_get_dump() {
  return [this](Skb& skb, const nlmsghdr* req, long& args) {
    Attrs tb;
    if (parse(req, false, &tb, nullptr) || !tb.has(RDMA_NLDEV_ATTR_DEV_INDEX)) return -EINVAL;
    const Device* dev = lookup(tb.u32(RDMA_NLDEV_ATTR_DEV_INDEX));
    if (!dev) return -EINVAL;
    long idx = 0;
    for (uint32_t p = 1; p <= dev->ports.size(); ++p) {
      if (idx < args) {
        ++idx;
        continue;
      }
      size_t mark = skb.len();
      if (!skb.put_msg(opts.port_id, req->nlmsg_seq, nldev::msg_type(RDMA_NLDEV_CMD_PORT_GET),
                       NLM_F_MULTI) ||
          fill_port_info(skb, *dev, p)) {
        skb.truncate(mark);
        break;
      }
      ++idx;
    }
    args = idx;
    return static_cast<int>(skb.len());
  };
}

int TestKernel::set_doit(const nlmsghdr* nlh, Extack* ext) {
  Attrs tb;
  int err = parse(nlh, v612(), &tb, ext);
  if (err || !tb.has(RDMA_NLDEV_ATTR_DEV_INDEX)) return -EINVAL;
  Device* dev = device(tb.u32(RDMA_NLDEV_ATTR_DEV_INDEX));
  if (!dev) return -EINVAL;
  if (tb.has(RDMA_NLDEV_ATTR_DEV_NAME)) {
    // ib_device_rename(): same name is a no-op, a taken one EEXIST.
    std::string name = tb.str(RDMA_NLDEV_ATTR_DEV_NAME, 64);
    if (name.empty()) return -EINVAL;
    if (name == dev->name) return 0;
    if (device_by_name(name)) return -EEXIST;
    dev->name = name;
    return 0;
  }
  if (tb.has(RDMA_NLDEV_NET_NS_FD)) {
    // ib_device_set_netns_put(): the fd must name a namespace, the driver
    // must support disassociation and the system be in exclusive mode.
    uint32_t fd = tb.u32(RDMA_NLDEV_NET_NS_FD);
    const auto& fds = state.sys.netns_fds;
    if (std::find(fds.begin(), fds.end(), fd) == fds.end()) return -EBADF;
    if (!dev->disassociate_ucontext || state.sys.netns_shared) return -EOPNOTSUPP;
    // The device leaves this namespace.
    uint32_t index = dev->index;
    std::erase_if(state.devices, [index](const Device& d) { return d.index == index; });
    return 0;
  }
  if (tb.has(RDMA_NLDEV_ATTR_DEV_DIM)) {
    uint8_t dim = tb.u8(RDMA_NLDEV_ATTR_DEV_DIM);
    if (dim > 1) return -EINVAL;
    dev->use_cq_dim = dim;
    return 0;
  }
  return err;
}

int TestKernel::sys_get_doit(const nlmsghdr* nlh, Extack* ext) {
  Attrs tb;
  int err = parse(nlh, !v612(), &tb, ext);
  if (err) return err;
  Skb skb = reply_skb();
  if (!reply_header(skb, nlh, RDMA_NLDEV_CMD_SYS_GET)) return -EMSGSIZE;
  if (!skb.put_u8(RDMA_NLDEV_SYS_ATTR_NETNS_MODE, state.sys.netns_shared)) return -EMSGSIZE;
  // Debian's 6.1.192 carries the privileged QKEY backport too.
  if (!skb.put_u8(nldev::kAttrPrivilegedQkeyMode, state.sys.privileged_qkey)) return -EMSGSIZE;
  if (v612() && !skb.put_u8(nldev::kAttrMonitorMode, 1)) return -EMSGSIZE;
  skb.put_u8(RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK, 1);
  unicast(skb);
  return 0;
}

int TestKernel::sys_set_doit(const nlmsghdr* nlh, Extack* ext) {
  Attrs tb;
  if (parse(nlh, true, &tb, ext)) return -EINVAL;
  if (tb.has(RDMA_NLDEV_SYS_ATTR_NETNS_MODE)) {
    uint8_t enable = tb.u8(RDMA_NLDEV_SYS_ATTR_NETNS_MODE);
    if (enable > 1) return -EINVAL;
    // rdma_compatdev_set()
    if (state.sys.netns_shared == enable) return 0;
    if (state.sys.other_netns) return -EBUSY;
    state.sys.netns_shared = enable;
    return 0;
  }
  if (tb.has(nldev::kAttrPrivilegedQkeyMode)) {
    uint8_t enable = tb.u8(nldev::kAttrPrivilegedQkeyMode);
    if (enable > 1) return -EINVAL;
    state.sys.privileged_qkey = enable;
    return 0;
  }
  return -EINVAL;
}

int TestKernel::get_chardev_doit(const nlmsghdr* nlh, Extack* ext) {
  Attrs tb;
  int err = parse(nlh, !v612(), &tb, ext);
  if (err || !tb.has(RDMA_NLDEV_ATTR_CHARDEV_TYPE)) return -EINVAL;
  std::string type = tb.str(RDMA_NLDEV_ATTR_CHARDEV_TYPE, 32);
  const Device* dev = nullptr;
  uint32_t port = 0;  // data.port = -1 in the kernel
  if (tb.has(RDMA_NLDEV_ATTR_DEV_INDEX)) {
    dev = lookup(tb.u32(RDMA_NLDEV_ATTR_DEV_INDEX));
    if (!dev) return -EINVAL;
    if (tb.has(RDMA_NLDEV_ATTR_PORT_INDEX)) {
      port = tb.u32(RDMA_NLDEV_ATTR_PORT_INDEX);
      if (port < 1 || port > dev->ports.size()) return -EINVAL;
    }
  } else if (tb.has(RDMA_NLDEV_ATTR_PORT_INDEX)) {
    return -EINVAL;
  }
  // ib_get_client_nl_info(): a client that is not bound answers EOPNOTSUPP;
  // uverbs wants no port, umad and issm one (their get_nl_info: EINVAL,
  // which the core passes on as EINVAL).
  if (!dev) return -EOPNOTSUPP;
  bool known = false;
  for (const Device::Chardev& c : dev->chardevs) {
    if (c.type != type) continue;
    known = true;
    if (c.port != port) continue;
    Skb skb = reply_skb();
    if (!reply_header(skb, nlh, RDMA_NLDEV_CMD_GET_CHARDEV)) return -EMSGSIZE;
    // ib_uverbs_get_nl_info() puts the driver id first, a u32.
    if (c.type == "uverbs" && !skb.put_u32(RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID, c.driver_id))
      return -EMSGSIZE;
    // huge_encode_dev(): (minor & 0xff) | (major << 8) | ((minor & ~0xff) << 12)
    uint64_t devt = (c.minor & 0xff) | (static_cast<uint64_t>(c.major) << 8) |
                    (static_cast<uint64_t>(c.minor & ~0xffu) << 12);
    if (!skb.put_u64(RDMA_NLDEV_ATTR_CHARDEV, devt, RDMA_NLDEV_ATTR_PAD) ||
        !skb.put_u64(RDMA_NLDEV_ATTR_CHARDEV_ABI, c.abi, RDMA_NLDEV_ATTR_PAD) ||
        !skb.put_string(RDMA_NLDEV_ATTR_CHARDEV_NAME, c.name))
      return -EMSGSIZE;
    unicast(skb);
    return 0;
  }
  return known ? -EINVAL : -EOPNOTSUPP;
}

}  // namespace rdma::testkernel
