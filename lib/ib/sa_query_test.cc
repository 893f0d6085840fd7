// The SA's questions: example records and ComponentMasks (the bits IBA
// 15.2.5 gives each component), NodeRecords read and selected, PathRecord
// queries; one asked of the fabric double's SA.
#include "lib/ib/sa_query.h"

#include <gtest/gtest.h>

#include <cstring>

#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/mad/sa.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/fabric/topology.h"
#include "lib/testing/test_data.h"

namespace rdma::ib {
namespace {

SaFilterValue num(uint64_t n) {
  SaFilterValue v;
  v.number = n;
  return v;
}

const SaFilter& filter(const SaKind& k, const char* word) {
  const SaFilter* f = find_sa_filter(k, word);
  EXPECT_TRUE(f) << word;
  return *f;
}

TEST(SaQuery, NumbersGoToTheirFieldAndComponentBit) {
  const SaKind& k = *find_sa_kind("pkeys");
  std::vector<uint8_t> ex(k.record->bytes);
  uint64_t mask = 0;
  put_sa_filter(k, filter(k, "port"), num(3), ex, mask);
  put_sa_filter(k, filter(k, "block"), num(0x123), ex, mask);
  EXPECT_EQ(mask, 0b110u);  // BlockNum 1, PortNum 2
  EXPECT_EQ(ex[4], 3);      // PortNum at byte 4
  EXPECT_EQ(ex[2], 0x01);   // BlockNum at bytes 2-3
  EXPECT_EQ(ex[3], 0x23);
  put_sa_lid(k, ex, mask, 0x0405);
  EXPECT_EQ(mask, 0b111u);
  EXPECT_EQ(ex[0], 4);
  EXPECT_EQ(ex[1], 5);
  EXPECT_EQ(sa_record_lid(k, ex), 0x0405);
}

TEST(SaQuery, AQuestionCompletedAndRecordsCheckedAgainstIt) {
  SaQuery q(*find_sa_kind("pkeys"));
  EXPECT_FALSE(q.paths());
  EXPECT_EQ(q.example.size(), q.kind->record->bytes);
  q.lid = 0x0405;
  q.add(filter(*q.kind, "port"), num(3));
  EXPECT_EQ(q.mask, 0b100u);  // the LID waits for complete()
  q.complete(0);
  EXPECT_EQ(q.mask, 0b101u);
  std::vector<uint8_t> rec = q.example;
  EXPECT_TRUE(q.answers(rec, std::nullopt));
  EXPECT_TRUE(q.answers(rec, std::set<uint16_t>{0x0405}));
  EXPECT_FALSE(q.answers(rec, std::set<uint16_t>{7}));  // not a node the GUID selected
  rec[4] = 2;                                           // another port: the SA ignored PortNum
  EXPECT_FALSE(q.answers(rec, std::nullopt));
  rec[4] = 3;
  rec[1] = 6;  // another LID
  EXPECT_FALSE(q.answers(rec, std::nullopt));
  EXPECT_TRUE(SaQuery(*find_sa_kind("paths")).paths());
}

TEST(SaQuery, APortGuidIsTheGidsInterfaceIdItsPrefixPutLater) {
  const SaKind& k = *find_sa_kind("services");
  const SaFilter& g = filter(k, "guid");
  std::vector<uint8_t> ex(k.record->bytes);
  uint64_t mask = 0;
  put_sa_filter(k, g, num(0x0102030405060708), ex, mask);
  EXPECT_EQ(mask, 0b10u);  // ServiceGID
  // ServiceGID is bytes 8-23: the interface ID its second half.
  EXPECT_EQ(ex[16], 1);
  EXPECT_EQ(ex[23], 8);
  EXPECT_EQ(ex[8], 0);
  put_sa_prefix(k, g, ex, 0xfe80000000000000);
  EXPECT_EQ(ex[8], 0xfe);
  EXPECT_EQ(ex[9], 0x80);
  EXPECT_EQ(ex[16], 1);
  put_sa_prefix(k, filter(k, "id"), ex, 0xffffffffffffffff);  // not a GUID: nothing
  EXPECT_EQ(ex[0], 0);
  // A record matches on the interface ID, whatever its prefix.
  std::vector<uint8_t> rec = ex;
  rec[8] = 0x11;
  EXPECT_TRUE(sa_filter_matches(k, g, rec, ex));
  rec[23] = 9;
  EXPECT_FALSE(sa_filter_matches(k, g, rec, ex));
}

TEST(SaQuery, GidsNamesAndNumbersMatchOnTheirField) {
  const SaKind& m = *find_sa_kind("mcast");
  std::vector<uint8_t> ex(m.record->bytes);
  uint64_t mask = 0;
  SaFilterValue gid;
  gid.gid = {0xff, 0x12, 0x40, 0x1b};
  put_sa_filter(m, filter(m, "mgid"), gid, ex, mask);
  put_sa_filter(m, filter(m, "mlid"), num(0xc001), ex, mask);
  EXPECT_EQ(mask, 0b1001u);  // MGID 0, MLID 3
  EXPECT_EQ(ex[0], 0xff);
  EXPECT_EQ(mad::get_field(mad::kMcMemberRecord, ex, "MLID"), 0xc001u);
  std::vector<uint8_t> rec = ex;
  EXPECT_TRUE(sa_filter_matches(m, filter(m, "mgid"), rec, ex));
  rec[15] = 1;
  EXPECT_FALSE(sa_filter_matches(m, filter(m, "mgid"), rec, ex));
  EXPECT_TRUE(sa_filter_matches(m, filter(m, "mlid"), rec, ex));
  rec[37] = 2;  // MLID's low byte
  EXPECT_FALSE(sa_filter_matches(m, filter(m, "mlid"), rec, ex));

  const SaKind& s = *find_sa_kind("services");
  std::vector<uint8_t> sx(s.record->bytes);
  SaFilterValue name;
  name.name = "ib_srp";
  put_sa_filter(s, filter(s, "name"), name, sx, mask = 0);
  EXPECT_EQ(mask, uint64_t{1} << 6);
  EXPECT_EQ(std::string(sx.begin() + 48, sx.begin() + 54), "ib_srp");
  name.name.assign(65, 'x');
  try {
    put_sa_filter(s, filter(s, "name"), name, sx, mask);
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()), "invalid name \"" + name.name + "\" (at most 64 bytes)");
  }
}

