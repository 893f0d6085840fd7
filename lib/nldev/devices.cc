#include "lib/nldev/devices.h"

#include "lib/error.h"
#include "lib/nl/attrs.h"
#include "lib/nl/nldev.h"

namespace rdma::nldev {

std::vector<Device> list_devices(nl::Session& s) {
  std::vector<Device> out;
  nl::Request req(RDMA_NLDEV_CMD_GET, nl::Request::kDump);
  s.run(req, [&](const nlmsghdr* nlh) {
    nl::Attrs a = nl::Attrs::of_message(nlh);
    if (!a.has(RDMA_NLDEV_ATTR_DEV_INDEX) || !a.has(RDMA_NLDEV_ATTR_DEV_NAME))
      throw Error("malformed kernel reply: device without index or name");
    out.push_back({a.u32(RDMA_NLDEV_ATTR_DEV_INDEX), std::string(a.str(RDMA_NLDEV_ATTR_DEV_NAME)),
                   a.u32(RDMA_NLDEV_ATTR_PORT_INDEX)});
  });
  return out;
}

Device find_device(nl::Session& s, std::string_view name) {
  for (Device& d : list_devices(s))
    if (d.name == name) return d;
  throw Error("unknown device \"" + std::string(name) + "\"");
}

}  // namespace rdma::nldev
