#include "rdma/verbs_devices.h"

#include "lib/error.h"

namespace rdma {

std::vector<nldev::Device> devices_named(Ctx& c, const std::string& dev) {
  if (dev.empty()) return nldev::list_devices(c.session());
  return {nldev::find_device(c.session(), dev)};
}

void each_verbs_device(Ctx& c, const std::vector<nldev::Device>& devs,
                       const std::function<void(const nldev::Device&, verbs::Device&)>& fn) {
  if (devs.empty()) return;
  std::unique_ptr<verbs::Verbs> v = c.verbs();
  std::vector<std::string> errors;
  for (const nldev::Device& d : devs) {
    try {
      std::unique_ptr<verbs::Device> dev = v->open(d.name);
      fn(d, *dev);
    } catch (const Error& e) {
      errors.push_back(e.what());
    }
  }
  if (errors.empty()) return;
  for (size_t i = 0; i + 1 < errors.size(); ++i) std::fprintf(c.err, "%s\n", errors[i].c_str());
  throw Error(errors.back());
}

}  // namespace rdma
