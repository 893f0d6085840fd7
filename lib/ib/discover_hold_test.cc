// Which probes ahead wait for the far switch's own (ProbeHolds).
#include "lib/ib/discover_hold.h"

#include <gtest/gtest.h>

#include <map>

namespace rdma::ib {
namespace {

// Ports of switch 1 as discovery knows them: leads to a switch, or out.
struct HoldPorts {
  std::map<uint8_t, PortLead> known;
  ProbeHolds::Leads leads() const {
    return [this](uint8_t q) {
      auto it = known.find(q);
      return it == known.end() ? PortLead{} : it->second;
    };
  }
  void to(uint8_t first, uint8_t last, uint64_t guid) {
    for (unsigned q = first; q <= last; ++q) known[q] = {PortLead::kSwitch, guid};
  }
};

constexpr auto kAnyLater = [](uint64_t) { return true; };

TEST(ProbeHolds, NoneBeforeABlockOfThreeIsSeen) {
  HoldPorts p;
  p.to(1, 2, 0xa);  // a block of 2 only
  p.to(5, 5, 0xb);
  ProbeHolds h;
  EXPECT_FALSE(h.beside_block({1, 3}, 12, p.leads()));
  EXPECT_FALSE(h.beside_block({1, 6}, 12, p.leads()));
}

TEST(ProbeHolds, ThePortBesideTwoToOneSwitchWaitsForIt) {
  HoldPorts p;
  p.to(1, 3, 0xa);  // the block that shows blocks
  p.to(6, 7, 0xb);
  ProbeHolds h;
  EXPECT_EQ(h.beside_block({1, 8}, 12, p.leads()), 0xbu);
  EXPECT_EQ(h.beside_block({1, 5}, 12, p.leads()), 0xbu);  // from the other side
  EXPECT_FALSE(h.beside_block({1, 10}, 12, p.leads()));    // nothing beside
  ASSERT_TRUE(h.hold_beside({1, 8}, 12, p.leads(), kAnyLater));
  EXPECT_TRUE(h.held({1, 8}));
  // A held port leads where it waits: the next one waits too.
  EXPECT_EQ(h.beside_block({1, 9}, 12, p.leads()), 0xbu);
  EXPECT_TRUE(h.hold_beside({1, 9}, 12, p.leads(), kAnyLater));
  std::vector<ProbeHolds::Key> released = h.release(0xb);
  EXPECT_EQ(released, (std::vector<ProbeHolds::Key>{{1, 8}, {1, 9}}));
  EXPECT_FALSE(h.held({1, 8}));
  EXPECT_TRUE(h.release(0xb).empty());
}

TEST(ProbeHolds, AProbeStillOutCountsWhenTheSwitchIsBeyondIt) {
  HoldPorts p;
  p.to(1, 3, 0xa);
  p.to(6, 6, 0xb);
  p.known[7] = {PortLead::kOut, 0};
  ProbeHolds h;
  EXPECT_EQ(h.beside_block({1, 8}, 12, p.leads()), 0xbu);  // 7 out, 6 -> b
  p.known[6] = {PortLead::kOut, 0};
  EXPECT_FALSE(h.beside_block({1, 8}, 12, p.leads()));  // nothing learnt beside
}

TEST(ProbeHolds, OnlyForASwitchTheCallerTakesAsLater) {
  HoldPorts p;
  p.to(1, 3, 0xa);
  p.to(5, 6, 0xb);
  ProbeHolds h;
  EXPECT_FALSE(h.hold_beside({1, 7}, 12, p.leads(), [](uint64_t g) { return g != 0xb; }));
  EXPECT_FALSE(h.held({1, 7}));
  EXPECT_TRUE(h.release(0xb).empty());
}

}  // namespace
}  // namespace rdma::ib
