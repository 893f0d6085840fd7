// The part of a transport a server needs besides sending and receiving:
// being handed the requests of a class that reach the port (libibumad
// hands an agent only replies to its own requests unless it registers the
// methods it serves). UmadTransport has it; a transport without it cannot
// serve (lib/ib/vendor.h says so).
#pragma once

#include <cstdint>
#include <optional>

#include "lib/mad/transport.h"

namespace rdma::mad {

// A MAD as a server receives it: with the local P_Key table index it came
// in on (ib_mad_addr's pkey_index), which the answer leaves with, as
// libibmad's mad_respond keeps the request's.
struct Request {
  Received mad;
  uint16_t pkey_index = 0;
};

class Serving {
 public:
  virtual ~Serving() = default;
  // From now on receive() also returns the Gets of mgmt_class (and, in
  // vendor range 2, of oui) that other ports send here. Throws Error.
  virtual void serve(uint8_t mgmt_class, uint32_t oui) = 0;
  // receive() with the P_Key index each MAD came in on.
  virtual std::optional<Request> receive_request(int timeout_ms) = 0;
};

}  // namespace rdma::mad
