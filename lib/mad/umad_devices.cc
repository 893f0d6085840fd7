// read_devices(): the umad devices from libibumad, every RDMA device's
// node type from /sys/class/infiniband. Plain open/opendir calls, so that
// under the simulator the umad2sim preload shows its fake sysfs here too.
#include <dirent.h>
#include <endian.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "lib/error.h"
#include "lib/mad/local_port.h"
#include "lib/mad/umad_lib.h"
#include "lib/view/number.h"

namespace rdma::mad {

namespace {

constexpr const char* kSysClass = "/sys/class/infiniband";

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

// The start of a small sysfs file; "" when unreadable.
std::string read_small(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return "";
  char buf[32] = {};
  ssize_t n = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  return n > 0 ? std::string(buf, n) : "";
}

// True when the device has ports and each is on Ethernet (RoCE).
bool all_ethernet(const std::string& dev) {
  std::string ports = std::string(kSysClass) + "/" + dev + "/ports";
  DIR* d = ::opendir(ports.c_str());
  if (!d) return false;
  int n = 0, eth = 0;
  while (dirent* e = ::readdir(d)) {
    if (e->d_name[0] == '.') continue;
    ++n;
    eth += read_small(ports + "/" + e->d_name + "/link_layer").rfind("Ethernet", 0) == 0;
  }
  ::closedir(d);
  return n > 0 && n == eth;
}

std::vector<Devices::Rdma> sysfs_devices() {
  std::vector<Devices::Rdma> out;
  DIR* d = ::opendir(kSysClass);
  if (!d) return out;
  while (dirent* e = ::readdir(d)) {
    if (e->d_name[0] == '.') continue;
    std::string dev = e->d_name;
    // node_type reads "1: CA", "2: SWITCH", "4: RNIC"; 0 when unreadable.
    std::string type = read_small(std::string(kSysClass) + "/" + dev + "/node_type");
    out.push_back(
        {dev,
         static_cast<int>(
             view::parse_number(type.substr(0, type.find(':')), {.max = 255}).value_or(0)),
         all_ethernet(dev)});
  }
  ::closedir(d);
  return out;
}

}  // namespace

Devices read_devices() {
  if (umad_lib().init() < 0) throw Error("cannot initialise libibumad");
  Devices d;
  char names[32][UMAD_CA_NAME_LEN];
  int n = umad_lib().get_cas_names(names, 32);
  for (int i = 0; i < n; ++i) {
    umad_ca_t ca;
    if (umad_lib().get_ca(names[i], &ca) != 0) continue;
    Devices::Ca c;
    c.name = ca.ca_name;
    c.node_type = static_cast<int>(ca.node_type);
    // Switches have only port 0, CAs 1..numports.
    for (int p = 0; p <= ca.numports && p < UMAD_CA_MAX_PORTS; ++p) {
      if (!ca.ports[p]) continue;
      c.ports.push_back(
          {from_umad(*ca.ports[p]), std::strcmp(ca.ports[p]->link_layer, "Ethernet") != 0});
    }
    umad_lib().release_ca(&ca);
    d.umad.push_back(std::move(c));
  }
  d.rdma = sysfs_devices();
  return d;
}

}  // namespace rdma::mad
