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
};

// libibumad: find_local_port and UmadTransport.
Access umad_access();

}  // namespace rdma::mad
