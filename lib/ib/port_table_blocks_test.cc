// A port's tables read through the MAD client from the fabric double (the
// suite's fabric, swept: sw1 LID 2, an 8-port switch; hca2 LID 3, reached
// on its port 1): the blocks asked for and every entry, typed.
#include "lib/ib/port_table_blocks.h"

#include <gtest/gtest.h>

#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/fabric/topology.h"
#include "lib/testing/test_data.h"

namespace rdma::ib {
namespace {

class Counting : public mad::Transport {
 public:
  Counting(mad::Transport& t, std::vector<mad::Mad>& sent) : t_(t), sent_(sent) {}
  void send(const mad::Mad& m, const mad::Address& a, int timeout) override {
    sent_.push_back(m);
    t_.send(m, a, timeout);
  }
  std::optional<mad::Received> receive(int timeout) override { return t_.receive(timeout); }

 private:
  mad::Transport& t_;
  std::vector<mad::Mad>& sent_;
};

class PortTables : public ::testing::Test {
 protected:
  PortTables() : fabric_(ibtest::load_topology(rdma::testdata::dir() + "/../ibsim/net")) {
    fabric_.assign_lids();
    client_ = std::make_unique<MadClient>(access(), "", mad::EngineConfig{100, 1, 4});
  }
  mad::Access access() {
    return {[this](const std::string&) { return fabric_.local_port(); },
            [this](const mad::LocalPort&) -> std::unique_ptr<mad::Transport> {
              return std::make_unique<Counting>(fabric_, sent_);
            }};
  }
  ibtest::FabricNode& node(const char* id) { return fabric_.nodes()[fabric_.node(id)]; }
  std::vector<uint32_t> mods_of(const mad::AttrDef& a) const {
    std::vector<uint32_t> out;
    for (const mad::Mad& m : sent_)
      if (m.get(mad::hdr::kAttrId) == a.id)
        out.push_back(static_cast<uint32_t>(m.get(mad::hdr::kAttrMod)));
    return out;
  }
  TablePort at(uint16_t lid, std::optional<uint8_t> port = std::nullopt) {
    return read_table_port(*client_, {false, lid, {}}, port);
  }

