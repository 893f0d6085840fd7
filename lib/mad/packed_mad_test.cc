#include "lib/mad/packed_mad.h"

#include <gtest/gtest.h>

#include "lib/mad/attrs.h"

namespace rdma::mad {
namespace {

// A discovery's Get by a directed route, a Set with data, a route past
// what fits inline, an all-zero MAD and one with every byte set: each
// comes back byte for byte.
TEST(PackedMad, GivesBackEveryMadByteForByte) {
  std::vector<Mad> mads;
  Mad get = make_smp(Route{true, 0, {1, 3, 5}}, kGet, kPortInfo, 7);
  get.set(hdr::kTid, 0x12345678);
  mads.push_back(get);
  Mad set = make_smp(Route{true, 0, {2}}, kSet, kPortInfo, 1);
  for (size_t i = 0; i < 64; ++i) set.data()[i] = static_cast<uint8_t>(i + 1);
  mads.push_back(set);
  std::vector<uint8_t> long_path;
  for (uint8_t p = 1; p <= 20; ++p) long_path.push_back(p);
  mads.push_back(make_smp(Route{true, 0, long_path}, kGet, kNodeInfo, 0));
  mads.push_back(Mad{});
  Mad full;
  full.bytes.fill(0xa5);
  mads.push_back(full);
  for (const Mad& m : mads) EXPECT_EQ(PackedMad(m).unpack().bytes, m.bytes);
}

// Moved as the engine's queue moves it, the whole one too.
TEST(PackedMad, MovesWithItsBytes) {
  Mad full;
  full.bytes.fill(0x5a);
  PackedMad a(full);
  PackedMad b = std::move(a);
  EXPECT_EQ(b.unpack().bytes, full.bytes);
}

}  // namespace
}  // namespace rdma::mad