std::vector<uint8_t> node_record(uint16_t lid, uint64_t node_guid, uint64_t port_guid,
                                 const std::string& desc) {
  std::vector<uint8_t> r(mad::kNodeRecord.bytes);
  mad::set_field(mad::kNodeRecord, r, "LID", lid);
  auto ni = std::span(r).subspan(mad::kNodeRecordNodeInfo, mad::kNodeInfo.bytes);
  mad::set_field(mad::kNodeInfo, ni, "NodeType", 1);
  mad::set_field(mad::kNodeInfo, ni, "NodeGUID", node_guid);
  mad::set_field(mad::kNodeInfo, ni, "PortGUID", port_guid);
  std::copy(desc.begin(), desc.end(), r.begin() + mad::kNodeRecordNodeDesc);
  return r;
}

TEST(NodeRecords, ReadAndSelectedByGuidAndName) {
  std::vector<std::vector<uint8_t>> all = {node_record(3, 0x10, 0x11, "hca2"),
                                           node_record(4, 0x10, 0x12, "hca2"),
                                           node_record(5, 0x20, 0x21, "hca3")};
  NodeRecord r = NodeRecord::from(all[1]);
  EXPECT_EQ(r.lid, 4);
  EXPECT_EQ(r.info.node_guid, 0x10u);
  EXPECT_EQ(r.info.port_guid, 0x12u);
  EXPECT_EQ(r.description, "hca2");
  EXPECT_THROW(NodeRecord::from(std::span(all[0]).first(100)), Error);
  EXPECT_EQ(node_record_lids(all, 0x10, std::nullopt), (std::set<uint16_t>{3, 4}));
  EXPECT_EQ(node_record_lids(all, 0x12, std::nullopt), (std::set<uint16_t>{4}));
  EXPECT_EQ(node_record_lids(all, std::nullopt, "hca3"), (std::set<uint16_t>{5}));
  EXPECT_EQ(node_record_lids(all, 0x11, "hca3"), (std::set<uint16_t>{}));
  EXPECT_EQ(node_record_lids(all, std::nullopt, "hca"), (std::set<uint16_t>{}));  // whole names
}

