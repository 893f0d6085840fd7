#include "lib/mad/local_port.h"

#include <endian.h>
#include <infiniband/umad.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <vector>

#include "lib/error.h"

namespace rdma::mad {

namespace {

constexpr int kInit = 2;
constexpr int kActive = 4;

LocalPort from_umad(const umad_port_t& p) {
  LocalPort l;
  l.ca = p.ca_name;
  l.port = p.portnum;
  l.lid = static_cast<uint16_t>(p.base_lid);
  l.sm_lid = static_cast<uint16_t>(p.sm_lid);
  l.gid_prefix = be64toh(p.gid_prefix);
  l.port_guid = be64toh(p.port_guid);
  l.state = static_cast<int>(p.state);
  return l;
}

bool is_ib(const umad_port_t& p) {
  return std::strcmp(p.link_layer, "Ethernet") != 0;
}

// Reads one CA; false when libibumad cannot (no such device).
bool get_ca(const std::string& name, umad_ca_t& ca) {
  std::vector<char> n(name.begin(), name.end());
  n.push_back('\0');
  return umad_get_ca(n.data(), &ca) == 0;
}

std::vector<std::string> ca_names() {
  char names[32][UMAD_CA_NAME_LEN];
  int n = umad_get_cas_names(names, 32);
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.emplace_back(names[i]);
  return out;
}

// Ports of a CA: switches have only port 0, CAs 1..numports.
std::vector<const umad_port_t*> ports_of(const umad_ca_t& ca) {
  std::vector<const umad_port_t*> out;
  for (int i = 0; i <= ca.numports && i < UMAD_CA_MAX_PORTS; ++i)
    if (ca.ports[i]) out.push_back(ca.ports[i]);
  return out;
}

std::string not_ib(const std::string& dev, int port, const umad_ca_t& ca) {
  // iWARP devices are RNICs (node type 4); RoCE ports are CAs on Ethernet.
  const char* kind = ca.node_type == 4 ? "iWARP" : "RoCE";
  return "port " + dev + "/" + std::to_string(port) + " is not InfiniBand (" + kind +
         "): MADs need an InfiniBand port";
}

}  // namespace

LocalPort find_local_port(const std::string& via) {
  if (umad_init() < 0) throw Error("cannot initialise libibumad");
  if (via.empty()) {
    // The first active IB port; without a subnet manager no port is active,
    // so then the first whose link is up (INIT or ARMED): MADs flow there.
    std::vector<std::string> names = ca_names();
    bool any_ib = false;
    std::optional<LocalPort> up;
    for (const std::string& name : names) {
      umad_ca_t ca;
      if (!get_ca(name, ca)) continue;
      for (const umad_port_t* p : ports_of(ca)) {
        if (!is_ib(*p)) continue;
        any_ib = true;
        if (static_cast<int>(p->state) == kActive) {
          LocalPort l = from_umad(*p);
          umad_release_ca(&ca);
          return l;
        }
        if (!up && static_cast<int>(p->state) >= kInit) up = from_umad(*p);
      }
      umad_release_ca(&ca);
    }
    if (up) return *up;
    if (names.empty()) throw Error("no InfiniBand device (no umad devices; is ib_umad loaded?)");
    if (!any_ib) throw Error("no InfiniBand port: every RDMA port here is RoCE or iWARP");
    throw Error("no InfiniBand port with its link up; choose one with \"via DEV/PORT\"");
  }
  std::string dev = via;
  int port = -1;
  if (auto slash = via.find('/'); slash != std::string::npos) {
    dev = via.substr(0, slash);
    std::string p = via.substr(slash + 1);
    char* end = nullptr;
    long v = std::strtol(p.c_str(), &end, 10);
    if (p.empty() || *end || v < 0 || v > 254)
      throw Error("invalid port \"" + p + "\" in \"via " + via + "\" (expected DEV/PORT)");
    port = static_cast<int>(v);
  }
  umad_ca_t ca;
  if (!get_ca(dev, ca)) {
    // iWARP devices have no umad ports at all; say what they are.
    std::ifstream type("/sys/class/infiniband/" + dev + "/node_type");
    std::string t;
    if (type >> t && t == "4:")
      throw Error("device \"" + dev + "\" is not InfiniBand (iWARP): MADs need an InfiniBand port");
    throw Error("no RDMA device \"" + dev + "\" with a umad port");
  }
  LocalPort found;
  bool ok = false;
  std::string error;
  for (const umad_port_t* p : ports_of(ca)) {
    if (port >= 0 && p->portnum != port) continue;
    if (!is_ib(*p)) {
      error = not_ib(dev, p->portnum, ca);
      if (port >= 0) break;
      continue;
    }
    if (port < 0 && static_cast<int>(p->state) < kInit) continue;
    found = from_umad(*p);
    ok = true;
    break;
  }
  umad_release_ca(&ca);
  if (ok) return found;
  if (!error.empty()) throw Error(error);
  if (port >= 0) throw Error("device \"" + dev + "\" has no port " + std::to_string(port));
  throw Error("device \"" + dev + "\" has no InfiniBand port with its link up");
}

}  // namespace rdma::mad
