// --pkey-idx (EngineConfig::gmp_pkey_index): what the transport is given
// for each class, first tries and retries alike.
#include <gtest/gtest.h>

#include "lib/mad/attrs.h"
#include "lib/mad/engine.h"
#include "lib/testing/fake_transport.h"

namespace rdma::mad {
namespace {

TEST(EnginePkeyIndex, GmpsLeaveWithTheIndexAndSmpsWithZero) {
  int calls = 0;
  FakeTransport t([&](const Mad& m, const Address&) -> std::optional<std::vector<uint8_t>> {
    if (++calls == 1) return std::nullopt;  // the first GMP's first try: lost
    return reply_to(m, std::vector<uint8_t>(40));
  });
  Engine e(t, {.timeout_ms = 1, .retries = 1, .gmp_pkey_index = 3});
  e.call(make_gmp(kClassPerf, kGet, kPortCounters, 0), gsi_address(4), "PortCounters");
  e.call(make_gmp(kClassSa, kGet, kNodeRecord, 0), gsi_address(1), "NodeRecord");
  const Route lid{false, 4, {}}, dr{true, 0, {1, 2}};
  e.call(make_smp(lid, kGet, kNodeInfo, 0), smp_address(lid), "NodeInfo");
  e.call(make_smp(dr, kGet, kNodeInfo, 0), smp_address(dr), "NodeInfo");
  ASSERT_EQ(t.sent_to.size(), 5u);
  std::vector<int> idx;
  for (const Address& a : t.sent_to) idx.push_back(a.pkey_index);
  EXPECT_EQ(idx, (std::vector<int>{3, 3, 3, 0, 0}));  // PMA (and its retry), SA, SMPs
}

TEST(EnginePkeyIndex, NoneGivenIsTheDefaultPartitionsIndexZero) {
  FakeTransport t(
      [](const Mad& m, const Address&) { return reply_to(m, std::vector<uint8_t>(40)); });
  Engine e(t, {});
  Address to = gsi_address(4);
  to.pkey_index = 9;  // the engine's setting is the one that counts
  e.call(make_gmp(kClassPerf, kGet, kPortCounters, 0), to, "PortCounters");
  ASSERT_EQ(t.sent_to.size(), 1u);
  EXPECT_EQ(t.sent_to[0].pkey_index, 0);
}

}  // namespace
}  // namespace rdma::mad
