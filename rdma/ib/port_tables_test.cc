// port show ... {pkeys|guids|sl2vl|vlarb} against the fabric double: which
// blocks and ports are asked for, every entry printed, and the ports that
// have no such table refused before any table MAD is sent.
#include "rdma/ib/port_tables.h"

#include <array>
#include <nlohmann/json.hpp>

#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

using mad::Mad;

// Entry i of a table, distinct per block, port and index.
uint16_t pkey_of(unsigned port, unsigned i) {
  return static_cast<uint16_t>(0x8000 | (port << 8) | i);
}

// LID 2: sw1, an 8-port switch with a base port 0; LID 3: hca2, a 2-port CA
// reached on its port 1. The double's tables are set so that every entry
// tells where it came from.
class Tables : public madtest::MadCmd {
 protected:
  void SetUp() override {
    MadCmd::SetUp();
    ibtest::FabricNode& sw = node("sw1");
    ibtest::FabricNode& ca = node("hca2");
    sw.partition_enforcement_cap = 40;  // port 0 keeps NodeInfo's 8
    ca.partition_cap = 40;
    for (unsigned p = 0; p <= 8; ++p) {
      ibtest::FabricPort& fp = sw.ports[p];
      fill_pkeys(fp, p, p == 0 ? 8 : 40);
      // VLArbitrationTable entry i of block b (1-2 low, 3 high): VL i % 8,
      // weight b * 40 + i + the port.
      fp.vlarb_low_cap = 40;
      fp.vlarb_high_cap = 8;
      fp.vlarb_low.clear();
      fp.vlarb_high.clear();
      for (unsigned e = 0; e < 40; ++e) fp.vlarb_low.push_back(vlarb(1 + e / 32, e % 32, p));
      for (unsigned e = 0; e < 8; ++e) fp.vlarb_high.push_back(vlarb(3, e, p));
      // SLtoVLMappingTable (in, out): SL -> (in + out + SL) % 16.
      for (unsigned out = 0; out <= 8; ++out) sw.sl2vl[p << 8 | out] = sl2vl(p + out);
    }
    ibtest::FabricPort& cp = ca.ports[1];
    fill_pkeys(cp, 1, 40);
    cp.guid_cap = 10;
    cp.alias_guids.clear();
    for (uint64_t i = 1; i < 10; ++i) cp.alias_guids.push_back(0x1000 + i);
    ca.sl2vl[0] = sl2vl(0);
  }

  static void fill_pkeys(ibtest::FabricPort& fp, unsigned port, unsigned n) {
    fp.pkeys.clear();
    for (unsigned i = 0; i < n; ++i) fp.pkeys.push_back(pkey_of(port, i));
  }
  static ibtest::FabricPort::VlArb vlarb(unsigned block, unsigned i, unsigned port) {
    return {static_cast<uint8_t>(i % 8), static_cast<uint8_t>(block * 40 + i + port)};
  }
  static std::array<uint8_t, 16> sl2vl(unsigned add) {
    std::array<uint8_t, 16> t{};
    for (unsigned sl = 0; sl < 16; ++sl) t[sl] = static_cast<uint8_t>((add + sl) % 16);
    return t;
  }

  // The modifiers of the sent MADs of one attribute.
  std::vector<uint32_t> mods_of(uint16_t id) const {
    std::vector<uint32_t> out;
    for (const Mad& m : sent_)
      if (m.get(mad::hdr::kAttrId) == id)
        out.push_back(static_cast<uint32_t>(m.get(mad::hdr::kAttrMod)));
    return out;
  }
};

TEST_F(Tables, SwitchPortPkeysUseTheEnforcementCapAndNameThePort) {
  auto j = json({"port", "show", "lid", "2", "port", "3", "pkeys"});
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["port"], 3);
  EXPECT_EQ(j[0]["capacity"], 40);
  ASSERT_EQ(j[0]["pkeys"].size(), 40u);
  // JSON says what the text says: P_Keys in hex.
  for (unsigned i = 0; i < 40; ++i) {
    char want[8];
    std::snprintf(want, sizeof want, "0x%04x", pkey_of(3, i));
    EXPECT_EQ(j[0]["pkeys"][i], want) << i;
  }
  EXPECT_EQ(mods_of(0x0016), (std::vector<uint32_t>{0x30000, 0x30001}));
}

TEST_F(Tables, SwitchPort0PkeysUseNodeInfoCap) {
  auto j = json({"port", "show", "lid", "2", "pkeys"});
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["port"], 0);
  EXPECT_EQ(j[0]["pkeys"].size(), 8u);
  EXPECT_EQ(mods_of(0x0012).size(), 0u);  // no SwitchInfo needed
  EXPECT_EQ(mods_of(0x0016), (std::vector<uint32_t>{0}));
}

