// How field values print: GUIDs as 0x and 16 hex digits and GIDs as IPv6 in
// text and JSON, NodeDescriptions quoted and escaped in text, MTUs numbers in
// JSON, LIDs decimal, enumerations and masks by name in text and
// by number in JSON, values outside the names shown as unknown(N).
#include "lib/mad/format.h"

#include <gtest/gtest.h>

#include "lib/mad/attrs.h"
#include "lib/mad/bits.h"

namespace rdma::mad {
namespace {

struct Shown {
  std::string text;
  view::Json json;
};

Shown show(const AttrDef& a, const char* field, std::span<const uint8_t> attr) {
  Shown s;
  render(*find_field(a, field), attr, 0, s.text, s.json);
  return s;
}

TEST(Format, GuidsGidsAndLids) {
  std::vector<uint8_t> pr(64);
  const uint8_t gid[16] = {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 2, 0xc9, 3, 0, 0xa1, 0xb2, 0xc3};
  std::copy(gid, gid + 16, pr.begin() + 8);  // DGID at bit 64
  set_bits(pr, 320, 16, 49151);              // DLID
  Shown g = show(kPathRecord, "DGID", pr);
  EXPECT_EQ(g.text, "fe80::2:c903:a1:b2c3");
  EXPECT_EQ(g.json, "fe80::2:c903:a1:b2c3");
  Shown l = show(kPathRecord, "DLID", pr);
  EXPECT_EQ(l.text, "49151");
  EXPECT_EQ(l.json, 49151);

  std::vector<uint8_t> ni(64);
  set_bits(ni, 96, 64, 0x0002c90300a1b2c3ull);  // NodeGUID
  Shown n = show(kNodeInfo, "NodeGUID", ni);
  EXPECT_EQ(n.text, "0x0002c90300a1b2c3");
  EXPECT_EQ(n.json, "0x0002c90300a1b2c3");
}

TEST(Format, DescriptionsQuotedAndEscapedInTextRawInJson) {
  std::vector<uint8_t> nd(64);
  const char desc[] = "a \"b\" \\ c\td\x7f h\xc3\xb6st";
  std::copy(desc, desc + sizeof desc - 1, nd.begin());
  Shown d = show(kNodeDescription, "NodeString", nd);
  EXPECT_EQ(d.text, "\"a \\\"b\\\" \\\\ c\\x09d\\x7f h\xc3\xb6st\"");
  EXPECT_EQ(d.json, desc);
  EXPECT_EQ(desc_text(""), "\"\"");
  EXPECT_EQ(guid_text(0x200000), "0x0000000000200000");
}

TEST(Format, MtuANumberInJson) {
  std::vector<uint8_t> pi(64);
  set_bits(pi, 288, 4, 4);  // NeighborMTU 2048
  Shown m = show(kPortInfo, "NeighborMTU", pi);
  EXPECT_EQ(m.text, "2048");
  EXPECT_EQ(m.json, 2048);
  set_bits(pi, 288, 4, 7);  // no such MTU: the text in JSON too
  m = show(kPortInfo, "NeighborMTU", pi);
  EXPECT_EQ(m.text, "unknown(7)");
  EXPECT_EQ(m.json, "unknown(7)");
}

TEST(Format, EnumerationsAndMasks) {
  std::vector<uint8_t> pi(64);
  set_bits(pi, 232, 8, 1 | 2 | 8);  // LinkWidthEnabled 1X,4X,12X
  set_bits(pi, 248, 8, 2);          // LinkWidthActive 4X
  set_bits(pi, 260, 4, 4);          // PortState ACTIVE
  set_bits(pi, 264, 4, 9);          // PortPhysicalState: no such state
  Shown m = show(kPortInfo, "LinkWidthEnabled", pi);
  EXPECT_EQ(m.text, "1X,4X,12X");
  EXPECT_EQ(m.json, "1X,4X,12X");
  EXPECT_EQ(show(kPortInfo, "LinkWidthActive", pi).text, "4X");
  Shown st = show(kPortInfo, "PortState", pi);
  EXPECT_EQ(st.text, "ACTIVE");
  EXPECT_EQ(st.json, "ACTIVE");
  EXPECT_EQ(show(kPortInfo, "PortPhysicalState", pi).text, "unknown(9)");
  set_bits(pi, 232, 8, 0);
  EXPECT_EQ(show(kPortInfo, "LinkWidthEnabled", pi).text, "none");
  set_bits(pi, 232, 8, 0x22);  // 4X and a bit no width has
  EXPECT_EQ(show(kPortInfo, "LinkWidthEnabled", pi).text, "4X,unknown(32)");
}

}  // namespace
}  // namespace rdma::mad
