// The netlink reply decoding of every view: the session's message splitting
// and checks, the attribute parser and every record decoder, fed with
// datagrams the fuzzer writes.
//
// Input: byte 0 picks the command line (kViews), byte 1 holds flags, then
// datagrams as a 2-byte little-endian length and that many bytes. With flag
// 1 the transport writes the request's sequence number and our port id into
// every message header it can walk, with flag 2 also the request's message
// type into nldev messages, so that mutations reach the records (the checks
// of those header fields have unit tests of their own).
#include <linux/netlink.h>

#include <cstring>

#include "lib/nl/transport.h"
#include "tests/fuzz/fuzz_util.h"

namespace {

// Every read-only view (tests/vm/corpus*.txt), none that waits (-w, monitor).
const char* const kViews[] = {
    "dev",
    "-d dev",
    "-j dev",
    "-j -p -d dev",
    "dev show rxe0",
    "link",
    "-d link",
    "-j -p -d link",
    "link show rxe1/1",
    "-d link show rxe1/1",
    "system",
    "-j system",
    "-d system show",
    "res",
    "-j res",
    "-d res",
    "res show qp",
    "-j res show qp",
    "-d res show qp",
    "-dd res show qp",
    "-r res show qp",
    "-j -r res show qp",
    "res show cm_id",
    "-j -d res show cm_id",
    "res show cq",
    "-dd res show cq",
    "res show mr",
    "-j -d res show mr",
    "res show pd",
    "-d res show pd",
    "res show ctx",
    "res show srq",
    "-j -dd res show srq",
    "res show qp lqpn 17",
    "res show qp link rxe0/1 state RTS",
    "res show cm_id link rxe0/1",
    "stat",
    "stat show",
    "-j stat show link rxe1/1",
    "stat qp show",
    "stat qp mode",
    "stat mode",
    "stat mode supported",
    "-j stat mode",
    "stat mr show",
    "-j -d dev",
};
constexpr size_t kNumViews = sizeof kViews / sizeof kViews[0];

std::vector<std::string> words(const char* line) {
  std::vector<std::string> out;
  std::string cur;
  for (const char* p = line;; ++p) {
    if (*p == ' ' || !*p) {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
      if (!*p) return out;
    } else {
      cur += *p;
    }
  }
}

class FuzzKernel : public rdma::nl::Transport {
 public:
  FuzzKernel(const uint8_t* p, size_t n, uint8_t flags) : flags_(flags) {
    while (n >= 2) {
      size_t len = p[0] | size_t{p[1]} << 8;
      p += 2;
      n -= 2;
      len = std::min(len, n);
      datagrams_.emplace_back(p, p + len);
      p += len;
      n -= len;
    }
  }
  void send(const uint8_t* data, size_t len) override {
    if (len < sizeof(nlmsghdr)) return;
    nlmsghdr h;
    std::memcpy(&h, data, sizeof h);
    seq_ = h.nlmsg_seq;
    type_ = h.nlmsg_type;
  }
  size_t recv(uint8_t* buf, size_t cap, int) override {
    if (next_ >= datagrams_.size()) return 0;  // nothing more: the deadline passes
    const std::vector<uint8_t>& d = datagrams_[next_++];
    size_t n = std::min(cap, d.size());
    if (n) std::memcpy(buf, d.data(), n);
    for (size_t off = 0; off + sizeof(nlmsghdr) <= n;) {
      nlmsghdr h;
      std::memcpy(&h, buf + off, sizeof h);
      if (flags_ & 1) {
        h.nlmsg_seq = seq_;
        h.nlmsg_pid = port_id();
      }
      if ((flags_ & 2) && h.nlmsg_type >= NLMSG_MIN_TYPE) h.nlmsg_type = type_;
      std::memcpy(buf + off, &h, sizeof h);
      if (h.nlmsg_len < sizeof(nlmsghdr)) break;
      off += (size_t{h.nlmsg_len} + 3) & ~size_t{3};  // no 32-bit wrap of a huge length
    }
    return n;
  }
  uint32_t port_id() const override { return 4242; }
  void join_group(unsigned) override {}

 private:
  uint8_t flags_;
  std::vector<std::vector<uint8_t>> datagrams_;
  size_t next_ = 0;
  uint32_t seq_ = 0;
  uint16_t type_ = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  rdma::Env env;
  env.out = rdma::fuzz::null_file();
  env.err = rdma::fuzz::null_file();
  env.open = [&] { return std::make_unique<FuzzKernel>(data + 2, size - 2, data[1]); };
  rdma::run(words(kViews[data[0] % kNumViews]), env);
  return 0;
}