TEST_F(Tables, CaPkeysSpanTwoBlocks) {
  madtest::Result r = run({"port", "show", "lid", "3", "pkeys"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("lid 3: port 1 capacity 40 pkeys 0x8100,0x8101,", 0), 0u) << r.out;
  EXPECT_NE(r.out.find(",0x8127\n"), std::string::npos) << r.out;  // entry 39 last
  EXPECT_EQ(mods_of(0x0016), (std::vector<uint32_t>{0x10000, 0x10001}));
}

TEST_F(Tables, APortTheSwitchLacksIsRefusedBeforeAnyTableMad) {
  madtest::Result r = run({"port", "show", "lid", "2", "port", "9", "pkeys"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "lid 2 has no port 9 (a switch with ports 0-8)\n");
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(mods_of(0x0016).size(), 0u);
}

TEST_F(Tables, ACaAnswersOnlyForThePortTheMadArrivesOn) {
  for (const char* table : {"pkeys", "guids", "sl2vl", "vlarb"}) {
    madtest::Result r = run({"port", "show", "lid", "3", "port", "2", table});
    EXPECT_EQ(r.status, 1) << table;
    EXPECT_EQ(r.err,
              "lid 3 is a channel adapter: it answers for port 1, where the MAD arrives; reach "
              "port 2 by its own LID or a directed route\n")
        << table;
    EXPECT_EQ(r.out, "");
  }
  EXPECT_EQ(sent_.size(), 4u);  // NodeInfo only, once per command
  EXPECT_EQ(run({"port", "show", "lid", "3", "port", "1", "pkeys"}).status, 0);
}

TEST_F(Tables, CaGuidsReadEveryBlockUpToTheCap) {
  auto j = json({"port", "show", "lid", "3", "guids"});
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["capacity"], 10);
  ASSERT_EQ(j[0]["guids"].size(), 10u);
  EXPECT_EQ(j[0]["guids"][0], "0x0000000000100004");  // hca2 port 1's own GUID
  EXPECT_EQ(j[0]["guids"][9], "0x0000000000001009");
  EXPECT_EQ(mods_of(0x0014), (std::vector<uint32_t>{0, 1}));
}

TEST_F(Tables, OnlySwitchPort0HasGuids) {
  madtest::Result r = run({"port", "show", "lid", "2", "port", "4", "guids"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "lid 2 is a switch: only its port 0 has GUIDs (port 4 has none)\n");
  auto j = json({"port", "show", "lid", "2", "guids"});
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["guids"], nlohmann::json::array({"0x0000000000200000"}));  // sw1's port GUID
}

TEST_F(Tables, SwitchSl2vlHasARecordPerInputPort) {
  auto j = json({"port", "show", "lid", "2", "port", "5", "sl2vl"});
  ASSERT_EQ(j.size(), 9u);  // input ports 0-8
  for (unsigned in = 0; in <= 8; ++in) {
    EXPECT_EQ(j[in]["in"], in);
    for (unsigned sl = 0; sl < 16; ++sl) EXPECT_EQ(j[in]["sl2vl"][sl], (in + 5 + sl) % 16);
  }
  std::vector<uint32_t> want;
  for (uint32_t in = 0; in <= 8; ++in) want.push_back(in << 8 | 5);
  EXPECT_EQ(mods_of(0x0017), want);
}

TEST_F(Tables, CaSl2vlIsOneTable) {
  madtest::Result r = run({"port", "show", "lid", "3", "sl2vl"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "lid 3: port 1 sl2vl 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n");
  EXPECT_EQ(mods_of(0x0017), (std::vector<uint32_t>{0}));
}

TEST_F(Tables, VlarbReadsLowAndHighBlocksUpToTheirCaps) {
  auto j = json({"port", "show", "lid", "2", "port", "3", "vlarb"});
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[0]["priority"], "low");
  EXPECT_EQ(j[0]["capacity"], 40);
  ASSERT_EQ(j[0]["weight"].size(), 40u);
  EXPECT_EQ(j[0]["weight"][0], 1 * 40 + 0 + 3);
  EXPECT_EQ(j[0]["weight"][39], 2 * 40 + 7 + 3);  // entry 7 of block 2
  EXPECT_EQ(j[0]["vl"][39], 7);
  EXPECT_EQ(j[1]["priority"], "high");
  EXPECT_EQ(j[1]["weight"].size(), 8u);
  EXPECT_EQ(j[1]["weight"][0], 3 * 40 + 3);
  EXPECT_EQ(mods_of(0x0018), (std::vector<uint32_t>{0x10003, 0x20003, 0x30003}));
}

TEST_F(Tables, BaseSwitchPort0HasNoVlArbitration) {
  madtest::Result r = run({"port", "show", "lid", "2", "vlarb"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "lid 2 port 0 is a base switch port 0: it has no VL arbitration tables\n");
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(mods_of(0x0018).size(), 0u);
}

}  // namespace
}  // namespace rdma
