// The resources fixture: what ibv_rc_pingpong, ibv_srq_pingpong and rping
// leave behind on rxe0/rxe1 (see tests/vm/fixture.sh).
#include "lib/testing/kernel/fixture.h"

namespace rdma::testkernel {
namespace {

constexpr uint8_t kQpInit = 1;
constexpr uint32_t kPsTcp = 0x106;    // RDMA_PS_TCP
constexpr uint8_t kCmListen = 8;      // RDMA_CM_LISTEN
constexpr uint8_t kCmConnect = 5;     // RDMA_CM_CONNECT
constexpr uint32_t kIp = 0xc0000201;  // 192.0.2.1

Owner user(uint32_t pid) {
  return {pid, ""};
}
Owner core() {
  return {0, "ib_core"};
}

Pd pd(uint32_t id, Owner o, uint32_t ctxn, uint64_t usecnt, uint32_t lkey = 0) {
  Pd p;
  p.id = id;
  p.owner = o;
  p.ctxn = ctxn;
  p.usecnt = usecnt;
  p.local_dma_lkey = lkey;
  return p;
}

Cq cq(uint32_t id, Owner o, uint32_t cqe, uint64_t usecnt, uint32_t ctxn) {
  Cq c;
  c.id = id;
  c.owner = o;
  c.cqe = cqe;
  c.usecnt = usecnt;
  c.ctxn = ctxn;
  if (o.kernel()) c.poll_ctx = kPollWorkqueue;
  return c;
}

Qp rc(uint32_t qpn, uint32_t pdn, uint32_t pid, uint32_t rqpn, uint8_t state) {
  Qp q;
  q.id = q.qp_num = qpn;
  q.port = 1;
  q.pdn = pdn;
  q.owner = user(pid);
  q.type = kQpRc;
  q.state = state;
  q.rqpn = rqpn;
  return q;
}

Qp gsi() {
  Qp q;
  q.qp_num = 1;
  q.port = 1;
  q.type = kQpGsi;
  q.id = qp_restrack_id(1, kQpGsi, 1);
  q.owner = core();
  q.state = kQpRts;
  return q;
}

Mr mr(uint32_t id, uint32_t rkey, uint32_t lkey, uint64_t len, uint32_t pdn, uint32_t pid) {
  Mr m;
  m.id = id;
  m.rkey = rkey;
  m.lkey = lkey;
  m.length = len;
  m.pdn = pdn;
  m.owner = user(pid);
  return m;
}

Ctx ctx(uint32_t id, uint32_t pid) {
  Ctx c;
  c.id = id;
  c.owner = user(pid);
  return c;
}

CmId cm(uint32_t id, uint32_t pid, uint8_t state, uint32_t lqpn, uint16_t sport, uint32_t daddr,
        uint16_t dport) {
  CmId c;
  c.id = id;
  c.port = 1;
  c.owner = user(pid);
  c.state = state;
  c.ps = kPsTcp;
  c.lqpn = lqpn;
  c.qp_type = lqpn ? kQpRc : 0;
  c.src_addr = sockaddr_in4(kIp, sport);
  c.dst_addr = sockaddr_in4(daddr, dport);
  return c;
}

}  // namespace

std::vector<uint8_t> sockaddr_in4(uint32_t addr, uint16_t port) {
  std::vector<uint8_t> s(128);
  s[0] = 2;  // AF_INET, host order
  s[2] = port >> 8;
  s[3] = port & 0xff;
  for (int i = 0; i < 4; ++i) s[4 + i] = static_cast<uint8_t>(addr >> (24 - 8 * i));
  return s;
}

State vm_resources_fixture(KernelVersion v) {
  State s = vm_fixture(v);
  Device& r0 = s.devices[0];
  r0.pds.items = {pd(0, core(), 0, 1, 0x14c), pd(1, user(141), 0, 2), pd(2, user(147), 1, 2),
                  pd(3, user(149), 2, 0),     pd(4, user(163), 3, 0), pd(5, user(158), 3, 5),
                  pd(6, user(149), 2, 4)};
  r0.cqs.items = {cq(0, core(), 1023, 2, 0), cq(1, user(141), 511, 2, 0),
                  cq(2, user(147), 511, 2, 1), cq(3, user(158), 63, 2, 3),
                  cq(4, user(149), 63, 2, 2)};
  r0.qps.items = {rc(17, 1, 141, 18, kQpRts), rc(18, 2, 147, 17, kQpRts),
                  rc(19, 5, 158, 20, kQpRts), rc(20, 6, 149, 19, kQpRts), gsi()};
  r0.cm_ids.items = {cm(0, 149, kCmListen, 0, 7174, 0, 0),
                     cm(1, 158, kCmConnect, 19, 41329, kIp, 7174),
                     cm(2, 149, kCmConnect, 20, 7174, kIp, 41329)};
  r0.mrs.items = {mr(0, 0, 0x222, 4096, 1, 141),   mr(1, 0, 0x3d2, 4096, 2, 147),
                  mr(2, 0, 0x458, 16, 5, 158),     mr(3, 0, 0x553, 16, 5, 158),
                  mr(4, 0x6a3, 0x6a3, 64, 5, 158), mr(5, 0x79d, 0x79d, 64, 5, 158),
                  mr(6, 0, 0x834, 16, 6, 149),     mr(7, 0, 0x972, 16, 6, 149),
                  mr(8, 0xa80, 0xa80, 64, 6, 149)};
  r0.ctxs.items = {ctx(0, 141), ctx(1, 147), ctx(2, 149), ctx(3, 163)};

  Device& r1 = s.devices[1];
  r1.pds.items = {pd(0, core(), 0, 1, 0x1f5), pd(1, user(148), 0, 6)};
  r1.cqs.items = {cq(0, core(), 1023, 2, 0), cq(1, user(148), 511, 8, 0)};
  r1.qps.items = {rc(17, 1, 148, 0, kQpInit), rc(18, 1, 148, 0, kQpInit),
                  rc(19, 1, 148, 0, kQpInit), rc(20, 1, 148, 0, kQpInit), gsi()};
  for (int i = 0; i < 4; ++i) r1.qps.items[i].srqn = 0;
  r1.mrs.items = {mr(0, 0, 0x29e, 4096, 1, 148)};
  r1.ctxs.items = {ctx(0, 148)};
  Srq srq;
  srq.id = 0;
  srq.pdn = 1;
  srq.owner = user(148);
  r1.srqs.items = {srq};
  return s;
}

}  // namespace rdma::testkernel
