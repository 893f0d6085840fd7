// The measurement loops of `rdma bw` over a connected queue pair
// (lib/verbs/cm.h): the client's RDMA-write bandwidth and send/recv
// ping-pong latency, and the server's answers to the pings. Time comes from
// a clock the caller gives (steady_clock's nanoseconds for the real test, a
// fake's for unit tests); every wait ends after a bound without progress.
#pragma once

#include <cstdint>
#include <functional>

#include "lib/bw/stats.h"
#include "lib/verbs/cm.h"

namespace rdma::bw {

using Clock = std::function<uint64_t()>;  // nanoseconds

// steady_clock, in nanoseconds.
uint64_t steady_ns();

struct Bandwidth {
  uint64_t bytes = 0;
  uint64_t ns = 0;
  double gbps = 0;
};

// hello.iterations RDMA writes of hello.size bytes, up to a window of them
// in flight, every few signaled (as perftest's tx depth and CQ moderation).
// Error when no completion comes for idle_ns.
Bandwidth write_bandwidth(verbs::Connection& c, const Clock& now, uint64_t idle_ns);

// hello.iterations ping-pongs of hello.lat_size bytes: each a receive
// posted, a send, and the peer's answer waited for; a sample is half the
// round trip (perftest's one-way latency). Error when an answer takes more
// than idle_ns.
Latency ping_latency(verbs::Connection& c, const Clock& now, uint64_t idle_ns);

// The server's side: answers each of hello.iterations pings (one receive
// already posted) with a pong, then waits (at most idle_ns) for the client
// to leave. The first ping may wait first_ns (the client's bandwidth phase
// comes first), calling idle between looks (a short sleep: the writes need
// the CPU), each later one idle_ns, busy. Error when the client leaves or
// stops before the last ping.
void answer_pings(verbs::Connection& c, const Clock& now, const std::function<void()>& idle,
                  uint64_t first_ns, uint64_t idle_ns);

}  // namespace rdma::bw
