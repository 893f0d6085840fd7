// Link speeds through the whole program on the fabric double: every
// generation PortInfo's typed fields carry (SDR..NDR) at every width, in
// fabric links, port show and sa show ports alike, text and JSON; down ports
// without width or speed; the "could be" of a degraded link. XDR
// (LinkSpeedExtActive2) and FDR10 (a vendor MAD) are not in the double's
// PortInfo: lib/mad/speed_test.cc covers them on PortInfo bytes.
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "lib/testing/fabric/fabric.h"
#include "lib/testing/fabric/topology.h"
#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

using madtest::MadCmd;
using test::Result;

struct Gen {
  uint8_t speed, speed_ext;
  const char* name;
  const char* lane;
  double lane_rate;  // Gb/s of data per lane, as the kernel's sysfs rate
};

constexpr Gen kGens[] = {
    {1, 0, "SDR", "2.5", 2.5},    {2, 0, "DDR", "5.0", 5},       {4, 0, "QDR", "10.0", 10},
    {4, 1, "FDR", "14.0625", 14}, {4, 2, "EDR", "25.78125", 25}, {4, 4, "HDR", "53.125", 50},
    {4, 8, "NDR", "106.25", 100},
};

struct Width {
  uint8_t value;
  const char* name;
  unsigned lanes;
};

constexpr Width kWidths[] = {
    {ibtest::kWidth1x, "1X", 1}, {ibtest::kWidth2x, "2X", 2},    {ibtest::kWidth4x, "4X", 4},
    {ibtest::kWidth8x, "8X", 8}, {ibtest::kWidth12x, "12X", 12},
};

// The record of sw2 port 1 (to hca3, LID 5) in `fabric links all`: the
// host's end first.
nlohmann::json sw2_hca3(const nlohmann::json& links) {
  for (const auto& l : links)
    if (l.value("description", "") == "hca3" && l.value("peer_port", 0) == 1) return l;
  return nullptr;
}

TEST_F(MadCmd, EveryGenerationAndWidthInEveryView) {
  int sw2 = fabric_.node("sw2");
  for (const Gen& g : kGens) {
    for (const Width& w : kWidths) {
      fabric_.set_link_active(sw2, 1, w.value, g.speed, g.speed_ext);
      std::string what = std::string(w.name) + " " + g.name;
      double rate = g.lane_rate * w.lanes;
      nlohmann::json link = sw2_hca3(json({"fabric", "links", "all"}));
      nlohmann::json port = json({"port", "show", "lid", "5", "port", "1"});
      nlohmann::json sa = json({"sa", "show", "ports", "lid", "5", "port", "1"});
      ASSERT_EQ(port.size(), 1u) << what;
      ASSERT_EQ(sa.size(), 1u) << what;
      for (nlohmann::json r : {link, port[0], sa[0]}) {
        EXPECT_EQ(r["width"], w.name) << what << r.dump();
        EXPECT_EQ(r["speed"], std::strtod(g.lane, nullptr)) << what << r.dump();  // a number
        EXPECT_EQ(r["rate"], rate) << what << r.dump();
        // A whole number of Gb/s is a JSON integer, 1X SDR's 2.5 a float.
        EXPECT_EQ(r["rate"].is_number_integer(), rate != 2.5) << what;
        EXPECT_EQ(r["generation"], g.name) << what << r.dump();
      }
    }
  }
}

