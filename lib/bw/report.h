// What `rdma bw` prints: the client's measurement and the server's summary
// as one record each (text lines of this tool's own, JSON with the units in
// the key names).
#pragma once

#include <cstdint>
#include <string>

#include "lib/bw/measure.h"
#include "lib/verbs/cm.h"
#include "lib/view/record.h"

namespace rdma::bw {

// Who measured with whom: the local device and port, the peer's address,
// the rdma_cm port, and what was asked.
struct Session {
  std::string dev;
  uint32_t port = 0;
  std::string peer;
  uint16_t cm_port = 0;
  verbs::Hello hello;
};

void client_record(const Session& s, const Bandwidth& b, const Latency& l, view::Record& r);
void server_record(const Session& s, view::Record& r);

}  // namespace rdma::bw
