// rdma mad get by name or id, and rdma mad decode of a MAD on stdin.
#include <nlohmann/json.hpp>

#include "rdma/ib/test_util.h"

namespace rdma {
namespace {

using ibtest::FabricPort;
using mad::Mad;
using madtest::MadCmd;
using madtest::Result;

TEST_F(MadCmd, MadGetTakesTheAttributeByNameOrId) {
  Result by_name = run({"-j", "mad", "get", "NodeInfo", "lid", "2"});
  Result by_id = run({"-j", "mad", "get", "0x11", "lid", "2"});
  ASSERT_EQ(by_id.status, 0) << by_id.err;
  EXPECT_EQ(by_id.out, by_name.out);
  auto j = nlohmann::json::parse(by_id.out);
  EXPECT_EQ(j[0]["attribute"], "NodeInfo");
  EXPECT_EQ(j[0]["ports"], 8);
  Result ambiguous = run({"mad", "get", "0x12", "lid", "2"});
  EXPECT_EQ(ambiguous.status, 1);
  EXPECT_EQ(ambiguous.err,
            "attribute id 0x0012 is SwitchInfo and PortCounters; name the one you mean\n");
}

// The forwarding tables route show reads, also by name (as by id), and
// the same way for both.
TEST_F(MadCmd, MadGetTakesTheForwardingTablesByNameAsById) {
  ibtest::FabricNode& sw = node("sw1");  // lid 2, its LFT as the SM set it
  sw.mft[0xc001] = 0x6;                  // ports 1 and 2
  auto lft = json({"mad", "get", "LinearForwardingTable", "lid", "2", "mod", "0"});
  EXPECT_EQ(lft[0]["attribute"], "LinearForwardingTable");
  ASSERT_GT(sw.lft.size(), 5u);
  EXPECT_EQ(lft[0]["port"][5], sw.lft[5]);
  EXPECT_EQ(lft[0]["port"][2], 0);  // itself
  EXPECT_EQ(json({"mad", "get", "0x19", "lid", "2", "mod", "0"}), lft);
  EXPECT_EQ(json({"mad", "get", "lin", "lid", "2", "mod", "0"}), lft);
  auto mft = json({"mad", "get", "MulticastForwardingTable", "lid", "2", "mod", "0"});
  EXPECT_EQ(mft[0]["attribute"], "MulticastForwardingTable");
  EXPECT_EQ(mft[0]["port_mask"][1], "0x0006");
  EXPECT_EQ(json({"mad", "get", "0x1b", "lid", "2", "mod", "0"}), mft);
  EXPECT_EQ(sent_.back().get(mad::hdr::kAttrId), mad::kMulticastForwardingTable.id);
}

TEST_F(MadCmd, MadGetSendsTheModifier) {
  ASSERT_EQ(run({"mad", "get", "PortInfo", "lid", "2", "mod", "0x3"}).status, 0);
  EXPECT_EQ(sent_.back().get(mad::hdr::kAttrMod), 3u);
  EXPECT_EQ(sent_.back().get(mad::hdr::kAttrId), mad::kPortInfo.id);
}

// A vendor attribute no table here describes, as a device that has it
// answers: the fabric's refusal turned into 64 bytes 0, 1, 2, ...
void answer_raw_0xff91(std::vector<uint8_t>& reply) {
  Mad m;
  std::copy_n(reply.begin(), mad::kMadBytes, m.bytes.begin());
  if (m.get(mad::hdr::kAttrId) != 0xff91) return;
  m.set(mad::hdr::kStatus, 0);
  for (size_t i = 0; i < 64; ++i) m.data()[i] = static_cast<uint8_t>(i);
  std::copy(m.bytes.begin(), m.bytes.end(), reply.begin());
}

TEST_F(MadCmd, MadGetShowsAnAttributeWithoutDecoderRaw) {
  spoil_ = answer_raw_0xff91;
  Result r = run({"mad", "get", "0xff91", "lid", "2", "mod", "3"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "lid 2: attribute 0xff91\n"
            "0001 0203 0405 0607 0809 0a0b 0c0d 0e0f\n"
            "1011 1213 1415 1617 1819 1a1b 1c1d 1e1f\n"
            "2021 2223 2425 2627 2829 2a2b 2c2d 2e2f\n"
            "3031 3233 3435 3637 3839 3a3b 3c3d 3e3f\n");
  EXPECT_EQ(sent_.back().get(mad::hdr::kAttrId), 0xff91u);
  EXPECT_EQ(sent_.back().get(mad::hdr::kAttrMod), 3u);
  auto j = json({"mad", "get", "65425", "lid", "2"});  // 0xff91 in decimal
  EXPECT_EQ(j[0]["attribute"], "0xff91");
  std::string hex = j[0]["data"];
  EXPECT_EQ(hex.size(), 128u);
  EXPECT_EQ(hex.substr(0, 8), "00010203");
  EXPECT_EQ(hex.substr(120), "3c3d3e3f");
}

TEST_F(MadCmd, MadGetOfAnAttributeNobodyAnswersFailsWithItsStatus) {
  Result r = run({"mad", "get", "0xff91", "lid", "2"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(
      r.err,
      "0xff91 from lid 2 failed: status 0x000c (method/attribute combination not supported)\n");
  EXPECT_EQ(run({"mad", "get", "0x10000", "lid", "2"}).err, "invalid attribute id \"0x10000\"\n");
}

TEST_F(MadCmd, MadGetDecodesTheVendorsAndTheExtendedPortInfo) {
  int sw1 = fabric_.node("sw1");
  fabric_.nodes()[sw1].ports[3].mlnx_speeds_always = true;
  fabric_.nodes()[sw1].ports[3].mlnx_speed_enabled = 1;
  auto j = json({"mad", "get", "0xff90", "lid", "2", "mod", "3"});
  EXPECT_EQ(j[0]["attribute"], "MlnxExtPortInfo");
  EXPECT_EQ(j[0]["speed_supported"], "0x01");
  EXPECT_EQ(j[0]["speed_enabled"], "0x01");
  EXPECT_EQ(json({"mad", "get", "mlnx", "lid", "2", "mod", "3"}), j);
  FabricPort& p = fabric_.nodes()[sw1].ports[3];
  p.port_info_ext = true;
  p.fec_active = 2;
  p.fec_supported = {0x3, 0x7, 0xf, 0xf};
  p.fec_enabled = {0x1, 0x2, 0x4, 0x8};
  j = json({"mad", "get", "PortInfoExtended", "lid", "2", "mod", "3"});
  EXPECT_EQ(j[0]["caps"], "0x00000001");
  EXPECT_EQ(j[0]["fec_mode_active"], 2);
  EXPECT_EQ(j[0]["edr_fec_supported"], "0x0007");
  EXPECT_EQ(j[0]["ndr_fec_enabled"], "0x0008");
  Result text = run({"mad", "get", "0x33", "lid", "2", "mod", "3"});
  EXPECT_NE(text.out.find(" fec_mode_active 2 fdr_fec_supported 0x0003 "), std::string::npos)
      << text.out;
}

TEST_F(MadCmd, MadDecodeReadsACapturedReplyOnStdin) {
  Result r = run({"-j", "mad", "decode"}, mad::captured::kPortCounters);
  ASSERT_EQ(r.status, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.size(), 2u);  // header, attribute
  EXPECT_EQ(j[0]["class"], "0x04");
  EXPECT_EQ(j[0]["attribute"], "PortCounters");
  EXPECT_EQ(j[1]["symbol_errors"], 17);
  EXPECT_TRUE(sent_.empty());  // nothing sent: no local port needed
}

TEST_F(MadCmd, MadDecodeRefusesWhatIsNotAMad) {
  Result r = run({"mad", "decode"}, "01 02 03\n");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "truncated MAD: 3 bytes, a MAD has 256\n");
  r = run({"mad", "decode"}, "01 0x\n");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("x"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace rdma