TEST_F(MadCmd, RateAsIbstatPrintsItInText) {
  int sw2 = fabric_.node("sw2");
  struct Case {
    uint8_t width, speed, ext;
    const char* width_text;
    const char* text;  // in PortInfo's order, the width comes earlier
  };
  const Case cases[] = {
      {ibtest::kWidth4x, 4, 2, " 4X ", " speed 25.78125 rate 100 generation EDR "},
      {ibtest::kWidth8x, 4, 1, " 8X ", " speed 14.0625 rate 112 generation FDR "},
      {ibtest::kWidth12x, 2, 0, " 12X ", " speed 5.0 rate 60 generation DDR "},
      {ibtest::kWidth4x, 4, 4, " 4X ", " speed 53.125 rate 200 generation HDR "},
      {ibtest::kWidth1x, 1, 0, " 1X ", " speed 2.5 rate 2.5 generation SDR "},
  };
  for (const Case& c : cases) {
    fabric_.set_link_active(sw2, 1, c.width, c.speed, c.ext);
    for (std::vector<std::string> words :
         {std::vector<std::string>{"fabric", "links", "all"},
          std::vector<std::string>{"port", "show", "lid", "5", "port", "1"},
          std::vector<std::string>{"sa", "show", "ports", "lid", "5", "port", "1"}}) {
      Result r = run(words);
      ASSERT_EQ(r.status, 0) << r.err;
      EXPECT_NE(r.out.find(c.text), std::string::npos) << c.text << "\n" << r.out;
      EXPECT_NE(r.out.find(std::string(" width") + c.width_text), std::string::npos) << r.out;
    }
  }
}

TEST_F(MadCmd, DownPortsHaveNoWidthOrSpeed) {
  nlohmann::json down = json({"fabric", "links", "down"}, 1);
  ASSERT_FALSE(down.empty());
  for (const auto& p : down)
    for (const char* k : {"width", "speed", "rate", "generation"})
      EXPECT_FALSE(p.contains(k)) << p.dump();
  Result text = run({"fabric", "links", "down"});
  EXPECT_EQ(text.out.find(" speed "), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find(" width "), std::string::npos) << text.out;
  // The up links of `fabric links all` keep theirs.
  size_t with_speed = 0;
  for (const auto& l : json({"fabric", "links", "all"})) with_speed += l.contains("rate");
  EXPECT_EQ(with_speed, 6u);  // the suite fabric's six links
}

TEST_F(MadCmd, CouldBeCarriesRateAndGeneration) {
  for (auto& n : fabric_.nodes())
    for (auto& p : n.ports) {
      p.width_supported = ibtest::kWidth4x | ibtest::kWidth1x;
      p.speed_supported = 7;
      p.speed_ext_supported = ibtest::kSpeedExtFdr | ibtest::kSpeedExtEdr;
      if (p.peer_node >= 0) {
        p.speed_active = 4;
        p.speed_ext_active = ibtest::kSpeedExtEdr;
      }
    }
  EXPECT_EQ(run({"fabric", "links", "degraded"}).out, "");
  fabric_.set_link_active(fabric_.node("sw2"), 1, ibtest::kWidth1x, 4, ibtest::kSpeedExtFdr);
  nlohmann::json j = json({"fabric", "links", "degraded"}, 1);
  ASSERT_EQ(j.size(), 1u) << j.dump();
  EXPECT_EQ(j[0]["could_be_width"], "4X");
  EXPECT_EQ(j[0]["could_be_speed"], 25.78125);
  EXPECT_EQ(j[0]["could_be_rate"], 100);
  EXPECT_EQ(j[0]["could_be_generation"], "EDR");
  EXPECT_EQ(j[0]["rate"], 14);
  Result t = run({"fabric", "links", "degraded"});
  EXPECT_NE(t.out.find(" could_be_width 4X could_be_speed 25.78125 could_be_rate 100 "
                       "could_be_generation EDR"),
            std::string::npos)
      << t.out;
}

// sw2 port 1 and hca3 at 4X QDR, both ends' MlnxExtPortInfo saying FDR10.
void fdr10_link(ibtest::FakeFabric& f) {
  int sw2 = f.node("sw2"), hca3 = f.node("hca3");
  f.set_link_active(sw2, 1, ibtest::kWidth4x, ibtest::kSpeedQdr);
  for (auto [n, p] : {std::pair{sw2, 1}, std::pair{hca3, 1}}) {
    f.nodes()[n].ports[p].mlnx_speed_enabled = 1;
    f.nodes()[n].ports[p].mlnx_speed_active = 1;
  }
}

