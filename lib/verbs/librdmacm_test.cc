// rdma bw's rdma_cm handshake on the fake librdmacm (the simulator has no
// verbs; the VM's rxe and siw run the real one in tests/vm).
#include <arpa/inet.h>
#include <gtest/gtest.h>

#include <set>

#include "lib/testing/fake_rdma_cm.h"
#include "lib/verbs/cm.h"
#include "lib/verbs/cm_api.h"

namespace rdma::verbs {
namespace {

// A client's Hello as it travels: "RBW1", size, iterations, ping size,
// 32-bit big-endian words.
ListenOn on_port(uint16_t port) {
  ListenOn on;
  on.port = port;
  return on;
}

std::vector<uint8_t> hello_data(uint32_t size, uint32_t iterations, uint32_t lat_size) {
  std::vector<uint8_t> out;
  for (uint32_t w : {0x52425731u, size, iterations, lat_size})
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<uint8_t>(w >> shift));
  return out;
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

}  // namespace
}  // namespace rdma::verbs