mad::Target lid(uint16_t l) {
  mad::Target t;
  t.lid = l;
  return t;
}

TEST(PathExample, EndsAndComponentsWithTheirBits) {
  mad::LocalPort local;
  local.gid_prefix = 0xfe80000000000000;
  local.port_guid = 0x100002;
  std::vector<uint8_t> ex;
  uint64_t mask = 0;
  path_example(local, {}, {}, ex, mask);
  EXPECT_EQ(mask, 0u);
  EXPECT_EQ(ex, std::vector<uint8_t>(64));
  // One end: from the local port's GID (SGID 3) to the LID (DLID 4), the
  // paths kind's filters already in, the selector pairs added.
  SaQuery q(*find_sa_kind("paths"));
  q.add(filter(*q.kind, "pkey"), num(0x8001));
  q.add(filter(*q.kind, "sl"), num(2));
  q.add(filter(*q.kind, "service_id"), num(0x10));
  q.add(filter(*q.kind, "reversible"), num(1));
  PathFilter pf;
  pf.mtu = SaSelected{0, 4};    // greater than 2048
  pf.rate = SaSelected{2, 3};   // exactly 10 Gb/s
  pf.lifetime = SaSelected{3};  // the largest: no value
  std::vector<mad::Target> one = {lid(4)};
  path_example(local, one, pf, q.example, q.mask);
  EXPECT_EQ(q.mask,
            0x3u | (1u << 3) | (1u << 4) | (1u << 11) | (1u << 13) | (1u << 15) | (0x1fu << 16));
  std::span<const uint8_t> x = q.example;
  EXPECT_EQ(mad::get_field(mad::kPathRecord, x, "DLID"), 4u);
  EXPECT_EQ(x[24], 0xfe);  // SGID at byte 24: prefix, then the port GUID
  EXPECT_EQ(x[39], 0x02);
  EXPECT_EQ(mad::get_field(mad::kPathRecord, x, "ServiceID"), 0x10u);
  EXPECT_EQ(mad::get_field(mad::kPathRecord, x, "Reversible"), 1u);
  EXPECT_EQ(mad::get_field(mad::kPathRecord, x, "P_Key"), 0x8001u);
  EXPECT_EQ(mad::get_field(mad::kPathRecord, x, "SL"), 2u);
  EXPECT_EQ(mad::get_field(mad::kPathRecord, x, "MTUSelector"), 0u);
  EXPECT_EQ(mad::get_field(mad::kPathRecord, x, "MTU"), 4u);
  EXPECT_EQ(mad::get_field(mad::kPathRecord, x, "RateSelector"), 2u);
  EXPECT_EQ(mad::get_field(mad::kPathRecord, x, "Rate"), 3u);
  EXPECT_EQ(mad::get_field(mad::kPathRecord, x, "PacketLifeTimeSelector"), 3u);
  // Two ends: a LID (SLID 5) to a GID (DGID 2).
  mad::Target gid;
  gid.kind = mad::Target::Kind::Gid;
  gid.gid = mad::make_gid(0xfe80000000000000, 0x100004);
  std::vector<mad::Target> two = {lid(1), gid};
  ex.clear();
  path_example(local, two, {}, ex, mask);
  EXPECT_EQ(mask, (1u << 5) | (1u << 2));
  EXPECT_EQ(mad::get_field(mad::kPathRecord, ex, "SLID"), 1u);
  EXPECT_EQ(ex[8], 0xfe);  // DGID at byte 8
  EXPECT_EQ(ex[23], 0x04);
  mad::Target dr;
  dr.kind = mad::Target::Kind::Dr;
  std::vector<mad::Target> bad = {dr};
  EXPECT_THROW(path_example(local, bad, {}, ex, mask), Error);
}