TEST_F(MadCmd, Fdr10IsAskedOfTheDevicesIblinkinfoAsks) {
  fdr10_link(fabric_);
  // Device ID 0: not a device libibnetdisc asks, so QDR, as iblinkinfo says.
  // Copies: a key missing is a failed expectation, not a const lookup's UB.
  for (nlohmann::json r : {sw2_hca3(json({"fabric", "links", "all"})),
                           json({"port", "show", "lid", "5", "port", "1"})[0]})
    EXPECT_EQ(r["generation"], "QDR") << r.dump();
  uint64_t asked = fabric_.stats().received[mad::kClassSmiDr];
  // A SwitchX and a ConnectX-3: FDR10, speed 10.0 (iblinkinfo's "10.0 Gbps
  // (FDR10)"), rate 40 (ibstat's).
  fabric_.nodes()[fabric_.node("sw2")].device_id = 0xc738;
  fabric_.nodes()[fabric_.node("hca3")].device_id = 0x1003;
  nlohmann::json link = sw2_hca3(json({"fabric", "links", "all"}));
  EXPECT_GT(fabric_.stats().received[mad::kClassSmiDr], asked);
  nlohmann::json port = json({"port", "show", "lid", "5", "port", "1"});
  ASSERT_EQ(port.size(), 1u);
  for (nlohmann::json r : {link, port[0]}) {
    EXPECT_EQ(r["speed"], 10.0) << r.dump();
    EXPECT_EQ(r["rate"], 40) << r.dump();
    EXPECT_EQ(r["generation"], "FDR10") << r.dump();
  }
  // The SA's PortInfoRecord has no vendor attribute: QDR there.
  EXPECT_EQ(json({"sa", "show", "ports", "lid", "5", "port", "1"})[0]["generation"], "QDR");
  Result t = run({"fabric", "links", "all"});
  EXPECT_NE(t.out.find(" width 4X speed 10.0 rate 40 generation FDR10 "), std::string::npos)
      << t.out;
  EXPECT_NE(run({"fabric", "topology"}).out.find(" 4xFDR10\n"), std::string::npos);
  // The other links, QDR LinkUp ports of sw2 too, are asked and stay QDR.
  size_t fdr10 = 0;
  for (const auto& l : json({"fabric", "links", "all"}))
    fdr10 += l.value("generation", "") == "FDR10";
  EXPECT_EQ(fdr10, 1u);
}

TEST_F(MadCmd, Fdr10NotAnsweredIsNoError) {
  fdr10_link(fabric_);
  fabric_.nodes()[fabric_.node("sw2")].device_id = 0xc738;
  fabric_.nodes()[fabric_.node("hca3")].device_id = 0x1003;
  fabric_.drop({{-1, -1, 0xff90}});
  for (std::vector<std::string> words :
       {std::vector<std::string>{"-j", "fabric", "links", "all"},
        std::vector<std::string>{"-j", "port", "show", "lid", "5", "port", "1"}}) {
    Result r = run(words);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(r.out.find("FDR10"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\"QDR\""), std::string::npos) << r.out;
  }
  EXPECT_GT(fabric_.stats().dropped, 0u);
}

TEST_F(MadCmd, Fdr10IsSavedWithTheFabric) {
  fdr10_link(fabric_);
  fabric_.nodes()[fabric_.node("sw2")].device_id = 0xc738;
  std::string file = ::testing::TempDir() + "rdma-speeds-fdr10";
  ASSERT_EQ(run({"fabric", "save", file}).status, 0);
  fabric_.nodes()[fabric_.node("sw2")].device_id = 0;  // the file, not the wire
  EXPECT_EQ(sw2_hca3(json({"fabric", "links", "all", "from", file}))["generation"], "FDR10");
  EXPECT_EQ(sw2_hca3(json({"fabric", "links", "all"}))["generation"], "QDR");
  std::remove(file.c_str());
}