  std::vector<mad::Mad> sent_;
  ibtest::FakeFabric fabric_;
  std::unique_ptr<MadClient> client_;
};

TEST_F(PortTables, ThePortIsSettledFromNodeInfo) {
  TablePort sw = at(2);
  EXPECT_TRUE(sw.node.is_switch());
  EXPECT_EQ(sw.port, 0);
  EXPECT_EQ(at(2, 5).port, 5);
  EXPECT_EQ(at(3).port, 1);  // a CA: the arrival port
  EXPECT_THROW(at(2, 9), Error);
  EXPECT_THROW(at(3, 2), Error);
}

TEST_F(PortTables, PkeysUpToTheCapacityOfThePort) {
  ibtest::FabricNode& sw = node("sw1");
  sw.partition_enforcement_cap = 40;
  sw.ports[3].pkeys.clear();
  for (uint16_t i = 0; i < 40; ++i) sw.ports[3].pkeys.push_back(0x8000 | i);
  PKeyTable t = read_pkeys(*client_, at(2, 3));
  EXPECT_EQ(t.capacity, 40u);
  ASSERT_EQ(t.pkeys.size(), 40u);
  EXPECT_EQ(t.pkeys[0], 0x8000);
  EXPECT_EQ(t.pkeys[39], 0x8027);  // entry 7 of block 1
  EXPECT_EQ(mods_of(mad::kPKeyTable), (std::vector<uint32_t>{0x30000, 0x30001}));
  // Port 0: NodeInfo's PartitionCap, no SwitchInfo.
  sent_.clear();
  PKeyTable p0 = read_pkeys(*client_, at(2));
  EXPECT_EQ(p0.capacity, node("sw1").partition_cap);
  EXPECT_TRUE(mods_of(mad::kSwitchInfo).empty());
}

TEST_F(PortTables, GuidsOfACaAndOfASwitchPort0) {
  ibtest::FabricPort& p = node("hca2").ports[1];
  p.guid_cap = 10;
  p.alias_guids.clear();
  for (uint64_t i = 1; i < 10; ++i) p.alias_guids.push_back(0x1000 + i);
  GuidTable t = read_guids(*client_, at(3));
  EXPECT_EQ(t.capacity, 10u);
  ASSERT_EQ(t.guids.size(), 10u);
  EXPECT_EQ(t.guids[0], p.guid);
  EXPECT_EQ(t.guids[9], 0x1009u);
  EXPECT_EQ(mods_of(mad::kGuidInfo), (std::vector<uint32_t>{0, 1}));
  GuidTable sw = read_guids(*client_, at(2));
  EXPECT_EQ(sw.guids, (std::vector<uint64_t>{node("sw1").ports[0].guid}));
  try {
    read_guids(*client_, at(2, 4));
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "lid 2 is a switch: only its port 0 has GUIDs (port 4 has none)");
  }
}

TEST_F(PortTables, Sl2vlOnePerInputPortOfASwitchOneOfACa) {
  for (unsigned in = 0; in <= 8; ++in) {
    std::array<uint8_t, 16> t{};
    for (unsigned sl = 0; sl < 16; ++sl) t[sl] = static_cast<uint8_t>((in + sl) % 16);
    node("sw1").sl2vl[in << 8 | 5] = t;
  }
  std::vector<Sl2VlTable> got;
  read_sl2vl(*client_, at(2, 5), [&](const Sl2VlTable& t) { got.push_back(t); });
  ASSERT_EQ(got.size(), 9u);
  for (unsigned in = 0; in <= 8; ++in) {
    EXPECT_EQ(got[in].in_port, in);
    EXPECT_EQ(got[in].vl[15], (in + 15) % 16);
  }
  got.clear();
  read_sl2vl(*client_, at(3), [&](const Sl2VlTable& t) { got.push_back(t); });
  ASSERT_EQ(got.size(), 1u);
  EXPECT_FALSE(got[0].in_port);
  EXPECT_EQ(got[0].vl, (std::array<uint8_t, 16>{}));  // every SL to VL0 unless set
}

TEST_F(PortTables, VlarbLowThenHighUpToTheirCaps) {
  ibtest::FabricPort& p = node("sw1").ports[3];
  p.vlarb_low_cap = 40;
  p.vlarb_high_cap = 8;
  p.vlarb_low.clear();
  p.vlarb_high.clear();
  for (unsigned e = 0; e < 40; ++e) p.vlarb_low.push_back({uint8_t(e % 8), uint8_t(e)});
  for (unsigned e = 0; e < 8; ++e) p.vlarb_high.push_back({uint8_t(7 - e), uint8_t(100 + e)});
  std::vector<VlArbTable> got;
  read_vlarb(*client_, at(2, 3), [&](const VlArbTable& t) { got.push_back(t); });
  ASSERT_EQ(got.size(), 2u);
  EXPECT_FALSE(got[0].high);
  EXPECT_EQ(got[0].capacity, 40u);
  ASSERT_EQ(got[0].entries.size(), 40u);
  EXPECT_EQ(got[0].entries[39].vl, 7);
  EXPECT_EQ(got[0].entries[39].weight, 39);
  EXPECT_TRUE(got[1].high);
  ASSERT_EQ(got[1].entries.size(), 8u);
  EXPECT_EQ(got[1].entries[0].vl, 7);
  EXPECT_EQ(got[1].entries[7].weight, 107);
  EXPECT_EQ(mods_of(mad::kVlArbTable), (std::vector<uint32_t>{0x10003, 0x20003, 0x30003}));
  EXPECT_THROW(read_vlarb(*client_, at(2), [](const VlArbTable&) { FAIL(); }), Error);
}

}  // namespace
}  // namespace rdma::ib