TEST(SaSelector, TakenOffTheWord) {
  std::string w = ">2048";
  EXPECT_EQ(take_sa_selector(w), 0);
  EXPECT_EQ(w, "2048");
  w = "<3";
  EXPECT_EQ(take_sa_selector(w), 1);
  EXPECT_EQ(w, "3");
  w = "=4";
  EXPECT_EQ(take_sa_selector(w), 2);
  w = "4";
  EXPECT_EQ(take_sa_selector(w), 2);
  EXPECT_EQ(w, "4");
}

// q answers a record whose attribute a (the kind's first carried) has
// field = yes, and not one with field = no.
void expect_selects(const SaQuery& q, const mad::AttrDef& a, const char* field, uint64_t yes,
                    uint64_t no) {
  std::vector<uint8_t> rec(q.kind->record->bytes);
  auto at = std::span(rec).subspan(q.kind->at[0], a.bytes);
  mad::set_field(a, at, field, yes);
  EXPECT_TRUE(q.answers(rec, std::nullopt)) << field;
  mad::set_field(a, at, field, no);
  EXPECT_FALSE(q.answers(rec, std::nullopt)) << field;
}

// ibtool's KEY=VALUE: any field the record prints, its own or its
// attribute's; a component goes to the SA, the rest is checked here.
TEST(SaFieldMatch, AnyPrintedFieldSentWhenAComponent) {
  const SaKind& nodes = *find_sa_kind("nodes");
  SaQuery q(nodes);
  q.add(sa_field_match(nodes, "node_guid", "0x100004"));
  EXPECT_EQ(q.mask, 1u << 7);  // NodeInfo's NodeGUID, a NodeRecord component
  expect_selects(q, mad::kNodeInfo, "NodeGUID", 0x100004, 0x100005);
  // Not a component: only checked here; an enumeration by its name.
  const SaKind& ports = *find_sa_kind("ports");
  SaQuery p(ports);
  p.add(sa_field_match(ports, "state", "active"));
  EXPECT_EQ(p.mask, 0u);
  expect_selects(p, mad::kPortInfo, "PortState", 4, 1);
  std::vector<uint8_t> rec(mad::kNodeRecord.bytes);
  // A description, as a string.
  SaFieldMatch d = sa_field_match(nodes, "description", "hca3");
  std::memcpy(rec.data() + mad::kNodeRecordNodeDesc, "hca3", 4);
  EXPECT_TRUE(sa_field_matches(d, rec));
  // A bad key names the choices; a bad value says what fits.
  try {
    sa_field_match(nodes, "nodeguid", "1");
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown nodes field \"nodeguid\" ("), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("node_guid"), std::string::npos);
  }
  EXPECT_THROW(sa_field_match(ports, "port", "300"), UsageError);
  EXPECT_THROW(sa_field_match(nodes, "lid", "x"), UsageError);
}

TEST(SaCapBit, TheSmPortsBitByBit) {
  const SaKind& k = *find_sa_kind("smports");
  ASSERT_EQ(k.cap_bits.size(), 2u);
  SaQuery q(k);
  q.ask_cap_bit(k.cap_bits[0]);
  EXPECT_TRUE(q.bitwise);
  EXPECT_EQ(q.mask, 1u << 7);  // PortInfoRecord's CapabilityMask
  EXPECT_EQ(mad::get_field(mad::kPortInfo, std::span(q.example).subspan(4), "CapabilityMask"),
            k.cap_bits[0]);
  // opensm's port (IsSM among other bits), and one without IsSM.
  expect_selects(q, mad::kPortInfo, "CapabilityMask", 0x50c04a, 0x50c048);
}

