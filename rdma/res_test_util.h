// Helpers for the `rdma resource` tests: run the whole program against a
// test kernel, optionally answering one command with hand-made bytes.
#pragma once

#include <libmnl/libmnl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "lib/nl/nldev.h"
#include "lib/testing/kernel/fixture.h"
#include "lib/testing/kernel/testkernel.h"
#include "rdma/rdma.h"
#include "rdma/test_util.h"

namespace rdma::restest {

using testkernel::KernelVersion;
using testkernel::TestKernel;

// Forwards to a test kernel the test keeps (to inspect it afterwards). A
// request of command `fake_cmd` is answered by `fake` instead: it gets the
// request and returns the datagrams to deliver.
class Link : public nl::Transport {
 public:
  using Fake = std::function<std::vector<std::vector<uint8_t>>(const nlmsghdr*)>;
  Link(TestKernel& k, std::vector<std::vector<uint8_t>>& sent, int fake_cmd, Fake fake)
      : k_(k), sent_(sent), fake_cmd_(fake_cmd), fake_(fake) {}
  void send(const uint8_t* d, size_t n) override {
    auto* nlh = reinterpret_cast<const nlmsghdr*>(d);
    sent_.emplace_back(d, d + n);
    if (fake_ && nlh->nlmsg_type == nldev::msg_type(fake_cmd_)) {
      for (auto& dg : fake_(nlh)) queue_.push_back(std::move(dg));
      return;
    }
    k_.send(d, n);
  }
  size_t recv(uint8_t* buf, size_t cap, int) override {
    if (!queue_.empty()) {
      std::vector<uint8_t> dg = std::move(queue_.front());
      queue_.erase(queue_.begin());
      size_t n = std::min(cap, dg.size());
      std::copy(dg.begin(), dg.begin() + n, buf);
      return n;
    }
    return k_.recv(buf, cap);
  }
  uint32_t port_id() const override { return k_.port_id(); }
  void join_group(unsigned g) override { k_.join_group(g); }

 private:
  TestKernel& k_;
  std::vector<std::vector<uint8_t>>& sent_;
  int fake_cmd_;
  Fake fake_;
  std::vector<std::vector<uint8_t>> queue_;
};

struct Result : test::Result {
  std::vector<std::vector<uint8_t>> sent;  // every request, in order
  // Requests of command cmd that were dumps / doits.
  int count(int cmd, bool dump) const {
    int n = 0;
    for (const auto& r : sent) {
      auto* nlh = reinterpret_cast<const nlmsghdr*>(r.data());
      if (nlh->nlmsg_type == nldev::msg_type(cmd) && bool(nlh->nlmsg_flags & NLM_F_DUMP) == dump)
        ++n;
    }
    return n;
  }
};

inline Result run(TestKernel& k, std::vector<std::string> args, int fake_cmd = -1,
                  Link::Fake fake = {}) {
  Result res;
  test::Result r = test::run_program(std::move(args), [&]() -> std::unique_ptr<nl::Transport> {
    return std::make_unique<Link>(k, res.sent, fake_cmd, fake);
  });
  static_cast<test::Result&>(res) = std::move(r);
  return res;
}

// The VM's resources fixture with every user object owned by this process,
// so that comm reads "unit_tests".
inline testkernel::State fixture(KernelVersion v = KernelVersion::k6_12) {
  testkernel::State s = testkernel::vm_resources_fixture(v);
  auto me = static_cast<uint32_t>(getpid());
  auto own = [&](auto& table) {
    for (auto& item : table.items)
      if (!item.owner.kernel()) item.owner.pid = me;
  };
  for (auto& d : s.devices) {
    own(d.pds);
    own(d.cqs);
    own(d.qps);
    own(d.cm_ids);
    own(d.mrs);
    own(d.ctxs);
    own(d.srqs);
  }
  return s;
}

// The pid and comm of this process stand for %P and %C in expected output.
inline std::string subst(std::string s) {
  std::string comm;
  if (std::FILE* f = std::fopen("/proc/self/comm", "r")) {
    char buf[64] = {};
    if (std::fgets(buf, sizeof buf, f)) comm = buf;
    std::fclose(f);
  }
  if (!comm.empty() && comm.back() == '\n') comm.pop_back();
  for (auto [key, val] :
       {std::pair<std::string, std::string>{"%P", std::to_string(getpid())}, {"%C", comm}}) {
    for (size_t p; (p = s.find(key)) != std::string::npos;) s.replace(p, 2, val);
  }
  return s;
}

// One netlink message built with libmnl; fill adds the attributes.
inline std::vector<uint8_t> message(const nlmsghdr* req, uint16_t type, uint16_t flags,
                                    const std::function<void(nlmsghdr*)>& fill) {
  std::vector<uint8_t> buf(8192);
  nlmsghdr* nlh = mnl_nlmsg_put_header(buf.data());
  nlh->nlmsg_type = type;
  nlh->nlmsg_flags = flags;
  nlh->nlmsg_seq = req->nlmsg_seq;
  nlh->nlmsg_pid = 4242;
  if (fill) fill(nlh);
  buf.resize(nlh->nlmsg_len);
  return buf;
}

inline std::vector<uint8_t> done(const nlmsghdr* req) {
  return message(req, NLMSG_DONE, NLM_F_MULTI, [](nlmsghdr* nlh) {
    int zero = 0;
    std::memcpy(mnl_nlmsg_put_extra_header(nlh, sizeof zero), &zero, sizeof zero);
  });
}

}  // namespace rdma::restest
