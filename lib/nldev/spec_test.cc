// decode_attrs/decode_field on real netlink bytes: each format's text and
// JSON, the values a format hides, text-only records, detail levels and
// templates with other '%' in them.
#include "lib/nldev/spec.h"

#include <gtest/gtest.h>
#include <rdma/rdma_netlink.h>

#include <string>
#include <vector>

namespace rdma::nldev {
namespace {

// A message whose attributes put() adds, parsed as the tool parses replies.
struct SpecMsg {
  std::vector<uint8_t> buf = std::vector<uint8_t>(1024);
  nlmsghdr* h = mnl_nlmsg_put_header(buf.data());
  nl::Attrs attrs() const { return nl::Attrs::of_message(h); }
};

std::string spec_text(const view::Record& r) {
  std::string s;
  for (const view::Field& f : r) s += f.text;
  return s;
}

// Each field's JSON as "key":value, comma-joined.
std::string spec_json(const view::Record& r) {
  std::string s;
  for (const view::Field& f : r) {
    if (f.key.empty()) continue;
    if (!s.empty()) s += ',';
    s += '"' + f.key + "\":" + (f.json.empty() ? f.value.dump() : f.json);
  }
  return s;
}

std::string one(const nl::Attrs& a, FieldSpec f, bool text_only = false) {
  view::Record r;
  r.set_text_only(text_only);
  EXPECT_TRUE(decode_field(a, f, r));
  return spec_text(r) + "|" + spec_json(r);
}

TEST(NldevSpec, ScalarFormatsInTextAndJson) {
  SpecMsg m;
  mnl_attr_put_u32(m.h, RDMA_NLDEV_ATTR_DEV_INDEX, 4294967295u);
  mnl_attr_put_u64(m.h, RDMA_NLDEV_ATTR_RES_USECNT, 18446744073709551615ull);
  mnl_attr_put_strz(m.h, RDMA_NLDEV_ATTR_DEV_NAME, "mlx5_\"0");
  mnl_attr_put_u64(m.h, RDMA_NLDEV_ATTR_NODE_GUID, 0x0002c90300001234ull);
  mnl_attr_put_u32(m.h, RDMA_NLDEV_ATTR_RES_LKEY, 0x2eb);
  mnl_attr_put_u64(m.h, RDMA_NLDEV_ATTR_RES_IOVA, 0xffffffff00000000ull);
  mnl_attr_put_u8(m.h, RDMA_NLDEV_ATTR_DEV_NODE_TYPE, 2);
  mnl_attr_put_u8(m.h, RDMA_NLDEV_ATTR_PORT_STATE, 4);
  mnl_attr_put_u8(m.h, RDMA_NLDEV_ATTR_PORT_PHYS_STATE, 5);
  nl::Attrs a = m.attrs();
  EXPECT_EQ(one(a, {RDMA_NLDEV_ATTR_DEV_INDEX, "ifindex", "%s: ", Fmt::U32}),
            "4294967295: |\"ifindex\":4294967295");
  EXPECT_EQ(one(a, {RDMA_NLDEV_ATTR_RES_USECNT, "users", "users %s ", Fmt::U64}),
            "users 18446744073709551615 |\"users\":18446744073709551615");
  EXPECT_EQ(one(a, {RDMA_NLDEV_ATTR_DEV_NAME, "ifname", "%s: ", Fmt::Str}),
            "mlx5_\"0: |\"ifname\":\"mlx5_\\\"0\"");
  EXPECT_EQ(one(a, {RDMA_NLDEV_ATTR_NODE_GUID, "node_guid", "node_guid %s ", Fmt::Guid}),
            "node_guid 0002:c903:0000:1234 |\"node_guid\":\"0002:c903:0000:1234\"");
  EXPECT_EQ(one(a, {RDMA_NLDEV_ATTR_RES_LKEY, "lkey", "lkey %s ", Fmt::Hex32}),
            "lkey 0x2eb |\"lkey\":\"0x2eb\"");
  EXPECT_EQ(one(a, {RDMA_NLDEV_ATTR_RES_IOVA, "iova", "iova %s ", Fmt::Hex64}),
            "iova 0xffffffff00000000 |\"iova\":\"0xffffffff00000000\"");
  EXPECT_EQ(one(a, {RDMA_NLDEV_ATTR_DEV_NODE_TYPE, "node_type", "node_type %s ", Fmt::NodeType}),
            "node_type switch |\"node_type\":\"switch\"");
  EXPECT_EQ(one(a, {RDMA_NLDEV_ATTR_PORT_STATE, "state", "state %s ", Fmt::PortState}),
            "state ACTIVE |\"state\":\"ACTIVE\"");
  EXPECT_EQ(one(a, {RDMA_NLDEV_ATTR_PORT_PHYS_STATE, "ps", "ps %s ", Fmt::PhysState}),
            "ps LINK_UP |\"ps\":\"LINK_UP\"");
  // Text only: no key, no JSON built.
  EXPECT_EQ(one(a, {RDMA_NLDEV_ATTR_DEV_INDEX, "ifindex", "%s: ", Fmt::U32}, true),
            "4294967295: |");
}

// OnOff is a JSON boolean; a value past 1 is the kernel's "not supported"
// and hides the field. NetnsMode names an unknown value.
TEST(NldevSpec, OnOffHidesUnsupportedAndNetnsNamesUnknown) {
  for (uint8_t v : {0, 1, 2, 255}) {
    SpecMsg m;
    mnl_attr_put_u8(m.h, RDMA_NLDEV_ATTR_DEV_DIM, v);
    mnl_attr_put_u8(m.h, RDMA_NLDEV_SYS_ATTR_NETNS_MODE, v);
    nl::Attrs a = m.attrs();
    view::Record r;
    bool shown = decode_field(a, {RDMA_NLDEV_ATTR_DEV_DIM, "dim", "dim %s ", Fmt::OnOff}, r);
    EXPECT_EQ(shown, v <= 1) << int(v);
    const char* want = v == 0 ? "dim off \"dim\":false" : v == 1 ? "dim on \"dim\":true" : "";
    EXPECT_EQ(spec_text(r) + spec_json(r), want);
    const char* mode = v == 0 ? "exclusive" : v == 1 ? "shared" : "unknown";
    EXPECT_EQ(one(a, {RDMA_NLDEV_SYS_ATTR_NETNS_MODE, "netns", "netns %s ", Fmt::NetnsMode}),
              std::string("netns ") + mode + " |\"netns\":\"" + mode + "\"");
  }
}

// Caps: names in bit order, an unnamed bit as UNKNOWN, JSON a list; no
// bits at all is an empty list, not a missing field.
TEST(NldevSpec, CapabilityListsInBothForms) {
  SpecMsg m;
  mnl_attr_put_u64(m.h, RDMA_NLDEV_ATTR_CAP_FLAGS, (1ull << 0) | (1ull << 16) | (1ull << 36));
  mnl_attr_put_u64(m.h, RDMA_NLDEV_ATTR_SUBNET_PREFIX, 0);
  nl::Attrs a = m.attrs();
  EXPECT_EQ(one(a, {RDMA_NLDEV_ATTR_CAP_FLAGS, "caps", "\n    caps: <%s>", Fmt::DevCaps}),
            "\n    caps: <RESIZE_MAX_WR, UNKNOWN, PCI_WRITE_END_PADDING>|"
            "\"caps\":[\"RESIZE_MAX_WR\",\"UNKNOWN\",\"PCI_WRITE_END_PADDING\"]");
  EXPECT_EQ(one(a, {RDMA_NLDEV_ATTR_CAP_FLAGS, "caps", "caps <%s>", Fmt::PortCaps}),
            "caps <UNKNOWN, CM, UNKNOWN>|\"caps\":[\"UNKNOWN\",\"CM\",\"UNKNOWN\"]");
  EXPECT_EQ(one(a, {RDMA_NLDEV_ATTR_SUBNET_PREFIX, "caps", "caps <%s>", Fmt::PortCaps}),
            "caps <>|\"caps\":[]");
}

bool spec_custom(const nl::Attrs& a, int attr, std::string& text, view::Json& json) {
  if (a.u32(attr) == 0) return false;
  text = "#" + std::to_string(a.u32(attr));
  json = {{"n", a.u32(attr)}};
  return true;
}

TEST(NldevSpec, CustomRenderersDecideAndMayHide) {
  SpecMsg m;
  mnl_attr_put_u32(m.h, RDMA_NLDEV_ATTR_LID, 9);
  mnl_attr_put_u32(m.h, RDMA_NLDEV_ATTR_SM_LID, 0);
  nl::Attrs a = m.attrs();
  EXPECT_EQ(one(a, {RDMA_NLDEV_ATTR_LID, "lid", "lid %s ", Fmt::Custom, kAlways, spec_custom}),
            "lid #9 |\"lid\":{\"n\":9}");
  view::Record r;
  EXPECT_FALSE(decode_field(
      a, {RDMA_NLDEV_ATTR_SM_LID, "sm", "sm %s ", Fmt::Custom, kAlways, spec_custom}, r));
  // No renderer given: hidden, not a crash.
  EXPECT_FALSE(decode_field(a, {RDMA_NLDEV_ATTR_LID, "lid", "lid %s ", Fmt::Custom}, r));
  EXPECT_TRUE(r.empty());
}

// Only "%s" is replaced: "%d", "%%" and a trailing '%' stay as written;
// a template with two "%s" gets the value twice. A JSON-only field has
// no text, a text-only one no key.
TEST(NldevSpec, TemplatesAndOneSidedFields) {
  SpecMsg m;
  mnl_attr_put_u32(m.h, RDMA_NLDEV_ATTR_LID, 7);
  nl::Attrs a = m.attrs();
  EXPECT_EQ(one(a, {RDMA_NLDEV_ATTR_LID, nullptr, "%d %% [%s|%s] 100%", Fmt::U32}),
            "%d %% [7|7] 100%|");
  EXPECT_EQ(one(a, {RDMA_NLDEV_ATTR_LID, "lid", nullptr, Fmt::U32}), "|\"lid\":7");
}

// decode_attrs: declaration order, absent attributes skipped, fields above
// the detail level left out.
TEST(NldevSpec, DecodeAttrsByOrderPresenceAndLevel) {
  SpecMsg m;
  mnl_attr_put_u32(m.h, RDMA_NLDEV_ATTR_SM_LID, 1);
  mnl_attr_put_u32(m.h, RDMA_NLDEV_ATTR_LID, 2);
  nl::Attrs a = m.attrs();
  const FieldSpec spec[] = {
      {RDMA_NLDEV_ATTR_LID, "lid", "lid %s ", Fmt::U32},
      {RDMA_NLDEV_ATTR_LMC, "lmc", "lmc %s ", Fmt::U32},  // absent
      {RDMA_NLDEV_ATTR_SM_LID, "sm_lid", "sm_lid %s ", Fmt::U32, kDetails},
  };
  view::Record r;
  decode_attrs(a, spec, 0, r);
  EXPECT_EQ(spec_text(r), "lid 2 ");
  decode_attrs(a, spec, 1, r);  // appends
  EXPECT_EQ(spec_text(r), "lid 2 lid 2 sm_lid 1 ");
  EXPECT_EQ(spec_json(r), "\"lid\":2,\"lid\":2,\"sm_lid\":1");
}

}  // namespace
}  // namespace rdma::nldev
