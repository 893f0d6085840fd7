// The local port MADs leave from: `via DEV/PORT`, or the first active
// InfiniBand port (the first with its link up when none is active, as
// without a subnet manager). RoCE and iWARP ports have no subnet
// management: they are refused with one line saying so, before libibumad
// is asked to register agents they cannot have.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rdma::mad {

struct LocalPort {
  std::string ca;
  int port = 0;
  uint16_t lid = 0;
  uint16_t sm_lid = 0;
  uint64_t gid_prefix = 0;
  uint64_t port_guid = 0;
  int state = 0;  // IBA port state, 4 active
};

inline constexpr int kNodeRnic = 4;  // sysfs node_type of iWARP devices

// What the machine has: the devices with umad ports (libibumad) and every
// RDMA device with its node type (sysfs; iWARP devices have no umad ports).
struct Devices {
  struct Port {
    LocalPort port;
    bool infiniband = true;  // link layer InfiniBand (false: Ethernet, RoCE)
  };
  struct Ca {
    std::string name;
    int node_type = 1;
    std::vector<Port> ports;
  };
  std::vector<Ca> umad;
  struct Rdma {
    std::string name;
    int node_type = 1;
    bool ethernet = false;  // every port's link layer is Ethernet (RoCE)
  };
  std::vector<Rdma> rdma;
};

// Reads Devices from libibumad and /sys/class/infiniband. Throws Error when
// libibumad cannot start.
Devices read_devices();

// Chooses the port. via is "", "DEV" (its first port with its link up) or
// "DEV/PORT". Throws Error when there is none, or the port is RoCE or iWARP.
LocalPort choose_local_port(const Devices& d, const std::string& via);

// choose_local_port(read_devices(), via).
LocalPort find_local_port(const std::string& via);

}  // namespace rdma::mad
