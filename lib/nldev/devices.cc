#include "lib/nldev/devices.h"

#include <memory>

#include "lib/error.h"
#include "lib/nl/attrs.h"
#include "lib/nl/nldev.h"

namespace rdma::nldev {

std::vector<Device> list_devices(nl::Session& s) {
  nl::Request req(RDMA_NLDEV_CMD_GET, nl::Request::kDump);
  // Decoding the kept replies again was 6% of a batch line.
  if (const void* memo = s.kept_memo(req)) return *static_cast<const std::vector<Device>*>(memo);
  std::vector<Device> out;
  s.run_kept(req, [&](const nlmsghdr* nlh) {
    nl::Attrs a = nl::Attrs::of_message(nlh);
    a.need({RDMA_NLDEV_ATTR_DEV_INDEX, RDMA_NLDEV_ATTR_DEV_NAME}, "device without index or name");
    // Views loop over every port: a damaged count (found by fuzz_nl_replies:
    // 0xffffffff never ended "stat show") must not become billions of ports.
    uint32_t ports = a.u32(RDMA_NLDEV_ATTR_PORT_INDEX);
    if (ports > kMaxPorts)
      throw Error("malformed kernel reply: device " + std::string(a.str(RDMA_NLDEV_ATTR_DEV_NAME)) +
                  " has " + std::to_string(ports) + " ports (at most " + std::to_string(kMaxPorts) +
                  ")");
    out.push_back(
        {a.u32(RDMA_NLDEV_ATTR_DEV_INDEX), std::string(a.str(RDMA_NLDEV_ATTR_DEV_NAME)), ports});
  });
  s.set_kept_memo(req, std::make_shared<const std::vector<Device>>(out));
  return out;
}

Device find_device(nl::Session& s, std::string_view name) {
  for (Device& d : list_devices(s))
    if (d.name == name) return d;
  // A list kept by a batch may predate a device another program added or
  // renamed: ask the kernel again before saying there is none.
  if (s.forget_kept())
    for (Device& d : list_devices(s))
      if (d.name == name) return d;
  throw Error("unknown device \"" + std::string(name) + "\"");
}

}  // namespace rdma::nldev
