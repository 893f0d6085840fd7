#include "rdma/stat_ports.h"

#include "lib/error.h"
#include "lib/nldev/devices.h"
#include "rdma/words.h"

namespace rdma {

std::vector<PortRef> resolve_ports(nl::Session& s, const std::string& spec, bool need_port) {
  DevPort d = parse_dev_port(spec, {.min = 1, .max = UINT32_MAX});
  if (d.port_bad())
    throw UsageError("invalid port \"" + *d.port_text + "\" in \"" + spec +
                     "\" (expected DEV/PORT, PORT 1 or more)");
  const std::string& dev = d.dev;
  uint32_t port = d.port.value_or(0);
  if (dev.empty() && !spec.empty())
    throw UsageError("missing device name in \"" + spec + "\" (expected DEV or DEV/PORT)");
  if (need_port && (dev.empty() || !port))
    throw UsageError("\"link\" needs DEV/PORT, e.g. rxe0/1" +
                     (spec.empty() ? std::string() : ", not \"" + spec + "\""));

  std::vector<nldev::Device> devs;
  if (dev.empty())
    devs = nldev::list_devices(s);
  else
    devs.push_back(nldev::find_device(s, dev));

  std::vector<PortRef> out;
  for (const nldev::Device& d : devs) {
    if (port) {
      if (port > d.ports)
        throw Error("device \"" + d.name + "\" has no port " + std::to_string(port) +
                    " (ports: 1-" + std::to_string(d.ports) + ")");
      out.push_back({d.index, d.name, port});
      continue;
    }
    for (uint32_t p = 1; p <= d.ports; ++p) out.push_back({d.index, d.name, p});
  }
  return out;
}

}  // namespace rdma
