#include "lib/testing/kernel/fixture.h"

namespace rdma::testkernel {
namespace {

// ib_user_verbs.h IB_UVERBS_DEVICE_* bits.
constexpr uint64_t kBadPkeyCntr = 1 << 1;
constexpr uint64_t kBadQkeyCntr = 1 << 2;
constexpr uint64_t kAutoPathMig = 1 << 4;
constexpr uint64_t kChangePhyPort = 1 << 5;
constexpr uint64_t kUdAvPortEnforce = 1 << 6;
constexpr uint64_t kPortActiveEvent = 1 << 10;
constexpr uint64_t kSysImageGuid = 1 << 11;
constexpr uint64_t kRcRnrNakGen = 1 << 12;
constexpr uint64_t kSrqResize = 1 << 13;
constexpr uint64_t kMemWindow = 1 << 17;
constexpr uint64_t kMemMgtExtensions = 1 << 21;
constexpr uint64_t kMemWindowType2B = 1 << 24;
constexpr uint64_t kFlushGlobal = 1ULL << 38;
constexpr uint64_t kFlushPersistent = 1ULL << 39;
constexpr uint64_t kAtomicWrite = 1ULL << 40;

// RXE_DEVICE_CAP_FLAGS (rxe_param.h); 6.12 adds flush and atomic write.
uint64_t rxe_cap_flags(KernelVersion v) {
  uint64_t f = kBadPkeyCntr | kBadQkeyCntr | kAutoPathMig | kChangePhyPort | kUdAvPortEnforce |
               kPortActiveEvent | kSysImageGuid | kRcRnrNakGen | kSrqResize | kMemMgtExtensions |
               kMemWindow | kMemWindowType2B;
  if (v >= KernelVersion::k6_12) f |= kFlushGlobal | kFlushPersistent | kAtomicWrite;
  return f;
}

}  // namespace

void add_mad_resources(Device& d) {
  bool smi = d.protocol == Protocol::kIb || d.protocol == Protocol::kOpa;
  for (uint32_t port = 1; port <= d.ports.size(); ++port) {
    Pd pd;
    pd.id = static_cast<uint32_t>(d.pds.items.size());
    pd.owner.kern_name = "ib_core";
    pd.usecnt = 1;
    d.pds.items.push_back(pd);
    Cq cq;
    cq.id = static_cast<uint32_t>(d.cqs.items.size());
    cq.owner.kern_name = "ib_core";
    cq.cqe = 1023;
    cq.usecnt = smi ? 4 : 2;
    cq.poll_ctx = kPollWorkqueue;
    d.cqs.items.push_back(cq);
    for (uint8_t type : {kQpSmi, kQpGsi}) {
      if (type == kQpSmi && !smi) continue;
      Qp qp;
      qp.qp_num = type == kQpSmi ? 0 : 1;
      qp.port = port;
      qp.type = type;
      qp.id = qp_restrack_id(qp.qp_num, type, port);
      qp.owner.kern_name = "ib_core";
      qp.state = kQpRts;
      d.qps.items.push_back(qp);
    }
  }
}

uint64_t guid_from_mac(const Mac& m) {
  uint8_t eui[8] = {static_cast<uint8_t>(m[0] ^ 2), m[1], m[2], 0xff, 0xfe, m[3], m[4], m[5]};
  uint64_t g = 0;
  for (uint8_t b : eui) g = (g << 8) | b;
  return g;
}

std::vector<HwCounter> rxe_counters() {
  std::vector<HwCounter> c;
  for (const char* n : {"sent_pkts", "rcvd_pkts", "duplicate_request", "out_of_seq_request",
                        "rcvd_rnr_err", "send_rnr_err", "rcvd_seq_err", "ack_deferred",
                        "retry_exceeded_err", "retry_rnr_exceeded_err", "completer_retry_err",
                        "send_err", "link_downed", "rdma_sends", "rdma_recvs"})
    c.push_back({n});
  return c;
}

Device make_rxe(KernelVersion v, const std::string& name, const Netdev& ndev) {
  Device d;
  d.name = name;
  d.driver = "rxe";
  d.protocol = Protocol::kRoce;
  d.node_type = kNodeCa;
  d.cap_flags = rxe_cap_flags(v);
  d.node_guid = d.sys_image_guid = guid_from_mac(ndev.mac);
  // 6.12's rxe marks names given with `rdma link add` as user assigned.
  d.name_assign_type = v >= KernelVersion::k6_12 ? 1 : 0;
  Port p;
  p.netdev = ndev;
  p.hw_counters = rxe_counters();
  d.ports.push_back(p);
  add_mad_resources(d);
  return d;
}

Device make_siw(KernelVersion v, const std::string& name, const Netdev& ndev) {
  Device d;
  d.name = name;
  d.driver = "siw";
  d.protocol = Protocol::kIwarp;
  d.node_type = kNodeRnic;
  d.cap_flags = kMemMgtExtensions;
  d.node_guid = d.sys_image_guid = guid_from_mac(ndev.mac);
  d.name_assign_type = v >= KernelVersion::k6_12 ? 1 : 0;
  Port p;
  p.netdev = ndev;
  d.ports.push_back(p);
  return d;
}

Device make_ib(const std::string& name, uint32_t ports, uint64_t guid) {
  Device d;
  d.name = name;
  d.driver = "mlx5";
  d.protocol = Protocol::kIb;
  d.node_type = kNodeCa;
  d.fw = "20.31.1014";
  d.cap_flags = kBadPkeyCntr | kBadQkeyCntr | kChangePhyPort | kPortActiveEvent | kSysImageGuid |
                kRcRnrNakGen | kMemMgtExtensions | kMemWindow | kMemWindowType2B;
  d.node_guid = d.sys_image_guid = guid;
  d.allow_user_unreg = false;
  d.disassociate_ucontext = true;
  d.counter_bind = true;
  d.modify_hw_stat = true;
  d.sub_devices = true;
  d.raw_qp = d.raw_cq = d.raw_mr = d.raw_srq = true;
  for (uint32_t i = 1; i <= ports; ++i) {
    Port p;
    p.port_cap_flags = 0x2651e848;
    p.subnet_prefix = 0xfe80000000000000ULL;
    p.lid = i;
    p.sm_lid = 1;
    p.hw_counters = std::vector<HwCounter>{{"rx_write_requests"},
                                           {"rx_read_requests"},
                                           {"out_of_buffer"},
                                           {"cc_rx_ce_pkts", 0, true, false}};
    d.ports.push_back(p);
  }
  add_mad_resources(d);
  return d;
}

State vm_fixture(KernelVersion v) {
  State s;
  // `ip link add veth0 type veth peer name veth1` registers the peer first.
  Netdev veth1{2, "veth1", {0x02, 0, 0, 0, 0, 0x02}};
  Netdev veth0{3, "veth0", {0x02, 0, 0, 0, 0, 0x01}};
  s.netdevs = {{1, "lo", {}}, veth1, veth0};
  s.devices.push_back(make_rxe(v, "rxe0", veth0));
  s.devices.back().index = 0;
  s.devices.push_back(make_rxe(v, "rxe1", veth1));
  s.devices.back().index = 1;
  s.next_index = 2;
  return s;
}

}  // namespace rdma::testkernel
