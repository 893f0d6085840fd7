// rdma link: ports of every device (one port dump per device), link add and
// delete for soft devices (rxe, siw).
#include <cerrno>
#include <cstdlib>

#include "lib/error.h"
#include "lib/nl/attrs.h"
#include "lib/nl/nldev.h"
#include "lib/nldev/devices.h"
#include "lib/nldev/fields.h"
#include "lib/verbs/port.h"
#include "rdma/objects.h"
#include "rdma/verbs_devices.h"

namespace rdma {

namespace {

void link_help(Ctx& c) {
  std::fputs(
      "Usage: rdma link show [DEV[/PORT_INDEX]]\n"
      "       rdma link status [DEV[/PORT_INDEX]]\n"
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
  nldev::decode_attrs(a, nldev::kLinkFields, c.opt.details, r);
  c.out.record(r);
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
  view::Record& r = c.out.scratch();
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

// Link layer, MTUs, width and speed from verbs (ibv_query_port): what
// netlink's port view lacks. A command of its own, so that `link show`
// stays iproute2's.
void link_status(Ctx& c) {
  bool given = !c.args.empty();
  std::string dev = given ? c.args.next() : "";
  c.args.done();
  if (given && dev.empty()) throw UsageError("empty device name");
  uint32_t port = dev.empty() ? 0 : split_port(dev);
  std::vector<nldev::Device> devs = devices_named(c, dev);
  for (const nldev::Device& d : devs)
    if (port > d.ports)
      throw Error("device \"" + d.name + "\" has no port " + std::to_string(port) + " (ports: 1-" +
                  std::to_string(d.ports) + ")");
  view::Record r;
  each_verbs_device(c, devs, [&](const nldev::Device& d, verbs::Device& v) {
    std::vector<verbs::Gid> gids = v.gids();
    for (uint32_t p = port ? port : 1; p <= (port ? port : d.ports); ++p) {
      auto port_num = static_cast<uint8_t>(p);
      std::optional<uint64_t> guid;
      for (const verbs::Gid& g : gids)
        if (g.port == p && g.index == 0) guid = verbs::port_guid(g);
      verbs::port_record(d.name, port_num, v.query_port(port_num), c.opt.details, r,
                         v.query_port_speed(port_num), guid);
      c.out.record(r);
    }
  });
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
      throw UsageError(unknown_word("link add parameter", key, {"type", "netdev"}));
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
      {nullptr, link_show},    {"show", link_show}, {"list", link_show},     {"add", link_add},
      {"delete", link_delete}, {"help", link_help}, {"status", link_status},
  };
  dispatch(c, kTable, "link command");
}

}  // namespace rdma
