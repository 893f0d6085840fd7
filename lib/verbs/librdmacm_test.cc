// rdma bw's rdma_cm handshake on the fake librdmacm (the simulator has no
// verbs; the VM's rxe and siw run the real one in tests/vm).
#include <arpa/inet.h>
#include <endian.h>
#include <gtest/gtest.h>
#include <infiniband/ib.h>
#include <infiniband/sa.h>

#include <cstring>
#include <set>

#include "lib/testing/fake_rdma_cm.h"
#include "lib/verbs/cm.h"
#include "lib/verbs/cm_api.h"

namespace rdma::verbs {
namespace {

ListenOn on_port(uint16_t port) {
  ListenOn on;
  on.port = port;
  return on;
}

// Private data as it travels: "RBW1", then 32-bit big-endian words.
std::vector<uint8_t> wire(std::initializer_list<uint32_t> words) {
  std::vector<uint32_t> all = {0x52425731u};
  all.insert(all.end(), words);
  std::vector<uint8_t> out;
  for (uint32_t w : all)
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<uint8_t>(w >> shift));
  return out;
}

// A client's Hello: size, iterations, ping size.
std::vector<uint8_t> hello_data(uint32_t size, uint32_t iterations, uint32_t lat_size) {
  return wire({size, iterations, lat_size});
}

TEST(LibrdmacmHandshake, SecondClientDuringTheHandshakeIsRefusedAndDestroyed) {
  FakeRdmaCm api;
  rdma_cm_id* first = api.request_id("rxe0", 1, "192.0.2.1");
  rdma_cm_id* second = api.request_id("rxe0", 1, "192.0.2.2");
  api.queue(RDMA_CM_EVENT_CONNECT_REQUEST, first, hello_data(4096, 10, 2));
  // The second request comes while the first is accepted, before its
  // ESTABLISHED.
  api.queue(RDMA_CM_EVENT_CONNECT_REQUEST, second, hello_data(4096, 10, 2));
  api.queue(RDMA_CM_EVENT_ESTABLISHED, first);
  std::unique_ptr<Cm> cm = make_cm(api);
  {
    std::unique_ptr<Connection> c = cm->accept(on_port(18515), 1000, 1000);
    EXPECT_EQ(c->peer(), "192.0.2.1");
    EXPECT_EQ(c->device(), "rxe0");
    EXPECT_EQ(c->hello().size, 4096u);
    EXPECT_EQ(api.accepted, std::vector<rdma_cm_id*>{first});
    EXPECT_EQ(api.rejected, std::vector<rdma_cm_id*>{second});
    EXPECT_EQ(api.live().count(second), 0u) << "the second client's id lives on";
    EXPECT_EQ(api.live().count(first), 1u);
    // One more during the test: refused as well, the first stays.
    rdma_cm_id* third = api.request_id("rxe0", 1, "192.0.2.3");
    api.queue(RDMA_CM_EVENT_CONNECT_REQUEST, third, hello_data(4096, 10, 2));
    EXPECT_FALSE(c->peer_gone());
    EXPECT_EQ(api.rejected, (std::vector<rdma_cm_id*>{second, third}));
    EXPECT_EQ(api.live().count(third), 0u);
  }
  // Gone with the connection: its id and the listeners'; every event acked.
  EXPECT_TRUE(api.live().empty());
  EXPECT_EQ(api.acked, api.delivered);
}

TEST(LibrdmacmHandshake, AnotherProgramsRequestIsRefusedAndTheServerWaitsOn) {
  FakeRdmaCm api;
  rdma_cm_id* stranger = api.request_id("rxe0", 1, "192.0.2.9");
  rdma_cm_id* client = api.request_id("rxe0", 1, "192.0.2.1");
  api.queue(RDMA_CM_EVENT_CONNECT_REQUEST, stranger, {1, 2, 3});
  api.queue(RDMA_CM_EVENT_CONNECT_REQUEST, client, hello_data(64, 1, 2));
  api.queue(RDMA_CM_EVENT_ESTABLISHED, client);
  std::unique_ptr<Connection> c = make_cm(api)->accept(on_port(1), 1000, 1000);
  EXPECT_EQ(c->peer(), "192.0.2.1");
  EXPECT_EQ(api.rejected, std::vector<rdma_cm_id*>{stranger});
  EXPECT_EQ(api.live().count(stranger), 0u);
}

// The server's buffer: rkey, address high and low words.
std::vector<uint8_t> buffer_data(uint32_t rkey, uint64_t addr) {
  return wire({rkey, static_cast<uint32_t>(addr >> 32), static_cast<uint32_t>(addr)});
}

IbPath path_to_lid6() {
  IbPath p;
  for (int i = 0; i < 64; ++i) p.record.push_back(static_cast<uint8_t>(i + 1));
  p.sgid = {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01};
  p.dgid = {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x06};
  p.pkey = 0xffff;
  p.text = "lid 6";
  return p;
}

TEST(LibrdmacmHandshake, InfinibandTargetConnectsOverAfIbWithTheSasPath) {
  FakeRdmaCm api;
  api.client_dev = "mlx5_0";
  api.queue(RDMA_CM_EVENT_ADDR_RESOLVED);
  api.queue(RDMA_CM_EVENT_ROUTE_RESOLVED);
  api.queue(RDMA_CM_EVENT_ESTABLISHED, nullptr, buffer_data(0x99, 0x1000));
  ConnectTo to;
  to.ib = path_to_lid6();
  to.port = 18515;
  std::unique_ptr<Connection> c = make_cm(api)->connect(to, {4096, 10, 2}, 1000);
  // The InfiniBand port space, where the server's AF_IB listener is.
  EXPECT_EQ(api.created, std::vector<rdma_port_space>{RDMA_PS_IB});
  ASSERT_TRUE(api.src_given);
  const auto& src = reinterpret_cast<const sockaddr_ib&>(api.resolve_src);
  const auto& dst = reinterpret_cast<const sockaddr_ib&>(api.resolve_dst);
  EXPECT_EQ(src.sib_family, AF_IB);
  EXPECT_EQ(dst.sib_family, AF_IB);
  EXPECT_EQ(ntohs(src.sib_pkey), 0xffff);
  EXPECT_EQ(ntohs(dst.sib_pkey), 0xffff);
  EXPECT_EQ(std::memcmp(&src.sib_addr, to.ib->sgid.data(), 16), 0);
  EXPECT_EQ(std::memcmp(&dst.sib_addr, to.ib->dgid.data(), 16), 0);
  EXPECT_EQ(be64toh(dst.sib_sid), 0x013F0000u + 18515);
  EXPECT_EQ(dst.sib_sid_mask, ~uint64_t{0});
  // The SA's path given whole, both ways; rdma_cm asks for none itself.
  EXPECT_EQ(api.route_resolutions, 0);
  ASSERT_EQ(api.options.size(), 1u);
  EXPECT_EQ(api.options[0].level, RDMA_OPTION_IB);
  EXPECT_EQ(api.options[0].name, RDMA_OPTION_IB_PATH);
  ASSERT_EQ(api.options[0].value.size(), sizeof(ibv_path_data));
  ibv_path_data given;
  std::memcpy(&given, api.options[0].value.data(), sizeof given);
  EXPECT_EQ(given.flags, IBV_PATH_FLAG_GMP | IBV_PATH_FLAG_PRIMARY | IBV_PATH_FLAG_BIDIRECTIONAL);
  EXPECT_EQ(std::memcmp(&given.path, to.ib->record.data(), 64), 0);
  EXPECT_EQ(api.connect_data, hello_data(4096, 10, 2));
  EXPECT_EQ(c->peer(), "fe80::6");
  EXPECT_EQ(c->device(), "mlx5_0");
}

TEST(LibrdmacmHandshake, IpTargetResolvesItsOwnRouteInTheTcpPortSpace) {
  FakeRdmaCm api;
  api.queue(RDMA_CM_EVENT_ADDR_RESOLVED);
  api.queue(RDMA_CM_EVENT_ROUTE_RESOLVED);
  api.queue(RDMA_CM_EVENT_ESTABLISHED, nullptr, buffer_data(0x99, 0x1000));
  ConnectTo to;
  to.address = "192.0.2.7";
  to.port = 18515;
  std::unique_ptr<Connection> c = make_cm(api)->connect(to, {4096, 10, 2}, 1000);
  EXPECT_EQ(api.created, std::vector<rdma_port_space>{RDMA_PS_TCP});
  EXPECT_FALSE(api.src_given);
  EXPECT_EQ(api.route_resolutions, 1);
  EXPECT_TRUE(api.options.empty());
  EXPECT_EQ(c->peer(), "192.0.2.7");
}

TEST(LibrdmacmHandshake, TheServerListensForInfinibandClientsToo) {
  FakeRdmaCm api;
  rdma_cm_id* client = api.request_id("mlx5_0", 1, "192.0.2.1");
  api.queue(RDMA_CM_EVENT_CONNECT_REQUEST, client, hello_data(64, 1, 2));
  api.queue(RDMA_CM_EVENT_ESTABLISHED, client);
  std::unique_ptr<Connection> c = make_cm(api)->accept(on_port(18515), 1000, 1000);
  // IPv4, IPv6 and AF_IB with the port's InfiniBand service ID.
  ASSERT_EQ(api.bound.size(), 3u);
  EXPECT_EQ(api.created.back(), RDMA_PS_IB);
  const auto& ib = reinterpret_cast<const sockaddr_ib&>(api.bound[2]);
  EXPECT_EQ(ib.sib_family, AF_IB);
  EXPECT_EQ(be64toh(ib.sib_sid), 0x013F0000u + 18515);
  EXPECT_EQ(ib.sib_sid_mask, ~uint64_t{0});
  EXPECT_EQ(api.listening.size(), 3u);
}

}  // namespace
}  // namespace rdma::verbs
