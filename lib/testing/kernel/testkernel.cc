// The netlink side of the test kernel: receiving requests (rdma_nl_rcv_skb,
// rdma_nl_rcv_msg), acks (netlink_ack), dumps (netlink_dump) and the receive
// queue.
#include "lib/testing/kernel/testkernel.h"

#include <libmnl/libmnl.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "lib/error.h"
#include "lib/nl/nldev.h"
#include "lib/testing/kernel/fixture.h"

namespace rdma::testkernel {

TestKernel::TestKernel(KernelVersion v) : TestKernel(Options{.version = v}, vm_fixture(v)) {}

TestKernel::TestKernel(Options o, State s) : opts(o), state(std::move(s)) {}

TestKernel::~TestKernel() = default;

void TestKernel::reopen() {
  injected_.clear();
  queue_.clear();
  dump_.reset();
  max_recvmsg_len_ = 0;
  notify_group_ = false;
}

void TestKernel::inject(std::vector<uint8_t> datagram) {
  injected_.push_back(std::move(datagram));
}

TestKernel::Op TestKernel::op(int cmd) const {
  switch (cmd) {
    case RDMA_NLDEV_CMD_GET:
      return {&TestKernel::get_doit, &TestKernel::get_dump};
    case RDMA_NLDEV_CMD_GET_CHARDEV:
      return {&TestKernel::get_chardev_doit};
    case RDMA_NLDEV_CMD_SET:
      return {&TestKernel::set_doit, nullptr, true};
    case RDMA_NLDEV_CMD_NEWLINK:
      return {&TestKernel::newlink_doit, nullptr, true};
    case RDMA_NLDEV_CMD_DELLINK:
      return {&TestKernel::dellink_doit, nullptr, true};
    case RDMA_NLDEV_CMD_PORT_GET:
      return {&TestKernel::port_get_doit, &TestKernel::port_get_dump};
    case RDMA_NLDEV_CMD_RES_GET:
      return {&TestKernel::res_get_doit, &TestKernel::res_get_dump};
    case RDMA_NLDEV_CMD_RES_QP_GET:
    case RDMA_NLDEV_CMD_RES_CM_ID_GET:
    case RDMA_NLDEV_CMD_RES_CQ_GET:
    case RDMA_NLDEV_CMD_RES_MR_GET:
    case RDMA_NLDEV_CMD_RES_PD_GET:
    case RDMA_NLDEV_CMD_RES_CTX_GET:
    case RDMA_NLDEV_CMD_RES_SRQ_GET:
      return {&TestKernel::res_entry_doit, &TestKernel::res_entry_dump};
    case RDMA_NLDEV_CMD_SYS_GET:
      return {&TestKernel::sys_get_doit};
    case RDMA_NLDEV_CMD_SYS_SET:
      return {&TestKernel::sys_set_doit, nullptr, true};
    case RDMA_NLDEV_CMD_STAT_SET:
      return {&TestKernel::stat_set_doit, nullptr, true};
    case RDMA_NLDEV_CMD_STAT_GET:
      return {&TestKernel::stat_get_doit, &TestKernel::stat_get_dump};
    case RDMA_NLDEV_CMD_STAT_DEL:
      return {&TestKernel::stat_del_doit, nullptr, true};
    case RDMA_NLDEV_CMD_RES_QP_GET_RAW:
    case RDMA_NLDEV_CMD_RES_CQ_GET_RAW:
    case RDMA_NLDEV_CMD_RES_MR_GET_RAW:
      return {&TestKernel::res_entry_doit, &TestKernel::res_entry_dump, true};
    case RDMA_NLDEV_CMD_STAT_GET_STATUS:
      return {&TestKernel::stat_get_status_doit};
    default:
      break;
  }
  if (v612()) {
    switch (cmd) {
      case nldev::kCmdResSrqGetRaw:
        return {&TestKernel::res_entry_doit, &TestKernel::res_entry_dump, true};
      case nldev::kCmdNewDev:
        return {&TestKernel::newdev_doit, nullptr, true};
      case nldev::kCmdDelDev:
        return {&TestKernel::deldev_doit, nullptr, true};
      default:
        break;
    }
  }
  if (v70()) {
    switch (cmd) {
      case nldev::kCmdFrmrPoolsGet:
        return {nullptr, &TestKernel::frmr_get_dump};
      case nldev::kCmdFrmrPoolsSet:
        return {&TestKernel::frmr_set_doit, nullptr, true};
      default:
        break;
    }
  }
  return {};
}

void TestKernel::send(const uint8_t* data, size_t len) {
  // rdma_nl_rcv_skb(): every complete message of the datagram in turn. Its
  // one extack lives across them: a message that sets no text of its own
  // reports the previous one's.
  Extack ext;
  size_t off = 0;
  while (len - off >= NLMSG_HDRLEN) {
    const nlmsghdr* nlh = reinterpret_cast<const nlmsghdr*>(data + off);
    if (nlh->nlmsg_len < NLMSG_HDRLEN || nlh->nlmsg_len > len - off) return;
    ++requests_;
    receive_one(nlh, ext);
    off += std::min<size_t>(NLMSG_ALIGN(nlh->nlmsg_len), len - off);
  }
}

void TestKernel::receive_one(const nlmsghdr* nlh, Extack& ext) {
  int err = 0;
  // Only requests reach the handlers; other messages are at most acked.
  if ((nlh->nlmsg_flags & NLM_F_REQUEST) && nlh->nlmsg_type >= NLMSG_MIN_TYPE) {
    err = dispatch(nlh, &ext);
    if (err == -EINTR) return;  // a dump started: no ack even if asked
  }
  if ((nlh->nlmsg_flags & NLM_F_ACK) || err) ack(nlh, err, ext);
}

int TestKernel::dispatch(const nlmsghdr* nlh, Extack* ext) {
  unsigned client = RDMA_NL_GET_CLIENT(nlh->nlmsg_type);
  unsigned cmd = RDMA_NL_GET_OP(nlh->nlmsg_type);
  // Only the nldev client is emulated; others answer as unregistered.
  if (client != RDMA_NL_NLDEV) return -EINVAL;
  Op o = op(static_cast<int>(cmd));
  if (o.admin && !opts.net_admin) return -EPERM;
  if (nlh->nlmsg_flags & NLM_F_DUMP) {
    if (!o.dump) return -EINVAL;
    // __netlink_dump_start()
    if (dump_) return -EBUSY;
    dump_ = std::make_unique<RunningDump>();
    dump_->req.assign(reinterpret_cast<const uint8_t*>(nlh),
                      reinterpret_cast<const uint8_t*>(nlh) + nlh->nlmsg_len);
    dump_->fn = (this->*o.dump)();
    queue_.push_back({{}, true, dump_alloc()});
    return -EINTR;
  }
  if (!o.doit) return -EINVAL;
  return (this->*o.doit)(nlh, ext);
}

// netlink_ack(): NLMSG_ERROR with the request header, its payload unless
// capped, and the extended ack TLVs.
void TestKernel::ack(const nlmsghdr* nlh, int err, const Extack& ext) {
  bool capped = err == 0 || opts.cap_ack;
  size_t req_payload = capped ? 0 : nlh->nlmsg_len - NLMSG_HDRLEN;
  bool tlvs = opts.ext_ack && (ext.msg || (err && (ext.bad_attr || ext.policy)));
  uint16_t flags = (capped ? NLM_F_CAPPED : 0) | (tlvs ? NLM_F_ACK_TLVS : 0);
  Skb skb(65536);
  skb.put_msg(opts.port_id, nlh->nlmsg_seq, NLMSG_ERROR, flags, sizeof(nlmsgerr) + req_payload);
  auto* e = reinterpret_cast<nlmsgerr*>(skb.payload());
  e->error = err;
  e->msg = *nlh;
  if (req_payload)
    std::memcpy(skb.payload() + sizeof(nlmsgerr),
                reinterpret_cast<const uint8_t*>(nlh) + NLMSG_HDRLEN, req_payload);
  if (tlvs) {
    if (ext.msg) skb.put_string(NLMSGERR_ATTR_MSG, ext.msg);
    // An offset into an earlier message of the datagram is dropped.
    if (err && ext.bad_attr && ext.bad_msg == nlh) skb.put_u32(NLMSGERR_ATTR_OFFS, *ext.bad_attr);
    if (err && ext.policy) write_policy(skb, *ext.policy);
  }
  unicast(skb);
}

size_t TestKernel::dump_alloc() const {
  return max_recvmsg_len_ > kNlmsgGoodSize ? max_recvmsg_len_ : kNlmsgGoodSize;
}

// netlink_dump(): one part of the running dump, ending with NLMSG_DONE once
// the callback says it is done.
std::vector<uint8_t> TestKernel::dump_part(size_t alloc) {
  RunningDump& d = *dump_;
  Skb skb(alloc, opts.pad64);
  const auto* req = reinterpret_cast<const nlmsghdr*>(d.req.data());
  if (d.done_errno > 0) {
    d.done_errno = d.fn(skb, req, d.args);
    // 6.12 treats EMSGSIZE with data in the skb as "more to come".
    if (v612() && d.done_errno == -EMSGSIZE && skb.len())
      d.done_errno = static_cast<int>(skb.len());
  }
  if (d.done_errno > 0 || skb.tailroom() < NLMSG_ALIGN(NLMSG_HDRLEN + sizeof(int)))
    return skb.take();
  skb.put_msg(opts.port_id, req->nlmsg_seq, NLMSG_DONE, NLM_F_MULTI, sizeof(int));
  std::memcpy(skb.payload(), &d.done_errno, sizeof(int));
  dump_.reset();
  return skb.take();
}

size_t TestKernel::recv(uint8_t* buf, size_t cap, int) {
  std::vector<uint8_t> bytes;
  bool was_dump = false;
  if (!injected_.empty()) {
    bytes = std::move(injected_.front());
    injected_.pop_front();
  } else if (!queue_.empty()) {
    Queued q = std::move(queue_.front());
    queue_.pop_front();
    was_dump = q.dump_part;
    bytes = was_dump ? dump_part(q.alloc) : std::move(q.bytes);
  } else {
    return 0;
  }
  // netlink_recvmsg(): remember the largest buffer, then build the next dump
  // part (it queues behind whatever is already waiting).
  max_recvmsg_len_ = std::min(std::max(max_recvmsg_len_, cap), kMaxRecvmsgLen);
  if (was_dump && dump_) queue_.push_back({{}, true, dump_alloc()});
  size_t n = std::min(cap, bytes.size());
  std::memcpy(buf, bytes.data(), n);
  return n;
}

bool TestKernel::reply_header(Skb& skb, const nlmsghdr* req, int cmd, uint16_t flags) const {
  return skb.put_msg(opts.port_id, req->nlmsg_seq, nldev::msg_type(cmd), flags);
}

const Device* TestKernel::lookup(uint32_t index) const {
  for (const Device& d : state.devices)
    if (d.index == index) return &d;
  return nullptr;
}

Device* TestKernel::device(uint32_t index) {
  return const_cast<Device*>(lookup(index));
}

Device* TestKernel::device_by_name(const std::string& name) {
  for (Device& d : state.devices)
    if (d.name == name) return &d;
  return nullptr;
}

}  // namespace rdma::testkernel
