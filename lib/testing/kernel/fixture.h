// Ready-made devices and the VM fixture the golden vectors were recorded on.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "lib/testing/kernel/state.h"

namespace rdma::testkernel {

using Mac = std::array<uint8_t, 6>;  // same as Netdev::mac

// Values the fixtures put in resource entries: IB_QPS_RTS, IB_POLL_WORKQUEUE.
inline constexpr uint8_t kQpRts = 3;
inline constexpr uint8_t kPollWorkqueue = 2;

// addrconf_addr_eui48(): the GUID rxe and siw derive from a MAC, as the
// host-order value nldev puts in NODE_GUID.
uint64_t guid_from_mac(const Mac& mac);

// rxe's port counters (rxe_hw_counters.c, same list on 6.1 and 6.12).
std::vector<HwCounter> rxe_counters();

// What ib_mad leaves on every port with IB management (IB and RoCE, not
// iWARP): a kernel PD and CQ per port ("ib_core"), QP1 (GSI) and, on IB
// link layers, QP0 (SMI), all in RTS.
void add_mad_resources(Device& dev);

// A soft-RoCE device as `rdma link add NAME type rxe netdev NDEV` makes it.
Device make_rxe(KernelVersion v, const std::string& name, const Netdev& ndev);
// A soft-iWARP device as `rdma link add NAME type siw netdev NDEV` makes it.
Device make_siw(KernelVersion v, const std::string& name, const Netdev& ndev);
// An InfiniBand HCA (mlx5-like) with `ports` ports, LIDs 1.., SM LID 1.
Device make_ib(const std::string& name, uint32_t ports, uint64_t guid);

// The VM's basic fixture: veth0/veth1 and rxe0/rxe1 on them, no resources.
State vm_fixture(KernelVersion v);

// The VM's resources fixture (tests/vm/fixture.sh): basic plus frozen RC
// pingpong, SRQ pingpong and rping pairs, as recorded on the 6.1 VM. Pids,
// PSNs and keys differ from run to run; the golden test masks them.
State vm_resources_fixture(KernelVersion v);

// A struct sockaddr_storage (128 bytes) holding an IPv4 address and port.
std::vector<uint8_t> sockaddr_in4(uint32_t addr_host_order, uint16_t port);

}  // namespace rdma::testkernel
