// rdma dev: show devices, rename, move to a namespace, adaptive moderation,
// add/delete sub-devices (smi, Linux 6.11+).
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "lib/error.h"
#include "lib/nl/attrs.h"
#include "lib/nl/nldev.h"
#include "lib/nldev/chardev.h"
#include "lib/nldev/devices.h"
#include "lib/nldev/fields.h"
#include "lib/verbs/limits.h"
#include "rdma/objects.h"
#include "rdma/verbs_devices.h"

namespace rdma {

namespace {

void dev_help(Ctx& c) {
  std::fputs(
      "Usage: rdma dev show [DEV]\n"
      "       rdma dev limits [DEV]\n"
      "       rdma dev chardev [DEV]\n"
      "       rdma dev set [DEV] name DEVNAME\n"
      "       rdma dev set [DEV] netns { NSNAME | PID }\n"
      "       rdma dev set [DEV] adaptive-moderation [on|off]\n"
      "       rdma dev add NAME type smi parent DEV\n"
      "       rdma dev delete NAME\n",
      c.help_out);
}

void dev_show(Ctx& c) {
  bool given = !c.args.empty();
  std::string name = given ? c.args.next() : "";
  c.args.done();
  if (given && name.empty()) throw UsageError("empty device name");
  bool found = false;
  nl::Request req(RDMA_NLDEV_CMD_GET, nl::Request::kDump);
  view::Record& r = c.out.scratch();
  c.session().run(req, [&](const nlmsghdr* nlh) {
    nl::Attrs a = nl::Attrs::of_message(nlh);
    if (!name.empty() && a.str(RDMA_NLDEV_ATTR_DEV_NAME) != name) return;
    found = true;
    r.clear();
    nldev::decode_attrs(a, nldev::kDevFields, c.opt.details, r);
    c.out.record(r);
  });
  if (!name.empty() && !found) throw Error("unknown device \"" + name + "\"");
}

// What the device can do (ibv_devinfo -v): verbs, not netlink.
void dev_limits(Ctx& c) {
  bool given = !c.args.empty();
  std::string name = given ? c.args.next() : "";
  c.args.done();
  if (given && name.empty()) throw UsageError("empty device name");
  view::Record r;
  each_verbs_device(c, devices_named(c, name), [&](const nldev::Device& d, verbs::Device& v) {
    verbs::limits_record(d.name, v, r);
    c.out.record(r);
  });
}

// The character devices behind a device (uverbs) and its ports (umad,
// issm): which /dev/infiniband node a program needs, with its number, to
// check permissions, container device lists and udev rules against.
void dev_chardev(Ctx& c) {
  bool given = !c.args.empty();
  std::string name = given ? c.args.next() : "";
  c.args.done();
  if (given && name.empty()) throw UsageError("empty device name");
  std::vector<nldev::Device> devs;
  if (given)
    devs.push_back(nldev::find_device(c.session(), name));
  else
    devs = nldev::list_devices(c.session());
  view::Record& r = c.out.scratch();
  auto show = [&](const nldev::Device& d, uint32_t port, const char* type) {
    if (auto cd = nldev::get_chardev(c.session(), d.index, port, type)) {
      nldev::chardev_record(d.name, *cd, r);
      c.out.record(r);
    }
  };
  for (const nldev::Device& d : devs) {
    for (const char* type : nldev::kDeviceChardevTypes) show(d, 0, type);
    for (uint32_t p = 1; p <= d.ports; ++p)
      for (const char* type : nldev::kPortChardevTypes) show(d, p, type);
  }
}

void run_set(Ctx& c, nl::Request& req) {
  c.session().run(req, [](const nlmsghdr*) {});
}

// The namespace a device moves to: a name of `ip netns` (/run/netns/NAME,
// as iproute2), or, as `ip link set ... netns PID`, the namespace of a
// process (/proc/PID/ns/net), for containers that have no name there. A
// name wins over a PID, so a namespace called "42" stays reachable.
int open_netns(const std::string& ns) {
  int name_errno = EINVAL;
  if (ns.find('/') == std::string::npos) {
    int fd = open(("/run/netns/" + ns).c_str(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0) return fd;
    name_errno = errno;
  }
  bool pid = !ns.empty() && ns.size() <= 10 &&
             ns.find_first_not_of("0123456789") == std::string::npos && ns != "0";
  if (!pid)
    throw Error("cannot open network namespace \"" + ns + "\": " + std::strerror(name_errno) +
                " (give a name of ip netns or a process ID)");
  int fd = open(("/proc/" + ns + "/ns/net").c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    throw Error("cannot open the network namespace of process " + ns + " (/proc/" + ns +
                "/ns/net): " + std::strerror(errno));
  return fd;
}

void dev_set(Ctx& c) {
  nldev::Device dev = nldev::find_device(c.session(), c.args.need("device name"));
  if (c.args.empty()) throw UsageError("missing parameter: name, netns or adaptive-moderation");
  std::string key = c.args.next();
  nl::Request req(RDMA_NLDEV_CMD_SET, nl::Request::kDoit);
  req.u32(RDMA_NLDEV_ATTR_DEV_INDEX, dev.index);
  if (matches(key, "name")) {
    std::string name = c.args.need("new device name");
    c.args.done();
    if (name.size() >= 64) throw UsageError("device name \"" + name + "\" is longer than 63 bytes");
    req.str(RDMA_NLDEV_ATTR_DEV_NAME, name);
    run_set(c, req);
  } else if (matches(key, "netns")) {
    std::string ns = c.args.need("network namespace name or process ID");
    c.args.done();
    int fd = open_netns(ns);
    req.u32(RDMA_NLDEV_NET_NS_FD, static_cast<uint32_t>(fd));
    try {
      run_set(c, req);
    } catch (...) {
      close(fd);
      throw;
    }
    close(fd);
  } else if (matches(key, "adaptive-moderation")) {
    bool on = parse_on_off(c.args.need("on or off"), "adaptive-moderation");
    c.args.done();
    req.u8(RDMA_NLDEV_ATTR_DEV_DIM, on);
    run_set(c, req);
  } else {
    throw UsageError(
        unknown_word("dev set parameter", key, {"name", "netns", "adaptive-moderation"}));
  }
}

// Sub-devices need RDMA_NLDEV_CMD_NEWDEV (Linux 6.11); older kernels reject
// the unknown command with EINVAL or EOPNOTSUPP.
void explain_newdev(const KernelError& e, const char* what) {
  if (e.code == EINVAL || e.code == EOPNOTSUPP)
    throw Error(std::string(what) + " failed: " + e.what() +
                " (sub-devices need Linux 6.11 or newer and a parent that supports them)");
  throw e;
}

void dev_add(Ctx& c) {
  std::string name = c.args.need("new device name");
  std::string type, parent;
  while (!c.args.empty()) {
    std::string key = c.args.next();
    if (matches(key, "type"))
      type = c.args.need("device type");
    else if (matches(key, "parent"))
      parent = c.args.need("parent device name");
    else
      throw UsageError(unknown_word("dev add parameter", key, {"type", "parent"}));
  }
  if (type.empty()) throw UsageError("missing \"type smi\"");
  if (type != "smi") throw UsageError("unknown device type \"" + type + "\" (supported: smi)");
  if (parent.empty()) throw UsageError("missing \"parent DEV\"");
  nldev::Device p = nldev::find_device(c.session(), parent);
  nl::Request req(nldev::kCmdNewDev, nl::Request::kDoit);
  req.u32(RDMA_NLDEV_ATTR_DEV_INDEX, p.index)
      .str(RDMA_NLDEV_ATTR_DEV_NAME, name)
      .u8(nldev::kAttrDevType, nldev::kDevTypeSmi);
  try {
    run_set(c, req);
  } catch (const KernelError& e) {
    explain_newdev(e, "dev add");
  }
}

void dev_delete(Ctx& c) {
  std::string name = c.args.need("device name");
  c.args.done();
  nldev::Device d = nldev::find_device(c.session(), name);
  nl::Request req(nldev::kCmdDelDev, nl::Request::kDoit);
  req.u32(RDMA_NLDEV_ATTR_DEV_INDEX, d.index);
  try {
    run_set(c, req);
  } catch (const KernelError& e) {
    explain_newdev(e, "dev delete");
  }
}

}  // namespace

void cmd_dev(Ctx& c) {
  static constexpr Cmd kTable[] = {
      {nullptr, dev_show}, {"show", dev_show},     {"list", dev_show},
      {"set", dev_set},    {"add", dev_add},       {"delete", dev_delete},
      {"help", dev_help},  {"limits", dev_limits}, {"chardev", dev_chardev},
  };
  dispatch(c, kTable, "dev command");
}

}  // namespace rdma