TEST_F(MadCmd, XdrInEveryView) {
  int sw2 = fabric_.node("sw2"), hca3 = fabric_.node("hca3");
  fabric_.set_link_active(sw2, 1, ibtest::kWidth4x, ibtest::kSpeedQdr, ibtest::kSpeedExtNdr);
  fabric_.nodes()[sw2].ports[1].speed_ext2_active = 1;
  fabric_.nodes()[hca3].ports[1].speed_ext2_active = 1;
  // CapabilityMask2 IsExtendedSpeeds2Supported: without it (ibsim's
  // templates) LinkSpeedExtActive2 is not read, as iblinkinfo does not.
  EXPECT_EQ(sw2_hca3(json({"fabric", "links", "all"}))["generation"], "NDR");
  EXPECT_EQ(json({"port", "show", "lid", "5", "port", "1"})[0]["generation"], "NDR");
  fabric_.nodes()[sw2].ext_speeds2_cap = true;
  fabric_.nodes()[hca3].ext_speeds2_cap = true;
  // Copies: a key missing is a failed expectation, not a const lookup's UB.
  for (nlohmann::json r : {sw2_hca3(json({"fabric", "links", "all"})),
                           json({"port", "show", "lid", "5", "port", "1"})[0],
                           json({"sa", "show", "ports", "lid", "5", "port", "1"})[0]}) {
    EXPECT_EQ(r["speed"], 212.5) << r.dump();
    EXPECT_EQ(r["rate"], 800) << r.dump();
    EXPECT_EQ(r["generation"], "XDR") << r.dump();
  }
  EXPECT_NE(run({"fabric", "topology"}).out.find(" 4xXDR\n"), std::string::npos);
}

// iblinkinfo trusts LinkSpeedExtActive only where CapabilityMask has
// IsExtendedSpeedsSupported: a CA port's own, a switch port's port 0's
// (an external port's masks are reserved, 0). Without it the link reads
// as LinkSpeedActive says.
TEST_F(MadCmd, ExtendedSpeedNeedsTheCapabilityMaskBit) {
  int sw2 = fabric_.node("sw2"), hca3 = fabric_.node("hca3");
  fabric_.set_link_active(sw2, 1, ibtest::kWidth4x, ibtest::kSpeedQdr, ibtest::kSpeedExtEdr);
  EXPECT_EQ(sw2_hca3(json({"fabric", "links", "all"}))["generation"], "EDR");
  std::string lid = std::to_string(fabric_.nodes()[hca3].ports[1].lid);
  std::string sw_lid = std::to_string(fabric_.nodes()[sw2].ports[0].lid);
  EXPECT_EQ(json({"port", "show", "lid", sw_lid, "port", "1"})[0]["generation"], "EDR");
  EXPECT_EQ(json({"port", "show", "lid", lid})[0]["generation"], "EDR");
  // The switch without the bit: its ports (through port 0) read QDR.
  fabric_.nodes()[sw2].ext_speeds_cap = false;
  nlohmann::json link = sw2_hca3(json({"fabric", "links", "all"}));
  EXPECT_EQ(link["generation"], "QDR") << link.dump();
  EXPECT_EQ(link["speed"], 10.0);
  EXPECT_EQ(link["rate"], 40);
  nlohmann::json port = json({"port", "show", "lid", sw_lid, "port", "1"})[0];
  EXPECT_EQ(port["generation"], "QDR") << port.dump();
  EXPECT_EQ(json({"port", "show", "lid", lid})[0]["generation"], "EDR");  // the CA's own: set
  EXPECT_NE(run({"fabric", "topology"}).out.find(" 4xQDR\n"), std::string::npos);
  // The CA without it, the switch with it.
  fabric_.nodes()[sw2].ext_speeds_cap = true;
  fabric_.nodes()[hca3].ext_speeds_cap = false;
  EXPECT_EQ(json({"port", "show", "lid", lid})[0]["generation"], "QDR");
  EXPECT_EQ(sw2_hca3(json({"fabric", "links", "all"}))["generation"], "EDR");
}

