// A test kernel: a Transport that answers nldev requests with the bytes
// Linux's drivers/infiniband/core/nldev.c (6.1 or 6.12) would send for the
// RDMA state held in `state`. Replies, acks, dump parts and monitor events
// queue up as datagrams; dump parts are built lazily, one per recv(), with the
// kernel's skb sizes, so huge dumps stream without being held in memory.
#pragma once

#include <linux/netlink.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include "lib/nl/transport.h"
#include "lib/testing/kernel/policy.h"
#include "lib/testing/kernel/skb.h"
#include "lib/testing/kernel/state.h"

namespace rdma::testkernel {

struct Options {
  KernelVersion version = KernelVersion::k6_12;
  uint32_t port_id = 4242;  // nlmsg_pid of replies (the socket's port id)
  bool net_admin = true;    // sender has CAP_NET_ADMIN (root)
  bool ext_ack = true;      // socket set NETLINK_EXT_ACK
  bool cap_ack = true;      // socket set NETLINK_CAP_ACK
  bool pad64 = false;       // pad 64-bit attributes (not on x86_64)
};

// Sizes of kernel skbs on x86_64 (sizeof(struct skb_shared_info) == 320).
inline constexpr size_t kNlmsgGoodSize = 4096 - 320;   // NLMSG_GOODSIZE
inline constexpr size_t kMaxRecvmsgLen = 32768 - 320;  // SKB_WITH_OVERHEAD(32768)

class TestKernel : public nl::Transport {
 public:
  // The VM fixture: rxe0 on veth0 and rxe1 on veth1 (see fixture.h).
  explicit TestKernel(KernelVersion v = KernelVersion::k6_12);
  TestKernel(Options opts, State state);
  ~TestKernel() override;

  Options opts;
  State state;

  void send(const uint8_t* data, size_t len) override;
  size_t recv(uint8_t* buf, size_t cap, int timeout_ms = 0) override;
  uint32_t port_id() const override { return opts.port_id; }
  void join_group(unsigned group) override;

  // Closes the socket and opens another (iproute2 opens one per request at
  // times): what was queued, a running dump and joined groups are dropped.
  void reopen();

  // The next recv() returns these bytes, before anything else queued.
  void inject(std::vector<uint8_t> datagram);
  // Requests (netlink messages) received so far.
  size_t requests() const { return requests_; }
  // Datagrams (or dump parts) waiting to be received.
  bool pending() const { return !queue_.empty() || !injected_.empty(); }

  // Kernel-side changes, as drivers make them; they send monitor events to
  // joined sockets on 6.12. register_device assigns the next index.
  Device& register_device(Device dev);
  void unregister_device(uint32_t index);
  // A QP reaching its port (ib_modify_qp): stored, and on a port in auto
  // counter mode bound like rdma_counter_bind_qp_auto() binds it. Returns 0,
  // or the kernel's error (-ENOMEM/-EOPNOTSUPP without the driver's counter
  // ops, -EINVAL for an unknown device or port).
  int add_qp(uint32_t index, Qp qp);
  // ib_device_set_netdev(): attach (or, with nullopt, detach) a port's netdev.
  void set_netdev(uint32_t index, uint32_t port, std::optional<Netdev> ndev);
  Device* device(uint32_t index);
  Device* device_by_name(const std::string& name);

  // A running dump: cb->dump of netlink_callback. Returns > 0 (more to come,
  // skb sent), 0 (done) or a negative errno; `args` is cb->args[0].
  using DumpFn = std::function<int(Skb& skb, const nlmsghdr* req, long& args)>;

 private:
  struct Queued {
    std::vector<uint8_t> bytes;
    bool dump_part = false;  // build the running dump's next part instead
    size_t alloc = 0;        // its skb size, fixed when the kernel builds it
  };
  struct RunningDump {
    std::vector<uint8_t> req;
    DumpFn fn;
    long args = 0;
    int done_errno = 1;  // nlk->dump_done_errno, > 0 while running
  };
  using Doit = int (TestKernel::*)(const nlmsghdr*, Extack*);
  using DumpFactory = DumpFn (TestKernel::*)();
  struct Op {
    Doit doit = nullptr;
    DumpFactory dump = nullptr;
    bool admin = false;  // RDMA_NL_ADMIN_PERM
  };

  // netlink core
  void receive_one(const nlmsghdr* nlh, Extack& ext);
  int dispatch(const nlmsghdr* nlh, Extack* ext);
  void ack(const nlmsghdr* nlh, int err, const Extack& ext);
  size_t dump_alloc() const;
  std::vector<uint8_t> dump_part(size_t alloc);
  Op op(int cmd) const;
  bool v612() const { return opts.version >= KernelVersion::k6_12; }
  bool v70() const { return opts.version >= KernelVersion::k7_0; }
  bool vnext() const { return opts.version >= KernelVersion::kNext; }

  // replies
  Skb reply_skb() const { return Skb(kNlmsgGoodSize, opts.pad64); }
  bool reply_header(Skb& skb, const nlmsghdr* req, int cmd, uint16_t flags = 0) const;
  void unicast(Skb& skb) { queue_.push_back({skb.take()}); }
  void multicast(Skb& skb);
  int parse(const nlmsghdr* nlh, bool strict, Attrs* tb, Extack* ext) const {
    return nldev_parse(nlh, opts.version, strict, tb, ext);
  }
  // ib_device_get_by_index(): nullptr when unknown.
  const Device* lookup(uint32_t index) const;

  // cmd_dev.cc
  int get_doit(const nlmsghdr*, Extack*);
  DumpFn get_dump();
  // ib_enum_all_devs(): one device per dump part, filled by fill.
  DumpFn per_device_dump(int cmd, std::function<int(Skb&, const Device&)> fill);
  int port_get_doit(const nlmsghdr*, Extack*);
  DumpFn port_get_dump();
  int set_doit(const nlmsghdr*, Extack*);
  int sys_get_doit(const nlmsghdr*, Extack*);
  int sys_set_doit(const nlmsghdr*, Extack*);
  int get_chardev_doit(const nlmsghdr*, Extack*);
  // cmd_link.cc
  int newlink_doit(const nlmsghdr*, Extack*);
  int dellink_doit(const nlmsghdr*, Extack*);
  int newdev_doit(const nlmsghdr*, Extack*);
  int deldev_doit(const nlmsghdr*, Extack*);
  // cmd_res.cc
  int res_get_doit(const nlmsghdr*, Extack*);
  DumpFn res_get_dump();
  int res_entry_doit(const nlmsghdr*, Extack*);
  DumpFn res_entry_dump();
  // cmd_stat.cc
  int stat_get_doit(const nlmsghdr*, Extack*);
  DumpFn stat_get_dump();
  int stat_set_doit(const nlmsghdr*, Extack*);
  int stat_del_doit(const nlmsghdr*, Extack*);
  int stat_get_status_doit(const nlmsghdr*, Extack*);
  // cmd_frmr.cc (7.0)
  DumpFn frmr_get_dump();
  int frmr_set_doit(const nlmsghdr*, Extack*);
  // monitor.cc
  void notify(const Device& dev, uint32_t port, uint8_t event);

  friend struct ResCmd;

  std::deque<std::vector<uint8_t>> injected_;
  std::deque<Queued> queue_;
  std::unique_ptr<RunningDump> dump_;
  size_t max_recvmsg_len_ = 0;
  size_t requests_ = 0;
  bool notify_group_ = false;
};

}  // namespace rdma::testkernel