TEST(NamedNodeLid, DescriptionOrTheMapsName) {
  std::vector<std::vector<uint8_t>> recs(2, std::vector<uint8_t>(mad::kNodeRecord.bytes));
  for (size_t i = 0; i < 2; ++i) {
    mad::set_field(mad::kNodeRecord, recs[i], "LID", 3 + i);
    auto ni = std::span(recs[i]).subspan(mad::kNodeRecordNodeInfo, mad::kNodeInfo.bytes);
    mad::set_field(mad::kNodeInfo, ni, "NodeGUID", 0x100 + i);
    std::memcpy(recs[i].data() + mad::kNodeRecordNodeDesc, i ? "h2" : "h1", 2);
  }
  NodeNameMap map;
  map.names[0x101] = "rack 2";
  EXPECT_EQ(named_node_lid(recs, "h1", map), 3);
  EXPECT_EQ(named_node_lid(recs, "rack 2", map), 4);
  EXPECT_EQ(named_node_lid(recs, "h2", map), 4);  // the description still
  EXPECT_EQ(named_node_lid(recs, "h3", map), std::nullopt);
}

TEST(PathExample, TheDoublesSaAnswersIt) {
  ibtest::FakeFabric f(ibtest::load_topology(rdma::testdata::dir() + "/../ibsim/net"));
  f.assign_lids();
  mad::Engine e(f, {100, 1, 4});
  mad::LocalPort local = f.local_port();
  std::vector<uint8_t> ex;
  uint64_t mask = 0;
  mad::Target guid;
  guid.kind = mad::Target::Kind::Guid;
  guid.guid = f.nodes()[f.node("hca3")].ports[1].guid;
  std::vector<mad::Target> one = {guid};
  path_example(local, one, {}, ex, mask);
  mad::SaTable t = mad::get_table(e, local.sm_lid, mad::kPathRecord, mask, ex);
  ASSERT_EQ(t.records.size(), 1u);
  EXPECT_EQ(mad::get_field(mad::kPathRecord, t.records[0], "SLID"), 1u);
  EXPECT_EQ(mad::get_field(mad::kPathRecord, t.records[0], "DLID"), 5u);
}

// opensm's P_Key tables are for trusted requesters: ERR_REQ_INVALID to
// one without an SM_Key; the fabric double's SA says the same.
TEST(SaNeedsSmKey, OnlyAPKeyTableRefusedWithoutAKey) {
  mad::Failure refused;
  refused.kind = mad::Failure::Kind::Status;
  refused.status = mad::kSaStatusReqInvalid;
  EXPECT_TRUE(sa_needs_sm_key(mad::kPKeyTableRecord, 0, refused));
  EXPECT_FALSE(sa_needs_sm_key(mad::kPKeyTableRecord, 1, refused));  // a key given: wrong key
  EXPECT_FALSE(sa_needs_sm_key(mad::kNodeRecord, 0, refused));
  mad::Failure other = refused;
  other.status = mad::kSaStatusReqInvalid + 1;
  EXPECT_FALSE(sa_needs_sm_key(mad::kPKeyTableRecord, 0, other));
  mad::Failure timeout;
  EXPECT_FALSE(sa_needs_sm_key(mad::kPKeyTableRecord, 0, timeout));

  ibtest::FakeFabric f(ibtest::load_topology(rdma::testdata::dir() + "/../ibsim/net"));
  f.assign_lids();
  mad::Engine e(f, {100, 1, 4});
  std::vector<uint8_t> none(mad::kPKeyTableRecord.bytes);
  try {
    mad::get_table(e, 1, mad::kPKeyTableRecord, 0, none);
    FAIL();
  } catch (const mad::MadError& err) {
    EXPECT_TRUE(sa_needs_sm_key(mad::kPKeyTableRecord, 0, err.failure));
  }
}

}  // namespace
}  // namespace rdma::ib
