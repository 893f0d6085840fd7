#include "lib/ib/mkey_source.h"

#include <gtest/gtest.h>

#include "lib/mad/attrs.h"
#include "lib/mad/combined_route.h"

namespace rdma::ib {
namespace {

std::string where_of(const mad::Route& r) {
  return MkeySource::where(mad::make_smp_from(7, r, mad::kGet, mad::kNodeInfo, 0),
                           mad::smp_address(r));
}

// A NodeInfo answer to a request, with this PortGUID.
mad::Mad node_info_reply(const mad::Mad& q, uint64_t port_guid) {
  mad::Mad r = q;
  r.set(mad::hdr::kResponse, 1);  // GetResp
  if (r.mgmt_class() == mad::kClassSmiDr) r.set(mad::hdr::kDirection, 1);
  r.set_attr(mad::kNodeInfo, "PortGUID", port_guid);
  return r;
}

TEST(MkeySource, NamesLidDirectedAndCombinedRoutes) {
  EXPECT_EQ(where_of({false, 4, {}}), "lid 4");
  EXPECT_EQ(where_of({true, 0, {1, 3}}), "dr 1,3");
  EXPECT_EQ(where_of({true, 0, {}}), "dr 0");
  EXPECT_EQ(where_of({true, 4, {2}}), "lid 4 dr 2");
}

// Without a file every SMP carries the single key; with one, a port's own
// key once its GUID is known, the single key before.
TEST(MkeySource, KeysByGuidOnceTheNodeInfoAnswered) {
  MkeySource k;
  k.set_key(0x5);
  EXPECT_EQ(k.key_for("dr 1,3"), 0x5u);
  k.set_keys({{0x100, 0xaa}});
  EXPECT_EQ(k.key_for("dr 1,3"), 0x5u);
  mad::Route r{true, 0, {1, 3}};
  mad::Mad q = mad::make_smp(r, mad::kGet, mad::kNodeInfo, 0);
  k.heard("dr 1,3", q, node_info_reply(q, 0x100).bytes);
  EXPECT_EQ(k.guid_at("dr 1,3"), 0x100u);
  EXPECT_EQ(k.key_for("dr 1,3"), 0xaau);
  // A port not in the file: the single key.
  k.heard("dr 1,4", q, node_info_reply(q, 0x101).bytes);
  EXPECT_EQ(k.key_for("dr 1,4"), 0x5u);
  // An error answer or another attribute teaches nothing.
  mad::Mad bad = node_info_reply(q, 0x100);
  bad.set(mad::hdr::kDrStatus, mad::kStatusBadField);
  k.heard("dr 2", q, bad.bytes);
  mad::Mad pi = mad::make_smp(r, mad::kGet, mad::kPortInfo, 0);
  k.heard("dr 3", pi, node_info_reply(pi, 0x100).bytes);
  EXPECT_FALSE(k.guid_at("dr 2"));
  EXPECT_FALSE(k.guid_at("dr 3"));
  // A Set that changed the key wins over the file.
  k.set_key_at("dr 1,3", 0xbb);
  EXPECT_EQ(k.key_for("dr 1,3"), 0xbbu);
}

// The SA's records key a port before its first answer: its LID's GUID,
// and a directed route walked link by link from the local port.
TEST(MkeySource, KnowsRoutesFromTheSasLinks) {
  MkeySource k;
  k.set_keys({{0x200, 0x22}, {0x300, 0x33}, {0x1, 0x11}});
  k.set_local(1, 1, 0x1);
  k.learn_lid(2, 0x200);  // a switch
  k.learn_lid(3, 0x300);  // a CA behind it, on its port 5
  k.learn_link(1, 1, 2);
  k.learn_link(2, 5, 3);
  EXPECT_EQ(k.key_for("dr 0"), 0x11u);
  EXPECT_EQ(k.key_for("lid 1"), 0x11u);
  EXPECT_EQ(k.key_for("dr 1"), 0x22u);
  EXPECT_EQ(k.key_for("dr 1,5"), 0x33u);
  EXPECT_EQ(k.key_for("lid 3"), 0x33u);
  EXPECT_FALSE(k.guid_at("dr 1,6"));  // no such link
  EXPECT_FALSE(k.guid_at("lid 9"));
  EXPECT_FALSE(k.guid_at("lid 2 dr 5"));  // combined: only what answered
  EXPECT_EQ(k.key_for("dr 1,6"), 0u);
}

}  // namespace
}  // namespace rdma::ib
