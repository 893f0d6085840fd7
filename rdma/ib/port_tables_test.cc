// port show ... {pkeys|guids|sl2vl|vlarb} against a fake fabric: which
// blocks and ports are asked for, every entry printed, and the ports that
// have no such table refused before any table MAD is sent.
#include "rdma/ib/port_tables.h"

#include <nlohmann/json.hpp>

#include "lib/mad/bits.h"
#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

using mad::Mad;

std::vector<uint8_t> attr(const mad::AttrDef& a,
                          std::initializer_list<std::pair<const char*, uint64_t>> values) {
  std::vector<uint8_t> d(64);
  for (auto& [name, v] : values) {
    const mad::FieldDef* f = mad::find_field(a, name);
    EXPECT_NE(f, nullptr) << name;
    mad::set_bits(d, f->bit, f->width, v);
  }
  return d;
}

// Entry i of a table, distinct per block, port and index.
uint16_t pkey_of(unsigned port, unsigned i) {
  return static_cast<uint16_t>(0x8000 | (port << 8) | i);
}

// LID 2: an 8-port switch with a base port 0; LID 3: a 2-port CA reached on
// its port 1. Every table entry tells where it came from.
class Tables : public madtest::MadCmd {
 protected:
  void SetUp() override {
    MadCmd::SetUp();
    responder_ = [this](const Mad& m, const mad::Address& a) { return fabric(m, a); };
  }

  std::optional<std::vector<uint8_t>> fabric(const Mad& m, const mad::Address& a) {
    bool sw = a.lid == 2;
    if (a.lid != 2 && a.lid != 3) return std::nullopt;
    uint32_t mod = static_cast<uint32_t>(m.get(mad::hdr::kAttrMod));
    std::vector<uint8_t> d(64);
    switch (m.get(mad::hdr::kAttrId)) {
      case 0x0011:  // NodeInfo
        d = attr(mad::kNodeInfo, {{"NodeType", sw ? 2 : 1},
                                  {"NumPorts", sw ? 8 : 2},
                                  {"PartitionCap", sw ? 8 : 40},
                                  {"LocalPortNum", sw ? 0 : 1}});
        break;
      case 0x0012:  // SwitchInfo
        if (!sw) return mad::reply_to(m, d, 0x0c);
        d = attr(mad::kSwitchInfo, {{"PartitionEnforcementCap", 40}, {"EnhancedPort0", 0}});
        break;
      case 0x0015:  // PortInfo
        d = attr(mad::kPortInfo, {{"LocalPortNum", mod},
                                  {"GUIDCap", sw ? 1 : 10},
                                  {"VLArbitrationLowCap", 40},
                                  {"VLArbitrationHighCap", 8}});
        break;
      case 0x0016:  // P_KeyTable: block in bits 0-15, port (switches) in 16-31
        for (unsigned i = 0; i < 32; ++i) {
          unsigned port = sw ? mod >> 16 : 1;
          mad::set_bits(d, i * 16, 16, pkey_of(port, (mod & 0xffff) * 32 + i));
        }
        break;
      case 0x0014:  // GUIDInfo: block
        for (unsigned i = 0; i < 8; ++i) mad::set_bits(d, i * 64, 64, 0x1000 + mod * 8 + i);
        break;
      case 0x0017:  // SLtoVLMappingTable: input port << 8 | output port
        for (unsigned sl = 0; sl < 16; ++sl)
          mad::set_bits(d, sl * 4, 4, ((mod >> 8) + (mod & 0xff) + sl) % 16);
        break;
      case 0x0018:  // VLArbitrationTable: block << 16 | port
        for (unsigned i = 0; i < 32; ++i) {
          mad::set_bits(d, i * 16 + 4, 4, i % 8);
          mad::set_bits(d, i * 16 + 8, 8, (mod >> 16) * 40 + i + (mod & 0xff));
        }
        break;
      default:
        return mad::reply_to(m, d, 0x0c);
    }
    return mad::reply_to(m, d);
  }

  // The modifiers of the sent MADs of one attribute.
  std::vector<uint32_t> mods_of(uint16_t id) const {
    std::vector<uint32_t> out;
    for (const Mad& m : sent_)
      if (m.get(mad::hdr::kAttrId) == id)
        out.push_back(static_cast<uint32_t>(m.get(mad::hdr::kAttrMod)));
    return out;
  }

  nlohmann::json json(std::vector<std::string> args) {
    args.insert(args.begin(), "-j");
    madtest::Result r = run_rdma(args);
    EXPECT_EQ(r.status, 0) << r.err;
    return r.status ? nlohmann::json::array() : nlohmann::json::parse(r.out);
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
  madtest::Result r = run_rdma({"port", "show", "lid", "3", "pkeys"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("lid 3: port 1 capacity 40 pkeys 0x8100,0x8101,", 0), 0u) << r.out;
  EXPECT_NE(r.out.find(",0x8127 \n"), std::string::npos) << r.out;  // entry 39 last
  EXPECT_EQ(mods_of(0x0016), (std::vector<uint32_t>{0x10000, 0x10001}));
}

TEST_F(Tables, APortTheSwitchLacksIsRefusedBeforeAnyTableMad) {
  madtest::Result r = run_rdma({"port", "show", "lid", "2", "port", "9", "pkeys"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "lid 2 has no port 9 (a switch with ports 0-8)\n");
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(mods_of(0x0016).size(), 0u);
}

TEST_F(Tables, ACaAnswersOnlyForThePortTheMadArrivesOn) {
  for (const char* table : {"pkeys", "guids", "sl2vl", "vlarb"}) {
    madtest::Result r = run_rdma({"port", "show", "lid", "3", "port", "2", table});
    EXPECT_EQ(r.status, 1) << table;
    EXPECT_EQ(r.err,
              "lid 3 is a channel adapter: it answers for port 1, where the MAD arrives; reach "
              "port 2 by its own LID or a directed route\n")
        << table;
    EXPECT_EQ(r.out, "");
  }
  EXPECT_EQ(sent_.size(), 4u);  // NodeInfo only, once per command
  EXPECT_EQ(run_rdma({"port", "show", "lid", "3", "port", "1", "pkeys"}).status, 0);
}

TEST_F(Tables, CaGuidsReadEveryBlockUpToTheCap) {
  auto j = json({"port", "show", "lid", "3", "guids"});
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["capacity"], 10);
  ASSERT_EQ(j[0]["guids"].size(), 10u);
  EXPECT_EQ(j[0]["guids"][0], "0000:0000:0000:1000");
  EXPECT_EQ(j[0]["guids"][9], "0000:0000:0000:1009");
  EXPECT_EQ(mods_of(0x0014), (std::vector<uint32_t>{0, 1}));
}

TEST_F(Tables, OnlySwitchPort0HasGuids) {
  madtest::Result r = run_rdma({"port", "show", "lid", "2", "port", "4", "guids"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "lid 2 is a switch: only its port 0 has GUIDs (port 4 has none)\n");
  auto j = json({"port", "show", "lid", "2", "guids"});
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["guids"], nlohmann::json::array({"0000:0000:0000:1000"}));
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
  madtest::Result r = run_rdma({"port", "show", "lid", "3", "sl2vl"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "lid 3: port 1 sl2vl 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15 \n");
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
  madtest::Result r = run_rdma({"port", "show", "lid", "2", "vlarb"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "lid 2 port 0 is a base switch port 0: it has no VL arbitration tables\n");
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(mods_of(0x0018).size(), 0u);
}

}  // namespace
}  // namespace rdma
