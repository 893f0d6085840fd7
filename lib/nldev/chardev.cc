#include "lib/nldev/chardev.h"

#include <cerrno>

#include "lib/error.h"
#include "lib/nl/attrs.h"
#include "lib/nl/nldev.h"
#include "lib/nl/request.h"

namespace rdma::nldev {

namespace {

// A reply carries the device's number as huge_encode_dev() packs it: the
// minor's low byte, the major, then the minor's high bits.
Chardev parse_reply(const nlmsghdr* nlh, const char* type, uint32_t port) {
  nl::Attrs a = nl::Attrs::of_message(nlh);
  a.need({RDMA_NLDEV_ATTR_CHARDEV, RDMA_NLDEV_ATTR_CHARDEV_NAME},
         "character device without number or name");
  uint64_t dev = a.u64(RDMA_NLDEV_ATTR_CHARDEV);
  Chardev c;
  c.type = type;
  c.port = port;
  c.name = a.str(RDMA_NLDEV_ATTR_CHARDEV_NAME);
  c.major = static_cast<uint32_t>((dev & 0xfff00) >> 8);
  c.minor = static_cast<uint32_t>((dev & 0xff) | ((dev >> 12) & 0xfff00));
  c.abi = a.u64(RDMA_NLDEV_ATTR_CHARDEV_ABI);
  return c;
}

}  // namespace

std::optional<Chardev> get_chardev(nl::Session& s, uint32_t index, uint32_t port,
                                   const char* type) {
  nl::Request req(RDMA_NLDEV_CMD_GET_CHARDEV, nl::Request::kDoit);
  req.u32(RDMA_NLDEV_ATTR_DEV_INDEX, index);
  if (port) req.u32(RDMA_NLDEV_ATTR_PORT_INDEX, port);
  req.str(RDMA_NLDEV_ATTR_CHARDEV_TYPE, type);
  std::optional<Chardev> out;
  try {
    s.run(req, [&](const nlmsghdr* nlh) { out = parse_reply(nlh, type, port); });
  } catch (const KernelError& e) {
    if (e.code == EOPNOTSUPP || e.code == EINVAL) return std::nullopt;
    throw;
  }
  return out;
}

void chardev_record(const std::string& dev, const Chardev& c, view::Record& r) {
  r.clear();
  if (c.port) {
    r.add("ifname", "link " + dev + "/", dev);
    r.add("port", std::to_string(c.port) + " ", c.port);
  } else {
    r.add("ifname", "dev " + dev + " ", dev);
  }
  r.pair("type", c.type);
  r.pair("name", c.name);
  r.add("chardev", "chardev " + std::to_string(c.major) + ":" + std::to_string(c.minor) + " ",
        std::to_string(c.major) + ":" + std::to_string(c.minor));
  r.pair("abi", c.abi);
}

}  // namespace rdma::nldev
