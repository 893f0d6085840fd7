// The double against the suite's fabric (tests/ibsim/net): directed routes,
// LID routing after the SM's sweep, the SMA's answers and statuses.
#include "lib/testing/fabric/fabric.h"

#include <gtest/gtest.h>

#include <array>
#include <cerrno>

#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/mad/bits.h"
#include "lib/mad/describe.h"
#include "lib/mad/engine.h"
#include "lib/testing/captured.h"
#include "lib/testing/test_data.h"

namespace rdma::ibtest {
namespace {

using mad::Mad;
namespace hdr = mad::hdr;

using testdata::kNet;

class Fabric : public ::testing::Test {
 protected:
  Fabric() : f(load_topology(kNet)), engine(f, {100, 2, 8}) {}

  Mad dr(std::vector<uint8_t> path, const mad::AttrDef& a, uint32_t mod = 0) {
    mad::Route r{true, 0, std::move(path)};
    return engine.call(mad::make_smp(r, mad::kGet, a, mod), mad::smp_address(r), "dr query");
  }
  Mad lid(uint16_t l, const mad::AttrDef& a, uint32_t mod = 0) {
    mad::Route r{false, l, {}};
    return engine.call(mad::make_smp(r, mad::kGet, a, mod), mad::smp_address(r), "lid query");
  }
  std::string dr_error(std::vector<uint8_t> path, const mad::AttrDef& a, uint32_t mod = 0) {
    try {
      dr(std::move(path), a, mod);
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  }

  FakeFabric f;
  mad::Engine engine;
};

TEST_F(Fabric, AttachesToTheFirstCa) {
  EXPECT_EQ(f.nodes()[f.attach_node()].id, "hca1");
  EXPECT_EQ(f.attach_port(), 1);
  EXPECT_EQ(f.local_port().port_guid, 0x100001u);
  EXPECT_EQ(f.local_port().lid, 0);
  EXPECT_FALSE(f.has_sm());
}

TEST_F(Fabric, DirectedRouteNodeInfoHopByHop) {
  Mad local = dr({}, mad::kNodeInfo);
  EXPECT_EQ(local.get_attr(mad::kNodeInfo, "NodeGUID"), 0x100000u);
  EXPECT_EQ(local.get_attr(mad::kNodeInfo, "PortGUID"), 0x100001u);
  EXPECT_EQ(local.get_attr(mad::kNodeInfo, "LocalPortNum"), 1u);

  Mad sw1 = dr({1}, mad::kNodeInfo);
  EXPECT_EQ(sw1.get_attr(mad::kNodeInfo, "NodeType"), 2u);
  EXPECT_EQ(sw1.get_attr(mad::kNodeInfo, "NodeGUID"), 0x200000u);
  EXPECT_EQ(sw1.get_attr(mad::kNodeInfo, "NumPorts"), 8u);
  EXPECT_EQ(sw1.get_attr(mad::kNodeInfo, "LocalPortNum"), 1u);  // came in by port 1

  Mad sw2 = dr({1, 4}, mad::kNodeInfo);
  EXPECT_EQ(sw2.get_attr(mad::kNodeInfo, "NodeGUID"), 0x200001u);
  EXPECT_EQ(sw2.get_attr(mad::kNodeInfo, "LocalPortNum"), 4u);

  Mad hca4 = dr({1, 3, 2}, mad::kNodeInfo);
  EXPECT_EQ(hca4.get_attr(mad::kNodeInfo, "NodeGUID"), 0x100009u);
  EXPECT_EQ(hca4.get_attr(mad::kNodeInfo, "PortGUID"), 0x10000au);
  // The reply as it reaches the requester: D set, HopPointer back to 0,
  // HopCount kept, ReturnPath the arrival port at each hop.
  EXPECT_EQ(hca4.get(hdr::kDirection), 1u);
  EXPECT_EQ(hca4.get(hdr::kHopPointer), 0u);
  EXPECT_EQ(hca4.get(hdr::kHopCount), 3u);
  EXPECT_EQ(hca4.bytes[128 + 1], 1);  // InitialPath kept: 1, 3, 2
  EXPECT_EQ(hca4.bytes[128 + 2], 3);
  EXPECT_EQ(hca4.bytes[128 + 3], 2);
  EXPECT_EQ(hca4.bytes[192 + 1], 1);  // ReturnPath: sw1 port 1, sw2 port 3, hca4 port 1
  EXPECT_EQ(hca4.bytes[192 + 2], 3);
  EXPECT_EQ(hca4.bytes[192 + 3], 1);
  EXPECT_EQ(hca4.get(hdr::kDrSlid), mad::kPermissiveLid);
}

TEST_F(Fabric, DirectedRoutesARealSmiDiscards) {
  // The first hop must be the port the MAD leaves by.
  EXPECT_EQ(dr_error({2}, mad::kNodeInfo),
            "no reply to dr query (3 tries, each given back at once by the local port: Connection "
            "timed out)");
  // A CA does not forward (hca2 is on sw1 port 2).
  EXPECT_NE(dr_error({1, 2, 1}, mad::kNodeInfo), "");
  // Past a port with no link, or a port the switch lacks.
  EXPECT_NE(dr_error({1, 5}, mad::kNodeInfo), "");
  EXPECT_NE(dr_error({1, 9}, mad::kNodeInfo), "");
  EXPECT_NE(dr_error({1, 0}, mad::kNodeInfo), "");
  EXPECT_GE(f.stats().unrouted, 15u);
  EXPECT_EQ(f.stats().answered[mad::kClassSmiDr], 0u);
}

TEST_F(Fabric, DirectedRouteLoopsAndLongPaths) {
  // Back and forth between the switches: 1, then 3/3/3... 40 hops.
  std::vector<uint8_t> path{1};
  for (int i = 0; i < 40; ++i) path.push_back(3);
  Mad m = dr(path, mad::kNodeInfo);
  EXPECT_EQ(m.get_attr(mad::kNodeInfo, "NodeGUID"), 0x200000u);  // even: back on sw1
  EXPECT_EQ(m.get(hdr::kHopCount), 41u);
}

TEST_F(Fabric, PortInfoPerPortBeforeTheSm) {
  Mad up = dr({1}, mad::kPortInfo, 3);
  EXPECT_EQ(up.get_attr(mad::kPortInfo, "PortState"), kInit);  // no SM: Init
  EXPECT_EQ(up.get_attr(mad::kPortInfo, "PortPhysicalState"), kLinkUp);
  EXPECT_EQ(up.get_attr(mad::kPortInfo, "LinkWidthActive"), kWidth4x);
  EXPECT_EQ(up.get_attr(mad::kPortInfo, "LinkSpeedActive"), kSpeedSdr);
  EXPECT_EQ(up.get_attr(mad::kPortInfo, "LinkWidthSupported"), 31u);
  EXPECT_EQ(up.get_attr(mad::kPortInfo, "LocalPortNum"), 1u);
  EXPECT_EQ(up.get_attr(mad::kPortInfo, "LID"), 0u);
  Mad down = dr({1}, mad::kPortInfo, 5);
  EXPECT_EQ(down.get_attr(mad::kPortInfo, "PortState"), kDown);
  EXPECT_EQ(down.get_attr(mad::kPortInfo, "PortPhysicalState"), kPolling);
  Mad p0 = dr({1}, mad::kPortInfo, 0);
  EXPECT_EQ(p0.get_attr(mad::kPortInfo, "PortState"), kActive);
  // A CA: modifier 0 is the port asked through; port 2 has no link.
  EXPECT_EQ(dr({}, mad::kPortInfo, 0).get_attr(mad::kPortInfo, "LocalPortNum"), 1u);
  EXPECT_EQ(dr({}, mad::kPortInfo, 2).get_attr(mad::kPortInfo, "PortState"), kDown);
}

TEST_F(Fabric, StatusesForWhatAnSmaLacks) {
  EXPECT_EQ(dr_error({1}, mad::kPortInfo, 9),
            "dr query failed: status 0x001c (invalid attribute or attribute modifier value)");
  EXPECT_EQ(dr_error({}, mad::kSwitchInfo),
            "dr query failed: status 0x000c (method/attribute combination not supported)");
  EXPECT_EQ(dr_error({}, mad::kSmInfo),
            "dr query failed: status 0x000c (method/attribute combination not supported)");
  EXPECT_EQ(dr_error({1}, mad::kVlArbTable),  // block 0: none
            "dr query failed: status 0x001c (invalid attribute or attribute modifier value)");
  // Set of a read-only attribute; a method nobody has.
  mad::Route r{true, 0, {1}};
  Mad set = mad::make_smp(r, mad::kSet, mad::kNodeInfo, 0);
  EXPECT_THROW(engine.call(set, mad::smp_address(r), "set"), Error);
  Mad trap = mad::make_smp(r, 0x05, mad::kNodeInfo, 0);
  f.send(trap, mad::smp_address(r), 100);
  auto got = f.receive(0);
  ASSERT_TRUE(got);
  Mad reply;
  std::copy(got->bytes.begin(), got->bytes.end(), reply.bytes.begin());
  EXPECT_EQ(reply.get(hdr::kDrStatus), mad::kStatusBadMethod);
}

TEST_F(Fabric, SwitchTablesAndDescriptions) {
  Mad si = dr({1}, mad::kSwitchInfo);
  EXPECT_EQ(si.get_attr(mad::kSwitchInfo, "LinearFDBCap"), 30720u);
  EXPECT_EQ(si.get_attr(mad::kSwitchInfo, "LinearFDBTop"), 0u);  // no SM yet
  Mad nd = dr({1, 3}, mad::kNodeDescription);
  EXPECT_STREQ(reinterpret_cast<const char*>(nd.data().data()), "sw2");
  Mad pk = dr({}, mad::kPKeyTable);
  EXPECT_EQ(pk.get_attr(mad::kPKeyTable, "P_KeyTableBlock"), 0xffffu);
  Mad gi = dr({1, 3, 1}, mad::kGuidInfo);
  EXPECT_EQ(gi.get_attr(mad::kGuidInfo, "GUIDBlock"), 0x100007u);  // hca3 port 1
  Mad lft = dr({1}, mad::kLinearForwardingTable, 0);
  EXPECT_EQ(lft.data()[5], 0xff);  // no SM: empty
}

// P_KeyTable: the capacity is NodeInfo's PartitionCap on a CA port and a
// switch's port 0, SwitchInfo's PartitionEnforcementCap on external ports.
TEST_F(Fabric, PkeyTablesPerPortUpToTheirCapacities) {
  int sw1 = f.node("sw1"), hca1 = f.node("hca1");
  EXPECT_EQ(dr({1}, mad::kNodeInfo).get_attr(mad::kNodeInfo, "PartitionCap"), 8u);
  EXPECT_EQ(dr({}, mad::kNodeInfo).get_attr(mad::kNodeInfo, "PartitionCap"), 64u);
  f.nodes()[sw1].partition_enforcement_cap = 40;
  f.nodes()[hca1].partition_cap = 40;
  EXPECT_EQ(dr({1}, mad::kSwitchInfo).get_attr(mad::kSwitchInfo, "PartitionEnforcementCap"), 40u);
  EXPECT_EQ(dr({}, mad::kNodeInfo).get_attr(mad::kNodeInfo, "PartitionCap"), 40u);
  std::vector<uint16_t> keys;
  for (uint16_t i = 0; i < 40; ++i) keys.push_back(static_cast<uint16_t>(0x8300 | i));
  f.nodes()[sw1].ports[3].pkeys = keys;
  Mad b1 = dr({1}, mad::kPKeyTable, 3 << 16 | 1);  // entries 32-63 of port 3
  EXPECT_EQ(mad::get_bits(b1.data(), 0, 16), 0x8320u);
  EXPECT_EQ(mad::get_bits(b1.data(), 7 * 16, 16), 0x8327u);
  EXPECT_EQ(mad::get_bits(b1.data(), 8 * 16, 16), 0u);  // past the table
  EXPECT_EQ(dr({1}, mad::kPKeyTable, 4 << 16).get_attr(mad::kPKeyTable, "P_KeyTableBlock"),
            0xffffu);  // another port: its own table
  const std::string bad =
      "dr query failed: status 0x001c (invalid attribute or attribute modifier value)";
  EXPECT_EQ(dr_error({1}, mad::kPKeyTable, 3 << 16 | 2), bad);  // 64 > 40
  EXPECT_EQ(dr_error({1}, mad::kPKeyTable, 1), bad);            // port 0: 8
  EXPECT_EQ(dr_error({1}, mad::kPKeyTable, 9 << 16), bad);      // no port 9
  EXPECT_EQ(dr({}, mad::kPKeyTable, 1).get_attr(mad::kPKeyTable, "P_KeyTableBlock"), 0u);
  EXPECT_EQ(dr_error({}, mad::kPKeyTable, 2), bad);  // a CA: 40
}

TEST_F(Fabric, GuidInfoBlocksUpToGuidCap) {
  int hca1 = f.node("hca1");
  FabricPort& p = f.nodes()[hca1].ports[1];
  p.guid_cap = 10;
  p.alias_guids = {0x5001, 0x5002, 0x5003, 0x5004, 0x5005, 0x5006, 0x5007, 0x5008, 0x5009};
  EXPECT_EQ(dr({}, mad::kPortInfo, 1).get_attr(mad::kPortInfo, "GUIDCap"), 10u);
  Mad b0 = dr({}, mad::kGuidInfo, 0), b1 = dr({}, mad::kGuidInfo, 1);
  EXPECT_EQ(mad::get_bits(b0.data(), 0, 64), 0x100001u);  // the port GUID
  EXPECT_EQ(mad::get_bits(b0.data(), 7 * 64, 64), 0x5007u);
  EXPECT_EQ(mad::get_bits(b1.data(), 64, 64), 0x5009u);
  EXPECT_EQ(mad::get_bits(b1.data(), 2 * 64, 64), 0u);
  EXPECT_NE(dr_error({}, mad::kGuidInfo, 2), "");
  // A switch: GUIDCap 1 on port 0, none on external ports.
  EXPECT_EQ(dr({1}, mad::kPortInfo, 0).get_attr(mad::kPortInfo, "GUIDCap"), 1u);
  EXPECT_EQ(dr({1}, mad::kPortInfo, 3).get_attr(mad::kPortInfo, "GUIDCap"), 0u);
  EXPECT_EQ(dr({1}, mad::kGuidInfo).get_attr(mad::kGuidInfo, "GUIDBlock"), 0x200000u);
  EXPECT_NE(dr_error({1}, mad::kGuidInfo, 1), "");
}

TEST_F(Fabric, Sl2vlPerInputAndOutputPortOnSwitchesOneTableOnCas) {
  int sw1 = f.node("sw1"), hca1 = f.node("hca1");
  std::array<uint8_t, 16> t{};
  for (uint8_t sl = 0; sl < 16; ++sl) t[sl] = sl % 8;
  f.nodes()[sw1].sl2vl[2 << 8 | 5] = t;
  f.nodes()[hca1].sl2vl[0] = {15, 14};
  Mad m = dr({1}, mad::kSl2VlTable, 2 << 8 | 5);
  for (unsigned sl = 0; sl < 16; ++sl) EXPECT_EQ(mad::get_bits(m.data(), sl * 4, 4), sl % 8);
  Mad other = dr({1}, mad::kSl2VlTable, 5 << 8 | 2);  // not set: every SL to VL0
  EXPECT_EQ(mad::get_bits(other.data(), 7 * 4, 4), 0u);
  EXPECT_NE(dr_error({1}, mad::kSl2VlTable, 9 << 8 | 1), "");
  Mad ca = dr({}, mad::kSl2VlTable);
  EXPECT_EQ(mad::get_bits(ca.data(), 0, 4), 15u);
  EXPECT_EQ(mad::get_bits(ca.data(), 4, 4), 14u);
}

TEST_F(Fabric, VlArbitrationLowAndHighBlocksUpToPortInfosCaps) {
  int sw1 = f.node("sw1");
  FabricPort& p = f.nodes()[sw1].ports[3];
  p.vlarb_low_cap = 40;
  p.vlarb_high_cap = 8;
  for (uint8_t i = 0; i < 40; ++i) p.vlarb_low.push_back({static_cast<uint8_t>(i % 8), i});
  p.vlarb_high = {{7, 200}};
  Mad pi = dr({1}, mad::kPortInfo, 3);
  EXPECT_EQ(pi.get_attr(mad::kPortInfo, "VLArbitrationLowCap"), 40u);
  EXPECT_EQ(pi.get_attr(mad::kPortInfo, "VLArbitrationHighCap"), 8u);
  Mad low2 = dr({1}, mad::kVlArbTable, 2 << 16 | 3);  // entries 32-63
  EXPECT_EQ(mad::get_bits(low2.data(), 4, 4), 0u);    // entry 32: VL 0
  EXPECT_EQ(mad::get_bits(low2.data(), 8, 8), 32u);
  EXPECT_EQ(mad::get_bits(low2.data(), 7 * 16 + 4, 4), 7u);
  EXPECT_EQ(mad::get_bits(low2.data(), 7 * 16 + 8, 8), 39u);
  Mad high = dr({1}, mad::kVlArbTable, 3 << 16 | 3);
  EXPECT_EQ(mad::get_bits(high.data(), 4, 4), 7u);
  EXPECT_EQ(mad::get_bits(high.data(), 8, 8), 200u);
  EXPECT_NE(dr_error({1}, mad::kVlArbTable, 4 << 16 | 3), "");  // high 32-63 > cap 8
  EXPECT_NE(dr_error({1}, mad::kVlArbTable, 1 << 16 | 0), "");  // a base port 0 has none
  EXPECT_NE(dr_error({1}, mad::kVlArbTable, 1 << 16 | 9), "");
  EXPECT_EQ(dr({}, mad::kVlArbTable, 1 << 16).data()[0], 0);  // a CA's: its own port
}

TEST_F(Fabric, LidRoutingNeedsTheSm) {
  EXPECT_THROW(lid(2, mad::kNodeInfo), Error);
  f.assign_lids();
  ASSERT_TRUE(f.has_sm());
  // Breadth-first from hca1: hca1 1, sw1 2, then sw1's neighbours.
  EXPECT_EQ(f.lid(f.node("hca1"), 1), 1);
  EXPECT_EQ(f.lid(f.node("sw1")), 2);
  EXPECT_EQ(f.local_port().lid, 1);
  EXPECT_EQ(f.local_port().sm_lid, 1);
  for (const char* name : {"hca1", "sw1", "sw2", "hca2", "hca3", "hca4"}) {
    int n = f.node(name);
    Mad m = lid(f.lid(n, 1), mad::kNodeInfo);
    EXPECT_EQ(m.get_attr(mad::kNodeInfo, "NodeGUID"), f.nodes()[n].node_guid) << name;
    EXPECT_EQ(m.get_attr(mad::kNodeInfo, "LocalPortNum"), f.nodes()[n].is_switch() ? 0u : 1u);
  }
  Mad pi = lid(f.lid(f.node("hca3"), 1), mad::kPortInfo, 1);
  EXPECT_EQ(pi.get_attr(mad::kPortInfo, "PortState"), kActive);
  EXPECT_EQ(pi.get_attr(mad::kPortInfo, "MasterSMLID"), 1u);
  EXPECT_EQ(pi.get_attr(mad::kPortInfo, "LID"), f.lid(f.node("hca3"), 1));
  // sw1 sends hca3's LID towards sw2 (port 3 or 4), hca2's to port 2.
  uint16_t hca3 = f.lid(f.node("hca3"), 1), hca2 = f.lid(f.node("hca2"), 1);
  Mad lft = lid(2, mad::kLinearForwardingTable, 0);
  EXPECT_TRUE(lft.data()[hca3] == 3 || lft.data()[hca3] == 4);
  EXPECT_EQ(lft.data()[hca2], 2);
  EXPECT_EQ(lft.data()[1], 1);
  EXPECT_EQ(lft.data()[2], 0);  // its own LID
  Mad si = lid(2, mad::kSwitchInfo);
  EXPECT_EQ(si.get_attr(mad::kSwitchInfo, "LinearFDBTop"), 6u);
  // The SM answers SMInfo on its port; a LID nobody has stays silent.
  Mad sm = lid(1, mad::kSmInfo);
  EXPECT_EQ(sm.get_attr(mad::kSmInfo, "GUID"), 0x100001u);
  EXPECT_EQ(sm.get_attr(mad::kSmInfo, "SMState"), 3u);
  EXPECT_THROW(lid(99, mad::kNodeInfo), Error);
  // Both switch-to-switch links carry traffic (min-hop spreads by load).
  const FabricNode& sw1 = f.nodes()[f.node("sw1")];
  bool p3 = false, p4 = false;
  for (uint8_t out : sw1.lft) {
    p3 |= out == 3;
    p4 |= out == 4;
  }
  EXPECT_TRUE(p3 && p4);
}

TEST_F(Fabric, LidRoutingFollowsTheTables) {
  f.assign_lids();
  uint16_t hca4 = f.lid(f.node("hca4"), 1);
  // Break sw1's entry for hca4: the MAD is lost on the way.
  f.nodes()[f.node("sw1")].lft[hca4] = 7;
  EXPECT_THROW(lid(hca4, mad::kNodeInfo), Error);
  f.nodes()[f.node("sw1")].lft[hca4] = 3;
  EXPECT_EQ(lid(hca4, mad::kNodeInfo).get_attr(mad::kNodeInfo, "NodeGUID"), 0x100009u);
  f.nodes()[f.node("sw1")].lft[hca4] = 4;
  EXPECT_EQ(lid(hca4, mad::kNodeInfo).get_attr(mad::kNodeInfo, "NodeGUID"), 0x100009u);
  // The way back counts too: sw2 loses the route to hca1.
  f.nodes()[f.node("sw2")].lft[1] = 0xff;
  EXPECT_THROW(lid(hca4, mad::kNodeInfo), Error);
}

TEST_F(Fabric, TimeoutsComeBackAsUmadReportsThem) {
  mad::Route r{false, 42, {}};
  Mad q = mad::make_smp(r, mad::kGet, mad::kNodeInfo, 0);
  q.set(hdr::kTid, 0x1234);
  f.send(q, mad::smp_address(r), 5000);
  auto got = f.receive(0);  // at once: the double does not make tests wait
  ASSERT_TRUE(got);
  EXPECT_EQ(got->status, ETIMEDOUT);
  EXPECT_TRUE(std::equal(q.bytes.begin(), q.bytes.end(), got->bytes.begin()));
  EXPECT_FALSE(f.receive(0));
  EXPECT_EQ(f.stats().timeouts, 1u);
}

TEST(FabricRealTime, TimeoutsAfterTheirTime) {
  FabricOptions o;
  o.real_timeouts = true;
  FakeFabric f(load_topology(kNet), o);
  mad::Route r{false, 42, {}};
  f.send(mad::make_smp(r, mad::kGet, mad::kNodeInfo, 0), mad::smp_address(r), 30);
  EXPECT_FALSE(f.receive(0));
  auto got = f.receive(1000);
  ASSERT_TRUE(got);
  EXPECT_EQ(got->status, ETIMEDOUT);
}

TEST(FabricAttach, ChoosesTheCaAndRefusesSwitches) {
  FabricOptions o;
  o.attach_node = "hca3";
  FakeFabric f(load_topology(kNet), o);
  mad::Engine e(f, {100, 0, 1});
  mad::Route r{true, 0, {1}};
  Mad m = e.call(mad::make_smp(r, mad::kGet, mad::kNodeInfo, 0), mad::smp_address(r), "q");
  EXPECT_EQ(m.get_attr(mad::kNodeInfo, "NodeGUID"), 0x200001u);
  o.attach_node = "sw1";
  EXPECT_THROW(FakeFabric(load_topology(kNet), o), Error);
  o.attach_node = "nope";
  EXPECT_THROW(FakeFabric(load_topology(kNet), o), Error);
  o.attach_node = "hca4";
  o.attach_port = 2;
  EXPECT_THROW(FakeFabric(load_topology(kNet), o), Error);
}

}  // namespace
}  // namespace rdma::ibtest

namespace rdma::ibtest {
namespace {

std::vector<uint8_t> hex(const char* text) {
  return mad::parse_hex(text);
}

// The double's answers against ibsim's, byte for byte (the attribute, and
// the directed route header), from MADs captured on the same fabric.
TEST(FabricLikeIbsim, NodeInfoAndPortInfoAsCaptured) {
  FakeFabric f(load_topology(kNet));
  mad::Engine e(f, {100, 0, 1});
  mad::Route r{true, 0, {1, 3}};
  Mad dr = e.call(mad::make_smp(r, mad::kGet, mad::kNodeInfo, 0), mad::smp_address(r), "dr");
  std::vector<uint8_t> want = hex(mad::captured::kDrNodeInfo);
  EXPECT_TRUE(std::equal(want.begin() + 64, want.begin() + 128, dr.bytes.begin() + 64));
  EXPECT_TRUE(std::equal(want.begin() + 4, want.begin() + 8, dr.bytes.begin() + 4));  // D, hops
  EXPECT_TRUE(std::equal(want.begin() + 32, want.begin() + 36, dr.bytes.begin() + 32));
  EXPECT_TRUE(std::equal(want.begin() + 128, want.begin() + 131, dr.bytes.begin() + 128));
  // ReturnPath[1..2]; ibsim also fills entry 0, which IBA leaves unused.
  EXPECT_TRUE(std::equal(want.begin() + 193, want.begin() + 195, dr.bytes.begin() + 193));

  f.assign_lids();  // the captures were taken with opensm running
  mad::Route l{false, 2, {}};
  Mad sw = e.call(mad::make_smp(l, mad::kGet, mad::kNodeInfo, 0), mad::smp_address(l), "lid");
  want = hex(mad::captured::kSwitchNodeInfo);
  EXPECT_TRUE(std::equal(want.begin() + 64, want.begin() + 128, sw.bytes.begin() + 64));
  mad::Route h{false, 1, {}};
  Mad pi = e.call(mad::make_smp(h, mad::kGet, mad::kPortInfo, 1), mad::smp_address(h), "lid");
  want = hex(mad::captured::kHcaPortInfo);
  for (size_t i = 64; i < 128; ++i) EXPECT_EQ(pi.bytes[i], want[i]) << "PortInfo byte " << i - 64;
}

}  // namespace
}  // namespace rdma::ibtest
