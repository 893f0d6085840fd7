// The part of a transport a server needs besides sending and receiving:
// being handed the requests of a class that reach the port (libibumad
// hands an agent only replies to its own requests unless it registers the
// methods it serves). UmadTransport has it; a transport without it cannot
// serve (lib/ib/vendor.h says so).
#pragma once

#include <cstdint>

namespace rdma::mad {

class Serving {
 public:
  virtual ~Serving() = default;
  // From now on receive() also returns the Gets of mgmt_class (and, in
  // vendor range 2, of oui) that other ports send here. Throws Error.
  virtual void serve(uint8_t mgmt_class, uint32_t oui) = 0;
};

}  // namespace rdma::mad