// Both ends support EDR, run FDR: "could be" EDR only when both ends'
// masks vouch for the extended speeds; else the base speeds decide.
TEST_F(MadCmd, CouldBeExtendedNeedsBothEndsCapabilityMaskBit) {
  int sw2 = fabric_.node("sw2"), hca3 = fabric_.node("hca3");
  for (int n : {sw2, hca3})
    for (auto& p : fabric_.nodes()[n].ports) {
      p.width_supported = ibtest::kWidth4x | ibtest::kWidth1x;
      p.speed_supported = 7;
      p.speed_ext_supported = ibtest::kSpeedExtFdr | ibtest::kSpeedExtEdr;
    }
  fabric_.set_link_active(sw2, 1, ibtest::kWidth4x, ibtest::kSpeedQdr, ibtest::kSpeedExtFdr);
  auto could_be = [&] { return sw2_hca3(findings_json({"fabric", "links", "degraded"})); };
  EXPECT_EQ(could_be()["could_be_generation"], "EDR");
  fabric_.nodes()[hca3].ext_speeds_cap = false;
  EXPECT_TRUE(could_be().is_null()) << could_be().dump();  // QDR of 7: at its best
}

// "Could be FDR10", as iblinkinfo says of a QDR link both of whose ends'
// MlnxExtPortInfo support FDR10. ibsim cannot show it: it fills
// MlnxExtPortInfo only when the link runs FDR10, so this is the double's
// (mlnx_speeds_always, as a real device answers).
TEST_F(MadCmd, CouldBeFdr10WhenBothEndsSupportItAndRunQdr) {
  int sw2 = fabric_.node("sw2"), hca3 = fabric_.node("hca3");
  fabric_.set_link_active(sw2, 1, ibtest::kWidth4x, ibtest::kSpeedQdr);
  fabric_.nodes()[sw2].device_id = 0xc738;   // a SwitchX
  fabric_.nodes()[hca3].device_id = 0x1003;  // a ConnectX-3
  for (auto [n, p] : {std::pair{sw2, 1}, std::pair{hca3, 1}}) {
    fabric_.nodes()[n].ports[p].width_supported = ibtest::kWidth4x | ibtest::kWidth1x;
    fabric_.nodes()[n].ports[p].speed_supported = 7;
    fabric_.nodes()[n].ports[p].mlnx_speed_enabled = 1;
    fabric_.nodes()[n].ports[p].mlnx_speeds_always = true;
  }
  nlohmann::json l = sw2_hca3(findings_json({"fabric", "links", "degraded"}));
  ASSERT_FALSE(l.is_null());
  EXPECT_EQ(l["generation"], "QDR");
  EXPECT_EQ(l["could_be_generation"], "FDR10") << l.dump();
  EXPECT_EQ(l["could_be_speed"], 10.0);
  EXPECT_EQ(l["could_be_rate"], 40);
  // Running FDR10: nothing better.
  for (auto [n, p] : {std::pair{sw2, 1}, std::pair{hca3, 1}})
    fabric_.nodes()[n].ports[p].mlnx_speed_active = 1;
  EXPECT_TRUE(sw2_hca3(findings_json({"fabric", "links", "degraded"})).is_null());
  // One end without FDR10: QDR is the best.
  for (auto [n, p] : {std::pair{sw2, 1}, std::pair{hca3, 1}})
    fabric_.nodes()[n].ports[p].mlnx_speed_active = 0;
  fabric_.nodes()[hca3].ports[1].mlnx_speed_enabled = 0;
  EXPECT_TRUE(sw2_hca3(findings_json({"fabric", "links", "degraded"})).is_null());
}

}  // namespace
}  // namespace rdma
