#include "lib/bw/measure.h"

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "lib/error.h"

namespace rdma::bw {

namespace {

// Writes in flight at most, and how often one is signaled: perftest's
// ib_write_bw keeps 128 in flight and signals every 100th; signaling more
// often keeps the window full while the completion is on its way.
constexpr uint32_t kWindow = 128;
constexpr uint32_t kSignalEvery = 32;
// Sends signaled in the ping-pong: the send queue's slots come back with them.
constexpr uint64_t kSendSignalEvery = 32;

std::string seconds(uint64_t ns) {
  return std::to_string((ns + 999999999) / 1000000000) + " s";
}

}  // namespace

uint64_t steady_ns() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

Bandwidth write_bandwidth(verbs::Connection& c, const Clock& now, uint64_t idle_ns) {
  const verbs::Hello h = c.hello();
  const uint64_t n = h.iterations;
  const uint64_t window = std::min<uint64_t>(kWindow, c.send_depth());
  const uint64_t every = std::min<uint64_t>(kSignalEvery, window);
  uint64_t posted = 0, done = 0;  // writes
  verbs::Completion wc[16];
  const uint64_t start = now();
  uint64_t last = start;  // the last progress
  uint64_t end = start;
  while (done < n) {
    while (posted < n && posted - done < window) {
      ++posted;
      // The id is the count of writes done once this one is.
      c.post_write(h.size, posted % every == 0 || posted == n, posted);
    }
    size_t got = c.poll(wc, 16);
    uint64_t t = now();
    for (size_t i = 0; i < got; ++i)
      if (wc[i].op == verbs::Op::Write) done = std::max(done, wc[i].id);
    if (got) {
      last = t;
      end = t;
    } else if (t - last > idle_ns) {
      throw Error("RDMA write " + std::to_string(done + 1) + " of " + std::to_string(n) +
                  " did not complete in " + seconds(idle_ns) + " (timed out)");
    }
  }
  Bandwidth b;
  b.bytes = n * h.size;
  b.ns = end - start;
  b.gbps = gbits_per_s(b.bytes, b.ns);
  return b;
}

namespace {

// Polls until a receive completes (send completions pass by); Error after
// wait_ns, or when the peer is gone. idle, when set, runs at each look at the
// clock without a completion (the server sleeps there while the client
// writes: a busy poll would take the CPU the writes need on a small host).
void await_recv(verbs::Connection& c, const Clock& now, uint64_t wait_ns, const std::string& what,
                const std::function<void()>& idle = {}) {
  verbs::Completion wc[16];
  const uint64_t since = now();
  for (uint64_t spins = 0;; ++spins) {
    size_t got = c.poll(wc, 16);
    for (size_t i = 0; i < got; ++i)
      if (wc[i].op == verbs::Op::Recv) return;
    // Time and the connection's events cost more than a poll: looked at
    // every 64th empty poll.
    if (got || spins % 64) continue;
    if (now() - since > wait_ns)
      throw Error(what + " did not come in " + seconds(wait_ns) + " (timed out)");
    if (c.peer_gone()) {
      // The disconnect may overtake the last message: one more look.
      got = c.poll(wc, 16);
      for (size_t i = 0; i < got; ++i)
        if (wc[i].op == verbs::Op::Recv) return;
      throw Error("the peer disconnected before " + what);
    }
    if (idle) idle();
  }
}

}  // namespace

Latency ping_latency(verbs::Connection& c, const Clock& now, uint64_t idle_ns) {
  const verbs::Hello h = c.hello();
  std::vector<uint64_t> samples;
  samples.reserve(h.iterations);
  for (uint64_t i = 0; i < h.iterations; ++i) {
    c.post_recv(h.lat_size, i);
    uint64_t t = now();
    c.post_send(h.lat_size, (i + 1) % kSendSignalEvery == 0, i);
    await_recv(c, now, idle_ns, "the answer to ping " + std::to_string(i + 1));
    samples.push_back((now() - t) / 2);
  }
  return summarize(samples);
}

void answer_pings(verbs::Connection& c, const Clock& now, const std::function<void()>& idle,
                  uint64_t first_ns, uint64_t idle_ns) {
  const verbs::Hello h = c.hello();
  for (uint64_t i = 0; i < h.iterations; ++i) {
    await_recv(c, now, i ? idle_ns : first_ns,
               "ping " + std::to_string(i + 1) + " of " + std::to_string(h.iterations),
               i ? std::function<void()>() : idle);
    // The next ping's receive before this pong: the client sends it as
    // soon as the pong arrives.
    if (i + 1 < h.iterations) c.post_recv(h.lat_size, i + 1);
    c.post_send(h.lat_size, (i + 1) % kSendSignalEvery == 0 || i + 1 == h.iterations, i);
  }
  // The last pong sent, and the client gone (it leaves once the pong is
  // in), before the caller tears the queue pair down: a disconnect of ours
  // could overtake the pong.
  verbs::Completion wc[16];
  const uint64_t since = now();
  bool sent = h.iterations == 0;
  for (uint64_t spins = 0; !sent; ++spins) {
    size_t got = c.poll(wc, 16);
    for (size_t i = 0; i < got; ++i)
      if (wc[i].op == verbs::Op::Send && wc[i].id + 1 == h.iterations) sent = true;
    if (!got && spins % 64 == 0 && now() - since > idle_ns)
      throw Error("the last pong was not sent in " + seconds(idle_ns) + " (timed out)");
  }
  while (!c.peer_gone() && now() - since <= idle_ns)
    if (idle) idle();
}

}  // namespace rdma::bw
