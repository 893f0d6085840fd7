#include "lib/mad/local_port.h"

#include <cstdlib>
#include <optional>

#include "lib/error.h"
#include "lib/view/number.h"

namespace rdma::mad {

namespace {

constexpr int kInit = 2;
constexpr int kActive = 4;

std::string port_name(const LocalPort& p) {
  return p.ca + "/" + std::to_string(p.port);
}

const char* kind_of(int node_type) {
  return node_type == kNodeRnic ? "iWARP" : "RoCE";
}

std::string not_ib(const Devices::Ca& ca, const Devices::Port& p) {
  return "port " + port_name(p.port) + " is not InfiniBand (" + kind_of(ca.node_type) +
         "): it has no subnet management; MADs need an InfiniBand port";
}

// Without `via`: the first active IB port, else the first with its link up
// (INIT or ARMED, as without a subnet manager: MADs flow there).
LocalPort choose_default(const Devices& d) {
  std::optional<LocalPort> up;
  std::string others;  // the ports and devices that are not InfiniBand
  bool any_ib = false;
  for (const Devices::Ca& ca : d.umad) {
    for (const Devices::Port& p : ca.ports) {
      if (!p.infiniband) {
        others += (others.empty() ? "" : ", ") + port_name(p.port) + " " + kind_of(ca.node_type);
        continue;
      }
      any_ib = true;
      if (p.port.state == kActive) return p.port;
      if (!up && p.port.state >= kInit) up = p.port;
    }
  }
  if (up) return *up;
  if (any_ib) throw Error("no InfiniBand port with its link up; choose one with \"via DEV/PORT\"");
  bool other_without_umad = false;
  for (const Devices::Rdma& r : d.rdma) {
    bool has_umad = false;
    for (const Devices::Ca& ca : d.umad) has_umad |= ca.name == r.name;
    if (has_umad) continue;
    if (r.node_type == kNodeRnic || r.ethernet)
      others += (others.empty() ? "" : ", ") + r.name + " " + kind_of(r.node_type);
    else
      other_without_umad = true;
  }
  if (other_without_umad) throw Error("no InfiniBand device with a umad port (is ib_umad loaded?)");
  if (!others.empty())
    throw Error("no InfiniBand port (" + others +
                "): RoCE and iWARP have no subnet management; MADs need an InfiniBand port");
  throw Error("no InfiniBand port: no RDMA devices");
}

}  // namespace

LocalPort choose_local_port(const Devices& d, const std::string& via) {
  if (via.empty()) return choose_default(d);
  std::string dev = via;
  int port = -1;
  if (auto slash = via.find('/'); slash != std::string::npos) {
    dev = via.substr(0, slash);
    std::string p = via.substr(slash + 1);
    // Blanks and a sign, as strtol took them.
    std::optional<uint64_t> v = view::parse_number(p, {.max = 254, .blanks_and_sign = true});
    if (!v) throw Error("invalid port \"" + p + "\" in \"via " + via + "\" (expected DEV/PORT)");
    port = static_cast<int>(*v);
  }
  const Devices::Ca* ca = nullptr;
  for (const Devices::Ca& c : d.umad)
    if (c.name == dev) ca = &c;
  if (!ca) {
    // iWARP devices have no umad ports at all (nor RoCE ones without
    // ib_umad); say what they are.
    for (const Devices::Rdma& r : d.rdma)
      if (r.name == dev && (r.node_type == kNodeRnic || r.ethernet))
        throw Error("device \"" + dev + "\" is not InfiniBand (" + kind_of(r.node_type) +
                    "): it has no subnet management; MADs need an InfiniBand port");
    throw Error("no RDMA device \"" + dev + "\" with a umad port");
  }
  std::string error;
  for (const Devices::Port& p : ca->ports) {
    if (port >= 0 && p.port.port != port) continue;
    if (!p.infiniband) {
      error = not_ib(*ca, p);
      if (port >= 0) break;
      continue;
    }
    if (port < 0 && p.port.state < kInit) continue;
    return p.port;
  }
  if (!error.empty()) throw Error(error);
  if (port >= 0) throw Error("device \"" + dev + "\" has no port " + std::to_string(port));
  throw Error("device \"" + dev + "\" has no InfiniBand port with its link up");
}

LocalPort find_local_port(const std::string& via) {
  return choose_local_port(read_devices(), via);
}

}  // namespace rdma::mad
