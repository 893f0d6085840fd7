// How the MAD commands reach a fabric: find the local port (`via DEV/PORT`
// or the default) and open a transport on it. The tool passes libibumad's
// (umad_access), tests a fake fabric: the seam the netlink commands have in
// nl::Connection::Factory.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "lib/mad/local_port.h"
#include "lib/mad/transport.h"

namespace rdma::mad {

struct Access {
  std::function<LocalPort(const std::string& via)> find_port;
  std::function<std::unique_ptr<Transport>(const LocalPort&)> open;
  // The machine's devices and their ports (libibumad's umad_get_cas_names
  // and umad_get_ca), for the commands that go over every local port.
  std::function<Devices()> devices = {};
};

// libibumad: find_local_port, UmadTransport and read_devices.
Access umad_access();

}  // namespace rdma::mad
