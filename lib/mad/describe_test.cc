#include "lib/mad/describe.h"

#include <gtest/gtest.h>

#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/mad/format.h"
#include "lib/mad/mad.h"
#include "lib/testing/captured.h"

namespace rdma::mad {
namespace {

view::Json json_of(const view::Record& r) {
  view::Json j = view::Json::object();
  for (const view::Field& f : r) j[f.key] = f.value;
  return j;
}

std::string text_of(const view::Record& r) {
  std::string s;
  for (const view::Field& f : r) s += f.text;
  return s;
}

TEST(Describe, SwitchNodeInfoFromTheSimulator) {
  view::Record h, a;
  describe(parse_hex(captured::kSwitchNodeInfo), h, a);
  view::Json hj = json_of(h), aj = json_of(a);
  EXPECT_EQ(hj["class"], "0x01");
  EXPECT_EQ(hj["response"], 1);
  EXPECT_EQ(hj["attribute"], "NodeInfo");
  // The values smpquery prints for the same node.
  EXPECT_EQ(aj["type"], "switch");
  EXPECT_EQ(aj["ports"], 8);
  EXPECT_EQ(aj["node_guid"], "0x0000000000200000");
  EXPECT_EQ(aj["partition_cap"], 8);
  EXPECT_EQ(aj["revision"], "0x000000a1");
  EXPECT_EQ(aj["local_port"], 0);
  EXPECT_NE(text_of(a).find("type switch ports 8 "), std::string::npos);
}

TEST(Describe, HcaPortInfoFromTheSimulator) {
  Mad req = make_smp({false, 1, {}}, kGet, kPortInfo, 1);
  std::vector<uint8_t> bytes = parse_hex(captured::kHcaPortInfo);
  req.set(hdr::kTid, get_bits(bytes, 64, 64));
  Mad m = check_reply(req, bytes, "PortInfo");
  view::Record r;
  decode(kPortInfo, m.data(), 1, r);
  view::Json j = json_of(r);
  EXPECT_EQ(j["subnet_prefix"], "0xfe80000000000000");
  EXPECT_EQ(j["lid"], 1);
  EXPECT_EQ(j["sm_lid"], 1);
  EXPECT_EQ(j["caps"], "0x0050c04a");
  EXPECT_EQ(j["state"], "ACTIVE");
  EXPECT_EQ(j["physical_state"], "LINK_UP");
  EXPECT_EQ(j["width"], "4X");
  EXPECT_EQ(j["mtu"], 2048);
  EXPECT_EQ(j["local_port"], 1);
  std::string t = text_of(r);
  EXPECT_NE(t.find("width 4X "), std::string::npos) << t;
  EXPECT_NE(t.find("state ACTIVE physical_state LINK_UP "), std::string::npos) << t;
  EXPECT_NE(t.find("mtu 2048 "), std::string::npos) << t;
  // Without -d only the summary fields.
  view::Record brief;
  decode(kPortInfo, m.data(), 0, brief);
  EXPECT_EQ(json_of(brief).count("mkey"), 0u);
  EXPECT_LT(brief.size(), r.size());
}

TEST(Describe, DirectedRouteReply) {
  view::Record h, a;
  describe(parse_hex(captured::kDrNodeInfo), h, a);
  view::Json hj = json_of(h), aj = json_of(a);
  EXPECT_EQ(hj["class"], "0x81");
  EXPECT_EQ(hj["direction"], 1);
  EXPECT_EQ(hj["status"], "0x0000");
  EXPECT_EQ(hj["hop_count"], 2);
  EXPECT_EQ(hj["initial_path"][1], 1);
  EXPECT_EQ(hj["initial_path"][2], 3);
  EXPECT_EQ(aj["node_guid"], "0x0000000000200001");
  EXPECT_EQ(aj["local_port"], 3);
}

TEST(Describe, PortCountersSetBySimulator) {
  view::Record h, a;
  describe(parse_hex(captured::kPortCounters), h, a);
  view::Json aj = json_of(a);
  EXPECT_EQ(json_of(h)["attribute"], "PortCounters");
  EXPECT_EQ(aj["port_select"], 1);
  EXPECT_EQ(aj["symbol_errors"], 17);
  // PortXmitData, 4-byte words (set to 123456, then the MADs' 72), in bytes.
  EXPECT_EQ(aj["xmit_bytes"], 4 * 123528);
}

TEST(Describe, RejectsMalformedMads) {
  view::Record h, a;
  std::vector<uint8_t> b = parse_hex(captured::kSwitchNodeInfo);
  b.resize(200);
  try {
    describe(b, h, a);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "truncated MAD: 200 bytes, a MAD has 256");
  }
  b = parse_hex(captured::kSwitchNodeInfo);
  b[0] = 7;
  EXPECT_THROW(describe(b, h, a), Error);
}

TEST(Describe, CapturedRepliesFailTheChecksWhenBroken) {
  std::vector<uint8_t> bytes = parse_hex(captured::kHcaPortInfo);
  Mad req = make_smp({false, 1, {}}, kGet, kPortInfo, 1);
  Mad wrong_class = make_gmp(kClassPerf, kGet, kPortInfo, 1);
  EXPECT_THROW(check_reply(wrong_class, bytes, "x"), Error);
  bytes[5] = 0x1c;  // status: invalid attribute modifier
  EXPECT_THROW(check_reply(req, bytes, "x"), Error);
}

TEST(Describe, ParsesHexInCommonForms) {
  EXPECT_EQ(parse_hex("01 81\n0x02,ff:0a"), (std::vector<uint8_t>{1, 0x81, 2, 0xff, 0x0a}));
  EXPECT_EQ(parse_hex("0181"), (std::vector<uint8_t>{1, 0x81}));
  EXPECT_THROW(parse_hex("01 8"), Error);
  EXPECT_THROW(parse_hex("zz"), Error);
  EXPECT_EQ(hex_dump(std::vector<uint8_t>{1, 2}), "01 02\n");
}

}  // namespace
}  // namespace rdma::mad
