// A connection for the unit tests of `rdma bw`'s loops: a peer that
// completes RDMA writes at a given rate and answers each send after a given
// round trip, on a clock of its own that each poll moves on.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "lib/error.h"
#include "lib/verbs/cm.h"

namespace rdma::verbs {

class FakeConnection : public Connection {
 public:
  explicit FakeConnection(Hello h) : hello_(h) {}

  // The link: writes leave one after another at gbps; a send's answer (a
  // receive completion) comes rtt_ns later, rtts[i] for the i-th when given.
  double gbps = 10;
  uint64_t rtt_ns = 4000;
  std::vector<uint64_t> rtts;
  uint64_t poll_ns = 50;  // what one poll costs on the clock
  // Faults: the n-th write (1-based) never completes / fails; the peer
  // stops answering after this many sends; the peer leaves.
  uint64_t stall_write = 0, fail_write = 0;
  uint64_t answers = UINT64_MAX;
  bool gone = false;
  // The server's side: pings that arrive (one each rtt_ns, after the first
  // at first_ping_ns).
  uint64_t pings = 0;
  uint64_t first_ping_ns = 0;

  uint64_t now = 1000000;  // the clock
  uint64_t writes = 0, sends = 0, recvs_posted = 0, signaled = 0;
  uint64_t max_in_flight = 0;

  std::string device() const override { return "rxe1"; }
  uint32_t port() const override { return 1; }
  std::string peer() const override { return "192.0.2.1"; }
  Hello hello() const override { return hello_; }
  uint32_t send_depth() const override { return 256; }

  void post_write(uint32_t size, bool sig, uint64_t id) override {
    ++writes;
    double ns = static_cast<double>(size) * 8.0 / gbps;
    wire_ = std::max(wire_, now) + static_cast<uint64_t>(ns);
    uint64_t in_flight = writes - writes_done_;
    max_in_flight = std::max(max_in_flight, in_flight);
    if (sig) ++signaled;
    if (writes == stall_write) stalled_ = true;
    if (sig && !stalled_) queue_.push_back({wire_, {id, Op::Write}, writes == fail_write});
    if (writes == fail_write && !sig) queue_.push_back({wire_, {id, Op::Write}, true});
  }
  void post_send(uint32_t, bool sig, uint64_t id) override {
    ++sends;
    if (sig) queue_.push_back({now, {id, Op::Send}, false});
    if (sends <= answers && recvs_posted > 0) {
      uint64_t rtt = sends - 1 < rtts.size() ? rtts[sends - 1] : rtt_ns;
      --recvs_posted;
      queue_.push_back({now + rtt, {id, Op::Recv}, false});
    }
  }
  void post_recv(uint32_t, uint64_t) override { ++recvs_posted; }

  size_t poll(Completion* out, size_t max) override {
    now += poll_ns;
    // The server's side: the client's pings
    if (!ping_at_) ping_at_ = now + first_ping_ns;
    if (pings && recvs_posted && now >= ping_at_) {
      --pings;
      --recvs_posted;
      ping_at_ = now + rtt_ns;
      queue_.push_back({now, {received_++, Op::Recv}, false});
    }
    size_t n = 0;
    for (auto it = queue_.begin(); it != queue_.end() && n < max;) {
      if (it->at > now) {
        ++it;
        continue;
      }
      if (it->fail) throw Error("rxe1/1: a work request failed: remote access error");
      if (it->c.op == Op::Write) writes_done_ = std::max(writes_done_, it->c.id);
      out[n++] = it->c;
      it = queue_.erase(it);
    }
    return n;
  }
  // Gone once its answers are spent.
  bool peer_gone() override { return gone && sends > answers; }

 private:
  struct Pending {
    uint64_t at;
    Completion c;
    bool fail;
  };
  Hello hello_;
  std::deque<Pending> queue_;
  uint64_t wire_ = 0;
  uint64_t writes_done_ = 0;
  bool stalled_ = false;
  uint64_t ping_at_ = 0;
  uint64_t received_ = 0;
};

}  // namespace rdma::verbs
