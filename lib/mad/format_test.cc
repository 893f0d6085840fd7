// How field values print: GUIDs as 0x and 16 hex digits and GIDs as IPv6 in
// text and JSON, NodeDescriptions quoted and escaped in text, MTUs numbers in
// JSON, LIDs decimal, enumerations and masks by name in text and
// by number in JSON, values outside the names shown as unknown(N).
#include "lib/mad/format.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "lib/error.h"
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
  EXPECT_EQ(guid_hex(0x200000), "0x0000000000200000");
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

// The data counters count 4-byte words; they print in bytes, in text and
// JSON, under keys that say so; a 64-bit one too large to multiply stops at
// the largest value.
TEST(Format, DataCountersInBytes) {
  std::vector<uint8_t> pc(kPortCounters.bytes), ext(kPortCountersExtended.bytes);
  set_bits(pc, 192, 32, 1000);  // PortXmitData
  set_bits(pc, 288, 32, 1000);  // PortRcvPkts: packets, as they are
  Shown d = show(kPortCounters, "PortXmitData", pc);
  EXPECT_EQ(d.text, "4000");
  EXPECT_EQ(d.json, 4000);
  EXPECT_EQ(show(kPortCounters, "PortRcvPkts", pc).json, 1000);
  EXPECT_STREQ(find_field(kPortCounters, "PortXmitData")->label, "xmit_bytes");
  EXPECT_STREQ(find_field(kPortCounters, "PortRcvData")->label, "rcv_bytes");
  EXPECT_STREQ(find_field(kPortCountersExtended, "PortXmitData")->label, "xmit_bytes");
  EXPECT_STREQ(find_field(kPortCountersExtended, "PortRcvData")->label, "rcv_bytes");
  set_bits(ext, 128, 64, ~0ull);  // PortRcvData saturated
  EXPECT_EQ(show(kPortCountersExtended, "PortRcvData", ext).json, ~0ull);
  set_bits(ext, 128, 64, (~0ull / 4));
  EXPECT_EQ(show(kPortCountersExtended, "PortRcvData", ext).json, (~0ull / 4) * 4);
  EXPECT_EQ(shown_value(Fmt::DataWords, 3), 12u);
  EXPECT_EQ(shown_value(Fmt::Uint, 3), 3u);
}

// A buffer shorter than its fields is an error, with nothing added: the
// fields' offsets are the attribute's, whatever the caller's buffer holds.
TEST(Format, DecodeFieldsShortBufferIsAnError) {
  std::vector<uint8_t> ext(kPortCountersExtended.bytes);
  view::Record whole;
  decode_fields(kPortCountersExtended.fields, ext, 0, whole);
  EXPECT_FALSE(whole.empty());
  std::span<const uint8_t> short_ext = std::span(ext).first(ext.size() - 1);
  view::Record r;
  EXPECT_THROW(decode_fields(kPortCountersExtended.fields, short_ext, 0, r), Error);
  EXPECT_TRUE(r.empty());
  // A table's last element counts: a P_KeyTable block's 32 entries need
  // all 64 bytes.
  const FieldDef& table = *find_field(kPKeyTable, "P_KeyTableBlock");
  ASSERT_GT(table.count, 1);
  std::vector<uint8_t> pkeys(kPKeyTable.bytes);
  view::Record t;
  decode_fields({&table, 1}, pkeys, 0, t);
  EXPECT_EQ(t.size(), 1u);
  EXPECT_THROW(decode_fields({&table, 1}, std::span(pkeys).first(pkeys.size() - 2), 0, t), Error);
}

// One element rendered on its own (cc show's port N) is checked as a table
// is: an index past the buffer is an error naming the element, not a read
// past the attribute's bytes.
TEST(Format, RenderOneElementPastTheBufferIsAnError) {
  const FieldDef& table = *find_field(kPKeyTable, "P_KeyTableBlock");
  std::vector<uint8_t> pkeys(kPKeyTable.bytes);
  set_bits(pkeys, table.bit + (table.count - 1) * table.width, table.width, 0xffff);
  std::string text;
  view::Json json;
  render(table, pkeys, table.count - 1, text, json);
  EXPECT_EQ(text, "0xffff");
  try {
    render(table, pkeys, table.count, text, json);
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "truncated attribute: 64 bytes, no room for P_KeyTableBlock[32]");
  }
  const FieldDef& prefix = *find_field(kPortInfo, "GIDPrefix");
  EXPECT_THROW(render(prefix, std::span(pkeys).first(2), 0, text, json), Error);
}

// Keys (M_Key, SM_Key, ServiceKey) print as "<not displayed>" unless asked
// for, as infiniband-diags prints them without -K.
TEST(Format, KeysAreNotDisplayedUnlessAsked) {
  std::vector<uint8_t> pi(kPortInfo.bytes), sm(kSmInfo.bytes), sr(kServiceRecord.bytes);
  set_bits(pi, 0, 64, 0x1122334455667788ull);  // M_Key
  set_bits(sm, 64, 64, 0xabcdull);             // SM_Key
  set_bits(sr, 256, 64, 0x77ull);              // ServiceKey, first half
  auto fields = [](const AttrDef& a, std::span<const uint8_t> b, bool keys) {
    view::Record r;
    decode(a, b, 1, r, {.show_keys = keys});
    std::map<std::string, std::pair<std::string, view::Json>> out;
    for (const view::Field& f : r) out[f.key] = {f.text, f.value};
    return out;
  };
  auto hidden = fields(kPortInfo, pi, false);
  EXPECT_EQ(hidden["mkey"].first, "mkey <not displayed> ");
  EXPECT_EQ(hidden["mkey"].second, "<not displayed>");
  auto shown = fields(kPortInfo, pi, true);
  EXPECT_EQ(shown["mkey"].first, "mkey 0x1122334455667788 ");
  EXPECT_EQ(shown["mkey"].second, "0x1122334455667788");
  // Only the keys: the fields around them print alike.
  hidden.erase("mkey");
  shown.erase("mkey");
  EXPECT_EQ(hidden, shown);
  EXPECT_EQ(fields(kSmInfo, sm, false)["sm_key"].first, "sm_key <not displayed> ");
  EXPECT_EQ(fields(kSmInfo, sm, true)["sm_key"].first, "sm_key 0x000000000000abcd ");
  EXPECT_EQ(fields(kServiceRecord, sr, false)["service_key"].second, "<not displayed>");
  EXPECT_EQ(fields(kServiceRecord, sr, true)["service_key"].second,
            view::Json::array({"0x0000000000000077", "0x0000000000000000"}));
  // Without -d there is no key to hide.
  view::Record plain;
  decode(kPortInfo, pi, 0, plain);
  for (const view::Field& f : plain) EXPECT_NE(f.key, "mkey");
}

// A NUL-padded string (a NodeDescription): its bytes up to the first NUL,
// all of them without one, UTF-8 bytes as they are.
TEST(Format, CStringStopsAtTheFirstNul) {
  std::vector<uint8_t> d(64, 0);
  std::string name = "sw 1 \xc3\xbc";
  std::copy(name.begin(), name.end(), d.begin());
  d[20] = 'x';  // after the NUL: not part of it
  EXPECT_EQ(c_string(d), name);
  EXPECT_EQ(c_string(std::vector<uint8_t>(3, 'a')), "aaa");
  EXPECT_EQ(c_string({}), "");
}

}  // namespace
}  // namespace rdma::mad
