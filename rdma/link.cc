// rdma link: ports of every device (one port dump per device), link add and
// delete for soft devices (rxe, siw).
#include <cerrno>
#include <cstdlib>

#include "lib/error.h"
#include "lib/nl/attrs.h"
#include "lib/nl/nldev.h"
#include "lib/nldev/devices.h"
#include "lib/nldev/fields.h"
#include "rdma/objects.h"

namespace rdma {

namespace {

void link_help(Ctx& c) {
  std::fputs(
      "Usage: rdma link show [DEV[/PORT_INDEX]]\n"
      "       rdma link add NAME type TYPE netdev NETDEV\n"
      "       rdma link delete NAME\n"
      "where  TYPE := { rxe | siw }\n",
      c.help_out);
}

void print_port(Ctx& c, const nlmsghdr* nlh, view::Record& r) {
  nl::Attrs a = nl::Attrs::of_message(nlh);
  if (!a.has(RDMA_NLDEV_ATTR_DEV_INDEX) || !a.has(RDMA_NLDEV_ATTR_DEV_NAME) ||
      !a.has(RDMA_NLDEV_ATTR_PORT_INDEX))
    throw Error("malformed kernel reply: port without device index, name or port index");
  r.clear();
  uint32_t port = a.u32(RDMA_NLDEV_ATTR_PORT_INDEX);
  std::string name(a.str(RDMA_NLDEV_ATTR_DEV_NAME));
  r.add("ifindex", "", a.u32(RDMA_NLDEV_ATTR_DEV_INDEX));
  r.add("ifname", "link " + name + "/", name);
  r.add("port", std::to_string(port) + " ", port);
  view::decode(a, nldev::kLinkFields, c.opt.details, r);
  c.out.record(r);
}

// "DEV/PORT" -> port number; 0 when only DEV is given.
uint32_t split_port(std::string& dev) {
  auto slash = dev.find('/');
  if (slash == 0 || dev.empty())
    throw UsageError("missing device name in \"" + dev + "\" (expected DEV or DEV/PORT)");
  if (slash == std::string::npos) return 0;
  std::string p = dev.substr(slash + 1);
  dev.resize(slash);
  char* end = nullptr;
  errno = 0;
  unsigned long v = p.empty() ? 0 : std::strtoul(p.c_str(), &end, 10);
  if (p.empty() || *end || errno || v == 0 || v > UINT32_MAX)
    throw UsageError("invalid port \"" + p + "\" (expected DEV/PORT with PORT 1 or more)");
  return static_cast<uint32_t>(v);
}

void link_show(Ctx& c) {
  bool given = !c.args.empty();
  std::string dev = given ? c.args.next() : "";
  c.args.done();
  uint32_t port = given ? split_port(dev) : 0;
  std::vector<nldev::Device> devs;
  if (dev.empty())
    devs = nldev::list_devices(c.session());
  else
    devs.push_back(nldev::find_device(c.session(), dev));
  view::Record r;
  for (const nldev::Device& d : devs) {
    if (port) {
      if (port > d.ports)
        throw Error("device \"" + d.name + "\" has no port " + std::to_string(port) +
                    " (ports: 1-" + std::to_string(d.ports) + ")");
      nl::Request req(RDMA_NLDEV_CMD_PORT_GET, nl::Request::kDoit);
      req.u32(RDMA_NLDEV_ATTR_DEV_INDEX, d.index).u32(RDMA_NLDEV_ATTR_PORT_INDEX, port);
      c.session().run(req, [&](const nlmsghdr* nlh) { print_port(c, nlh, r); });
    } else {
      nl::Request req(RDMA_NLDEV_CMD_PORT_GET, nl::Request::kDump);
      req.u32(RDMA_NLDEV_ATTR_DEV_INDEX, d.index);
      c.session().run(req, [&](const nlmsghdr* nlh) { print_port(c, nlh, r); });
    }
  }
}

void link_add(Ctx& c) {
  std::string name = c.args.need("new link name");
  std::string type, netdev;
  while (!c.args.empty()) {
    std::string key = c.args.next();
    if (matches(key, "type"))
      type = c.args.need("link type");
    else if (matches(key, "netdev"))
      netdev = c.args.need("netdev name");
    else
      throw UsageError("unknown link add parameter \"" + key + "\"");
  }
  if (type.empty()) throw UsageError("missing \"type TYPE\"");
  if (netdev.empty()) throw UsageError("missing \"netdev NETDEV\"");
  if (name.size() >= 64) throw UsageError("link name \"" + name + "\" is longer than 63 bytes");
  nl::Request req(RDMA_NLDEV_CMD_NEWLINK, nl::Request::kDoit);
  req.str(RDMA_NLDEV_ATTR_DEV_NAME, name)
      .str(RDMA_NLDEV_ATTR_LINK_TYPE, type)
      .str(RDMA_NLDEV_ATTR_NDEV_NAME, netdev);
  c.session().run(req, [](const nlmsghdr*) {});
}

void link_delete(Ctx& c) {
  std::string name = c.args.need("link name");
  c.args.done();
  nldev::Device d = nldev::find_device(c.session(), name);
  nl::Request req(RDMA_NLDEV_CMD_DELLINK, nl::Request::kDoit);
  req.u32(RDMA_NLDEV_ATTR_DEV_INDEX, d.index);
  c.session().run(req, [](const nlmsghdr*) {});
}

}  // namespace

void cmd_link(Ctx& c) {
  static constexpr Cmd kTable[] = {
      {nullptr, link_show}, {"show", link_show},     {"list", link_show},
      {"add", link_add},    {"delete", link_delete}, {"help", link_help},
  };
  dispatch(c, kTable, "link command");
}

}  // namespace rdma
