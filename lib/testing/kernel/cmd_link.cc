// Creating and removing devices: RDMA_NLDEV_CMD_NEWLINK, DELLINK and (6.12)
// NEWDEV, DELDEV, plus the registration they share with tests.
#include <cerrno>

#include "lib/nl/nldev.h"
#include "lib/testing/kernel/fixture.h"
#include "lib/testing/kernel/testkernel.h"

namespace rdma::testkernel {

Device& TestKernel::register_device(Device dev) {
  dev.index = state.next_index++;
  state.devices.push_back(std::move(dev));
  // ib_device_notify_register(): the device, then each port's netdev.
  const Device& d = state.devices.back();
  notify(d, 0, nldev::kEventRegister);
  for (uint32_t p = 1; p <= d.ports.size(); ++p)
    if (d.ports[p - 1].netdev) notify(d, p, nldev::kEventNetdevAttach);
  return state.devices.back();
}

void TestKernel::unregister_device(uint32_t index) {
  const Device* dev = lookup(index);
  if (!dev) return;
  // Sub devices go first, newest first.
  std::string name = dev->name;
  for (size_t i = state.devices.size(); i-- > 0;)
    if (state.devices[i].parent == name) unregister_device(state.devices[i].index);
  dev = lookup(index);
  notify(*dev, 0, nldev::kEventUnregister);
  std::erase_if(state.devices, [index](const Device& d) { return d.index == index; });
}

void TestKernel::set_netdev(uint32_t index, uint32_t port, std::optional<Netdev> ndev) {
  Device* dev = device(index);
  if (!dev || port < 1 || port > dev->ports.size()) return;
  Port& p = dev->ports[port - 1];
  bool same = p.netdev && ndev && p.netdev->ifindex == ndev->ifindex;
  if (same || (!p.netdev && !ndev)) return;
  p.netdev = ndev;
  notify(*dev, port, ndev ? nldev::kEventNetdevAttach : nldev::kEventNetdevDetach);
}

int TestKernel::newlink_doit(const nlmsghdr* nlh, Extack* ext) {
  Attrs tb;
  int err = parse(nlh, v612(), &tb, ext);
  if (err || !tb.has(RDMA_NLDEV_ATTR_DEV_NAME) || !tb.has(RDMA_NLDEV_ATTR_LINK_TYPE) ||
      !tb.has(RDMA_NLDEV_ATTR_NDEV_NAME))
    return -EINVAL;
  std::string name = tb.str(RDMA_NLDEV_ATTR_DEV_NAME, 64);
  if (name.empty() || name.find('%') != std::string::npos) return -EINVAL;
  std::string type = tb.str(RDMA_NLDEV_ATTR_LINK_TYPE, 16);
  std::string ndev_name = tb.str(RDMA_NLDEV_ATTR_NDEV_NAME, 16);
  const Netdev* ndev = nullptr;
  for (const Netdev& n : state.netdevs)
    if (n.name == ndev_name) ndev = &n;
  if (!ndev) return -ENODEV;
  bool known = false;
  for (const std::string& t : state.link_types) known |= t == type;
  if (!known) return -EINVAL;
  // The driver refuses a second device of its kind on one netdev.
  for (const Device& d : state.devices)
    for (const Port& p : d.ports)
      if (d.driver == type && p.netdev && p.netdev->name == ndev->name) return -EEXIST;
  // assign_name()
  if (device_by_name(name)) return -ENFILE;
  register_device(type == "siw" ? make_siw(opts.version, name, *ndev)
                                : make_rxe(opts.version, name, *ndev));
  state.devices.back().driver = type;
  return 0;
}

int TestKernel::dellink_doit(const nlmsghdr* nlh, Extack* ext) {
  Attrs tb;
  int err = parse(nlh, v612(), &tb, ext);
  if (err || !tb.has(RDMA_NLDEV_ATTR_DEV_INDEX)) return -EINVAL;
  const Device* dev = lookup(tb.u32(RDMA_NLDEV_ATTR_DEV_INDEX));
  if (!dev) return -EINVAL;
  if (!dev->allow_user_unreg) return -EINVAL;
  unregister_device(dev->index);
  return 0;
}

int TestKernel::newdev_doit(const nlmsghdr* nlh, Extack* ext) {
  Attrs tb;
  int err = parse(nlh, true, &tb, ext);
  if (err || !tb.has(RDMA_NLDEV_ATTR_DEV_INDEX) || !tb.has(RDMA_NLDEV_ATTR_DEV_NAME) ||
      !tb.has(nldev::kAttrDevType))
    return -EINVAL;
  std::string name = tb.str(RDMA_NLDEV_ATTR_DEV_NAME, 16);  // IFNAMSIZ
  uint8_t type = tb.u8(nldev::kAttrDevType);
  const Device* parent = lookup(tb.u32(RDMA_NLDEV_ATTR_DEV_INDEX));
  if (!parent) return -EINVAL;
  // ib_add_sub_device(): the driver needs add_sub_dev; mlx5 makes SMI only.
  if (!parent->sub_devices) return -EOPNOTSUPP;
  if (type != nldev::kDevTypeSmi) return -EOPNOTSUPP;
  if (device_by_name(name)) return -ENFILE;
  Device sub = *parent;
  sub.name = name;
  sub.dev_type = type;
  sub.parent = parent->name;
  sub.name_assign_type = 0;
  sub.sub_devices = false;
  sub.pds = {};
  sub.cqs = {};
  sub.qps = {};
  sub.cm_ids = {};
  sub.mrs = {};
  sub.ctxs = {};
  sub.counters = {};
  sub.srqs = {};
  register_device(std::move(sub));
  return 0;
}

int TestKernel::deldev_doit(const nlmsghdr* nlh, Extack* ext) {
  Attrs tb;
  int err = parse(nlh, true, &tb, ext);
  if (err || !tb.has(RDMA_NLDEV_ATTR_DEV_INDEX)) return -EINVAL;
  const Device* dev = lookup(tb.u32(RDMA_NLDEV_ATTR_DEV_INDEX));
  if (!dev) return -EINVAL;
  if (dev->parent.empty()) return -EOPNOTSUPP;
  unregister_device(dev->index);
  return 0;
}

}  // namespace rdma::testkernel
