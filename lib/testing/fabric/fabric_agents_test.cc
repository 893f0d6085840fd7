// The double's PMA and SA, its faults, and a run through lib/mad's Engine.
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <functional>
#include <map>
#include <set>

#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/mad/engine.h"
#include "lib/testing/fabric/fabric.h"
#include "lib/testing/test_data.h"

namespace rdma::ibtest {
namespace {

using mad::Mad;
namespace hdr = mad::hdr;

using testdata::kNet;

Mad to_mad(const mad::Received& r) {
  Mad m;
  std::copy_n(r.bytes.begin(), std::min(r.bytes.size(), m.bytes.size()), m.bytes.begin());
  return m;
}

class Agents : public ::testing::Test {
 protected:
  Agents() : f(load_topology(kNet)), engine(f, {100, 2, 8}) { f.assign_lids(); }

  Mad pma(uint16_t l, uint8_t method, const mad::AttrDef& a, int port, uint32_t select = 0) {
    Mad q = mad::make_gmp(mad::kClassPerf, method, a, 0);
    if (a.id != mad::kClassPortInfo.id) {
      q.set_attr(a, "PortSelect", port);
      q.set_attr(a, "CounterSelect", select);
    }
    return engine.call(q, mad::gsi_address(l), "pma");
  }
  // Every MAD the SA sends for one request.
  std::vector<Mad> sa(uint8_t method, const mad::AttrDef& a, uint64_t mask = 0,
                      std::function<void(Mad&)> fill = {}) {
    Mad q = mad::make_gmp(mad::kClassSa, method, a, 0);
    q.set(hdr::kCompMask, mask);
    q.set(hdr::kTid, 77);
    if (fill) fill(q);
    f.send(q, mad::gsi_address(f.local_port().sm_lid), 100);
    std::vector<Mad> out;
    while (auto r = f.receive(0)) {
      EXPECT_EQ(r->status, 0);
      out.push_back(to_mad(*r));
    }
    return out;
  }

  FakeFabric f;
  mad::Engine engine;
};

TEST_F(Agents, PmaClassPortInfoAndCounters) {
  int sw2 = f.node("sw2");
  uint16_t l = f.lid(sw2);
  Mad cpi = pma(l, mad::kGet, mad::kClassPortInfo, 0);
  EXPECT_TRUE(cpi.get_attr(mad::kClassPortInfo, "CapabilityMask") & mad::kPmaCapAllPortSelect);
  f.set_counter(sw2, 3, "SymbolErrorCounter", 17);
  f.set_counter(sw2, 4, "SymbolErrorCounter", 5);
  f.set_counter(sw2, 3, "PortXmitData", 0x1'0000'0005ull);  // past 32 bits
  f.set_counter(sw2, 3, "LinkDownedCounter", 300);          // past 8 bits
  Mad p3 = pma(l, mad::kGet, mad::kPortCounters, 3);
  EXPECT_EQ(p3.get_attr(mad::kPortCounters, "PortSelect"), 3u);
  EXPECT_EQ(p3.get_attr(mad::kPortCounters, "SymbolErrorCounter"), 17u);
  EXPECT_EQ(p3.get_attr(mad::kPortCounters, "PortXmitData"), 0xffffffffu);  // saturated
  EXPECT_EQ(p3.get_attr(mad::kPortCounters, "LinkDownedCounter"), 255u);
  Mad x3 = pma(l, mad::kGet, mad::kPortCountersExtended, 3);
  EXPECT_EQ(x3.get_attr(mad::kPortCountersExtended, "PortXmitData"), 0x100000005u);
  Mad all = pma(l, mad::kGet, mad::kPortCounters, 0xff);
  EXPECT_EQ(all.get_attr(mad::kPortCounters, "SymbolErrorCounter"), 22u);
  EXPECT_EQ(all.get_attr(mad::kPortCounters, "PortSelect"), 0xffu);
  // Set clears what CounterSelect names (bit 0 SymbolErrorCounter), on the
  // port chosen, and answers with the counters after.
  Mad cleared = pma(l, mad::kSet, mad::kPortCounters, 3, 1);
  EXPECT_EQ(cleared.get_attr(mad::kPortCounters, "SymbolErrorCounter"), 0u);
  EXPECT_EQ(cleared.get_attr(mad::kPortCounters, "LinkDownedCounter"), 255u);
  EXPECT_EQ(f.counter(sw2, 4, "SymbolErrorCounter"), 5u);
  pma(l, mad::kSet, mad::kPortCountersExtended, 0xff, 0xff);
  EXPECT_EQ(f.counter(sw2, 3, "PortXmitData"), 0u);
  EXPECT_EQ(f.counter(sw2, 3, "LinkDownedCounter"), 300u);
}

TEST_F(Agents, PmaWithoutAllPortSelectAndBadPorts) {
  int hca3 = f.node("hca3");
  f.nodes()[hca3].all_port_select = false;
  uint16_t l = f.lid(hca3, 1);
  Mad cpi = pma(l, mad::kGet, mad::kClassPortInfo, 0);
  EXPECT_FALSE(cpi.get_attr(mad::kClassPortInfo, "CapabilityMask") & mad::kPmaCapAllPortSelect);
  EXPECT_THROW(pma(l, mad::kGet, mad::kPortCounters, 0xff), Error);
  EXPECT_THROW(pma(l, mad::kGet, mad::kPortCounters, 3), Error);  // hca3 has 2 ports
  EXPECT_THROW(pma(l, mad::kGet, mad::kPortCounters, 0), Error);  // CAs have no port 0
  f.set_counter(hca3, 2, "PortRcvErrors", 9);
  EXPECT_EQ(pma(l, mad::kGet, mad::kPortCounters, 2).get_attr(mad::kPortCounters, "PortRcvErrors"),
            9u);
  // Without an SM nothing has a LID: the PMA is out of reach.
  FakeFabric bare(load_topology(kNet));
  mad::Engine e(bare, {50, 0, 1});
  EXPECT_THROW(e.call(mad::make_gmp(mad::kClassPerf, mad::kGet, mad::kClassPortInfo, 0),
                      mad::gsi_address(2), "pma"),
               Error);
}

TEST_F(Agents, PmaWithoutPortCountersExtended) {
  int sw1 = f.node("sw1");
  uint16_t l = f.lid(sw1);
  f.nodes()[sw1].extended_counters = false;
  Mad cpi = pma(l, mad::kGet, mad::kClassPortInfo, 0);
  EXPECT_EQ(cpi.get_attr(mad::kClassPortInfo, "CapabilityMask") & (1 << 9), 0u);
  Mad q = mad::make_gmp(mad::kClassPerf, mad::kGet, mad::kPortCountersExtended, 0);
  q.set_attr(mad::kPortCountersExtended, "PortSelect", 1);
  try {
    engine.call(q, mad::gsi_address(l), "pma");
    ADD_FAILURE() << "answered";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("status 0x000c"), std::string::npos) << e.what();
  }
  EXPECT_EQ(pma(l, mad::kGet, mad::kPortCounters, 1).get_attr(mad::kPortCounters, "PortSelect"),
            1u);
}

TEST_F(Agents, SaNodeRecordsInRmppSegments) {
  std::vector<Mad> segs = sa(mad::kSaGetTable, mad::kNodeRecord);
  // 6 LIDs x 112 bytes = 672 bytes: 4 segments of 200.
  ASSERT_EQ(segs.size(), 4u);
  for (size_t i = 0; i < segs.size(); ++i) {
    const Mad& s = segs[i];
    EXPECT_EQ(s.get(hdr::kTid), 77u);
    EXPECT_EQ(s.get(hdr::kResponse), 1u);
    EXPECT_EQ(s.get(hdr::kMethod), mad::kSaGetTable);
    EXPECT_EQ(s.get(hdr::kStatus), 0u);
    EXPECT_EQ(s.get(hdr::kRmppVersion), 1u);
    EXPECT_EQ(s.get(hdr::kRmppType), mad::kRmppData);
    EXPECT_EQ(s.get(mad::hdr::kRmppSegment), i + 1);
    EXPECT_EQ(s.get(hdr::kAttrOffset), 14u);
    uint64_t flags =
        mad::kRmppActive | (i == 0 ? mad::kRmppFirst : 0) | (i == 3 ? mad::kRmppLast : 0);
    EXPECT_EQ(s.get(hdr::kRmppFlags), flags);
  }
  EXPECT_EQ(segs[0].get(mad::hdr::kRmppPayload), 20u + 672u);
  EXPECT_EQ(segs[1].get(mad::hdr::kRmppPayload), 0u);
  EXPECT_EQ(segs[3].get(mad::hdr::kRmppPayload), 20u + 72u);
  // Reassembled: one record per LID, NodeInfo and description inside.
  std::vector<uint8_t> all;
  for (const Mad& s : segs) all.insert(all.end(), s.data().begin(), s.data().end());
  std::set<uint64_t> guids;
  for (size_t r = 0; r < 6; ++r) {
    const uint8_t* rec = all.data() + r * 112;
    uint16_t l = rec[0] << 8 | rec[1];
    EXPECT_EQ(l, r + 1);
    guids.insert(mad::get_bits(std::span(rec + mad::kNodeRecordNodeInfo, 40), 96, 64));
  }
  EXPECT_EQ(guids,
            (std::set<uint64_t>{0x100000, 0x200000, 0x200001, 0x100003, 0x100006, 0x100009}));
  EXPECT_STREQ(reinterpret_cast<const char*>(all.data() + 112 + mad::kNodeRecordNodeDesc), "sw1");
}

TEST(SaLikeIbsim, FirstSegmentOnly) {
  FabricOptions o;
  o.rmpp = RmppMode::FirstOnly;
  FakeFabric f(load_topology(kNet), o);
  f.assign_lids();
  Mad q = mad::make_gmp(mad::kClassSa, mad::kSaGetTable, mad::kNodeRecord, 0);
  f.send(q, mad::gsi_address(1), 100);
  auto r = f.receive(0);
  ASSERT_TRUE(r);
  Mad m = to_mad(*r);
  EXPECT_EQ(m.get(hdr::kRmppFlags), uint64_t{mad::kRmppActive | mad::kRmppFirst});
  EXPECT_EQ(m.get(mad::hdr::kRmppPayload), 20u + 672u);
  EXPECT_FALSE(f.receive(0));
}

TEST_F(Agents, SaGetFiltersByComponentMask) {
  uint16_t hca3 = f.lid(f.node("hca3"), 1);
  std::vector<Mad> one = sa(mad::kGet, mad::kNodeRecord, 1, [&](Mad& q) {
    q.data()[0] = static_cast<uint8_t>(hca3 >> 8);
    q.data()[1] = static_cast<uint8_t>(hca3);
  });
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].get(hdr::kStatus), 0u);
  EXPECT_EQ(one[0].get(hdr::kRmppVersion), 0u);  // a Get is no RMPP transfer
  EXPECT_EQ(mad::get_bits(one[0].data().subspan(mad::kNodeRecordNodeInfo), 96, 64), 0x100006u);
  std::vector<Mad> many = sa(mad::kGet, mad::kNodeRecord);
  EXPECT_EQ(many[0].get(hdr::kStatus), mad::kSaStatusTooManyRecords);
  std::vector<Mad> none = sa(mad::kGet, mad::kNodeRecord, 1, [](Mad& q) { q.data()[1] = 99; });
  EXPECT_EQ(none[0].get(hdr::kStatus), mad::kSaStatusNoRecords);
  // By NodeGUID (component 7): sw2.
  std::vector<Mad> sw2 = sa(mad::kSaGetTable, mad::kNodeRecord, 1 << 7, [](Mad& q) {
    mad::set_bits(q.data().subspan(mad::kNodeRecordNodeInfo), 96, 64, 0x200001);
  });
  ASSERT_EQ(sw2.size(), 1u);
  EXPECT_EQ(sw2[0].get(mad::hdr::kRmppPayload), 20u + 112u);
  EXPECT_EQ(sw2[0].get(hdr::kRmppFlags),
            uint64_t{mad::kRmppActive | mad::kRmppFirst | mad::kRmppLast});
}

std::vector<uint8_t> payload(const std::vector<Mad>& segs) {
  std::vector<uint8_t> all;
  for (const Mad& s : segs) all.insert(all.end(), s.data().begin(), s.data().end());
  all.resize(segs.at(0).get(mad::hdr::kRmppPayload) - 20);
  return all;
}

TEST_F(Agents, SaPortInfoLinkSwitchLftAndSmRecords) {
  // PortInfoRecord: 4 CA ports, 2 switches x 9 ports.
  EXPECT_EQ(payload(sa(mad::kSaGetTable, mad::kPortInfoRecord)).size(), (4 + 18) * 72u);
  std::vector<uint8_t> sw1p3 = payload(sa(mad::kSaGetTable, mad::kPortInfoRecord, 3, [](Mad& q) {
    q.data()[1] = 2;
    q.data()[2] = 3;
  }));
  ASSERT_EQ(sw1p3.size(), 72u);
  EXPECT_EQ(mad::get_bits(std::span(sw1p3).subspan(mad::kPortInfoRecordPortInfo), 260, 4), kActive);
  // LinkRecord: 6 links, each from both ends.
  std::vector<uint8_t> links = payload(sa(mad::kSaGetTable, mad::kLinkRecord));
  EXPECT_EQ(links.size(), 12 * 8u);
  EXPECT_EQ(payload(sa(mad::kSaGetTable, mad::kSwitchInfoRecord)).size(), 2 * 24u);
  std::vector<uint8_t> lft = payload(sa(mad::kSaGetTable, mad::kLftRecord));
  ASSERT_EQ(lft.size(), 2 * 72u);               // one block per switch: LIDs 0..6
  EXPECT_EQ(lft[mad::kLftRecordBlock + 2], 0);  // sw1's own LID
  std::vector<Mad> sm = sa(mad::kGet, mad::kSmInfoRecord);
  ASSERT_EQ(sm.size(), 1u);
  EXPECT_EQ(sm[0].data()[1], 1);
  EXPECT_EQ(mad::get_bits(sm[0].data().subspan(mad::kSmInfoRecordSmInfo), 0, 64), 0x100001u);
}

TEST_F(Agents, SaPathRecordAndTheTargetResolution) {
  // What lib/mad/target.cc sends for a GUID: Get with DGID and SGID.
  std::vector<Mad> pr = sa(mad::kGet, mad::kPathRecord, 1 << 2 | 1 << 3, [](Mad& q) {
    mad::set_bits(q.data(), 64, 64, 0xfe80000000000000ull);
    mad::set_bits(q.data(), 128, 64, 0x10000a);  // hca4 port 1
    mad::set_bits(q.data(), 192, 64, 0xfe80000000000000ull);
    mad::set_bits(q.data(), 256, 64, 0x100001);
  });
  ASSERT_EQ(pr.size(), 1u);
  ASSERT_EQ(pr[0].get(hdr::kStatus), 0u);
  EXPECT_EQ(pr[0].get_attr(mad::kPathRecord, "DLID"), f.lid(f.node("hca4"), 1));
  EXPECT_EQ(pr[0].get_attr(mad::kPathRecord, "SLID"), 1u);
  EXPECT_EQ(pr[0].get_attr(mad::kPathRecord, "Rate"), 3u);  // 4X SDR: 10 Gb/s
  EXPECT_EQ(pr[0].get_attr(mad::kPathRecord, "P_Key"), 0xffffu);
  // opensm's lifetime, whatever the hops (saquery -p on ibsim: 0x92), and
  // 0 to the port itself (0x80).
  EXPECT_EQ(pr[0].get_attr(mad::kPathRecord, "PacketLifeTimeSelector"), 2u);
  EXPECT_EQ(pr[0].get_attr(mad::kPathRecord, "PacketLifeTime"), 0x12u);
  std::vector<Mad> self = sa(mad::kGet, mad::kPathRecord, 1 << 4,
                             [](Mad& q) { q.set_attr(mad::kPathRecord, "DLID", 1); });
  ASSERT_EQ(self.size(), 1u);
  EXPECT_EQ(self[0].get_attr(mad::kPathRecord, "PacketLifeTimeSelector"), 2u);
  EXPECT_EQ(self[0].get_attr(mad::kPathRecord, "PacketLifeTime"), 0u);
  // Degrade a link on the way: the path is as slow as it.
  f.set_link_active(f.node("hca4"), 1, kWidth1x, kSpeedSdr);
  pr = sa(mad::kGet, mad::kPathRecord, 1 << 4,
          [&](Mad& q) { q.set_attr(mad::kPathRecord, "DLID", f.lid(f.node("hca4"), 1)); });
  EXPECT_EQ(pr[0].get_attr(mad::kPathRecord, "Rate"), 2u);  // 1X SDR
  pr = sa(mad::kGet, mad::kPathRecord, 1 << 2, [](Mad& q) { mad::set_bits(q.data(), 128, 64, 7); });
  EXPECT_EQ(pr[0].get(hdr::kStatus), mad::kSaStatusNoRecords);
}

TEST_F(Agents, SaOnlyAtTheSmsLid) {
  Mad q = mad::make_gmp(mad::kClassSa, mad::kGet, mad::kPathRecord, 0);
  EXPECT_THROW(engine.call(q, mad::gsi_address(2), "sa"), Error);  // status, not silence
  try {
    engine.call(q, mad::gsi_address(2), "sa");
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("status 0x000c"), std::string::npos) << e.what();
  }
}

// ---- faults ----

Mad dr_nodeinfo(std::vector<uint8_t> path) {
  mad::Route r{true, 0, std::move(path)};
  return mad::make_smp(r, mad::kGet, mad::kNodeInfo, 0);
}

TEST_F(Agents, DroppedAnswersLookLikeTimeoutsAndAreRetried) {
  int sw2 = f.node("sw2");
  f.drop({{sw2, mad::kClassSmiDr, mad::kNodeInfo.id}, 1.0, 2});  // the first two only
  Mad m = engine.call(dr_nodeinfo({1, 3}), mad::smp_address({true, 0, {}}), "sw2");
  EXPECT_EQ(m.get_attr(mad::kNodeInfo, "NodeGUID"), 0x200001u);
  EXPECT_EQ(f.stats().dropped, 2u);
  EXPECT_EQ(f.stats().received[mad::kClassSmiDr], 3u);
  // Always: the engine gives up after its tries.
  f.drop({{sw2, -1, -1}});
  EXPECT_THROW(engine.call(dr_nodeinfo({1, 3}), mad::smp_address({true, 0, {}}), "sw2"), Error);
  EXPECT_EQ(f.stats().dropped, 5u);
  // Other attributes and nodes still answer... until the faults are cleared.
  f.clear_faults();
  engine.call(dr_nodeinfo({1, 3}), mad::smp_address({true, 0, {}}), "sw2");
}

TEST(Faults, DropRateIsSeeded) {
  auto run = [](uint64_t seed) {
    FabricOptions o;
    o.seed = seed;
    FakeFabric f(load_topology(kNet), o);
    f.drop({{-1, -1, -1}, 0.3});
    for (int i = 0; i < 200; ++i) f.send(dr_nodeinfo({1}), {mad::kPermissiveLid, 0, 0}, 10);
    std::vector<int> got;
    while (auto r = f.receive(0)) got.push_back(r->status);
    return got;
  };
  std::vector<int> a = run(7), b = run(7), c = run(8);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  size_t lost = std::count(a.begin(), a.end(), ETIMEDOUT);
  EXPECT_GT(lost, 30u);
  EXPECT_LT(lost, 90u);
}

TEST(Faults, DelayedAnswersComeLate) {
  FakeFabric f(load_topology(kNet));
  int sw1 = f.node("sw1");
  f.delay({{sw1, -1, -1}, 0, 2});  // sw1's answers after two others
  Mad a = dr_nodeinfo({1}), b = dr_nodeinfo({}), c = dr_nodeinfo({1, 3});
  a.set(hdr::kTid, 1);
  b.set(hdr::kTid, 2);
  c.set(hdr::kTid, 3);
  for (const Mad& m : {a, b, c}) f.send(m, {mad::kPermissiveLid, 0, 0}, 10);
  std::vector<uint64_t> order;
  while (auto r = f.receive(0)) order.push_back(to_mad(*r).get(hdr::kTid));
  EXPECT_EQ(order, (std::vector<uint64_t>{2, 3, 1}));

  f.clear_faults();
  f.delay({{sw1, -1, -1}, 40, 0});
  auto t0 = std::chrono::steady_clock::now();
  f.send(a, {mad::kPermissiveLid, 0, 0}, 10);
  EXPECT_FALSE(f.receive(0));
  ASSERT_TRUE(f.receive(1000));
  EXPECT_GE(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(40));
}

TEST_F(Agents, UnlinkRelinkDisableAndDegrade) {
  int sw1 = f.node("sw1"), sw2 = f.node("sw2");
  mad::Address dr{mad::kPermissiveLid, 0, 0};
  f.unlink(sw1, 3);
  EXPECT_EQ(f.nodes()[sw2].ports[3].state, kDown);
  EXPECT_EQ(f.nodes()[sw2].ports[3].phys, kPolling);
  EXPECT_THROW(engine.call(dr_nodeinfo({1, 3}), dr, "q"), Error);
  engine.call(dr_nodeinfo({1, 4}), dr, "q");  // the other link still works
  f.relink(sw1, 3);
  EXPECT_EQ(f.nodes()[sw2].ports[3].state, kActive);  // the SM has run
  engine.call(dr_nodeinfo({1, 3}), dr, "q");

  f.set_port_disabled(sw2, 1, true);
  EXPECT_EQ(f.nodes()[sw2].ports[1].phys, kDisabled);
  EXPECT_EQ(f.nodes()[f.node("hca3")].ports[1].phys, kPolling);
  EXPECT_THROW(engine.call(dr_nodeinfo({1, 3, 1}), dr, "q"), Error);
  f.set_port_disabled(sw2, 1, false);
  engine.call(dr_nodeinfo({1, 3, 1}), dr, "q");

  f.set_link_active(sw2, 2, kWidth1x, kSpeedSdr);
  mad::Route r{true, 0, {1, 3, 2}};
  Mad pi = engine.call(mad::make_smp(r, mad::kGet, mad::kPortInfo, 1), dr, "q");
  EXPECT_EQ(pi.get_attr(mad::kPortInfo, "LinkWidthActive"), kWidth1x);
  EXPECT_EQ(pi.get_attr(mad::kPortInfo, "LinkWidthEnabled"), kWidth4x);
}

TEST_F(Agents, PortInfoSetDisablesAPort) {
  mad::Route r{true, 0, {1}};
  Mad set = mad::make_smp(r, mad::kSet, mad::kPortInfo, 2);
  set.set_attr(mad::kPortInfo, "PortPhysicalState", kDisabled);
  engine.call(set, mad::smp_address(r), "disable");
  EXPECT_EQ(f.nodes()[f.node("sw1")].ports[2].phys, kDisabled);
  EXPECT_EQ(f.nodes()[f.node("hca2")].ports[1].state, kDown);
  set.set_attr(mad::kPortInfo, "PortPhysicalState", kPolling);
  engine.call(set, mad::smp_address(r), "enable");
  EXPECT_EQ(f.nodes()[f.node("hca2")].ports[1].phys, kLinkUp);
}

// ---- through the engine, many at once ----

TEST(FabricEngine, ManyQueriesInAWindowWithLosses) {
  FabricOptions o;
  o.seed = 3;
  FakeFabric f(load_topology(kNet), o);
  f.assign_lids();
  f.drop({{-1, -1, -1}, 0.2});
  mad::Engine e(f, {100, 5, 16});
  struct Want {
    uint64_t guid;
    uint64_t got = 0;
    std::string error;
  };
  std::vector<Want> want;
  std::vector<std::pair<std::vector<uint8_t>, uint64_t>> paths = {
      {{}, 0x100000},     {{1}, 0x200000},       {{1, 3}, 0x200001},   {{1, 4}, 0x200001},
      {{1, 2}, 0x100003}, {{1, 3, 1}, 0x100006}, {{1, 4, 2}, 0x100009}};
  want.reserve(800);  // the callbacks hold pointers into it
  for (int i = 0; i < 100; ++i)
    for (auto& [path, guid] : paths) want.push_back({guid, 0, ""});
  size_t k = 0;
  for (int i = 0; i < 100; ++i)
    for (auto& [path, guid] : paths) {
      Want* w = &want[k++];
      mad::Route r{true, 0, path};
      e.submit({mad::make_smp(r, mad::kGet, mad::kNodeInfo, 0), mad::smp_address(r), "q",
                [w](const Mad* reply, const mad::Failure* f) {
                  w->error = f ? f->message : "";
                  if (reply) w->got = mad::get_bits(reply->data(), 96, 64);
                }});
    }
  // And LID-routed ones to every LID.
  for (uint16_t l = 1; l <= 6; ++l) {
    want.push_back({0, 0, ""});
    Want* w = &want.back();
    mad::Route r{false, l, {}};
    e.submit({mad::make_smp(r, mad::kGet, mad::kNodeInfo, 0), mad::smp_address(r), "q",
              [w](const Mad* reply, const mad::Failure* f) {
                w->error = f ? f->message : "";
                w->got = reply ? 1 : 0;
              }});
  }
  e.run();
  size_t ok = 0;
  for (const Want& w : want) {
    EXPECT_EQ(w.error, "");
    if (w.guid) {
      EXPECT_EQ(w.got, w.guid);
    }
    ok += w.error.empty();
  }
  EXPECT_EQ(ok, want.size());
  EXPECT_GT(f.stats().dropped, 100u);  // retried past them all
}

}  // namespace
}  // namespace rdma::ibtest

namespace rdma::ibtest {
namespace {

TEST(SaReassembled, OneBufferAsAnRmppAgentGetsIt) {
  FabricOptions o;
  o.rmpp = RmppMode::Reassembled;
  FakeFabric f(load_topology(kNet), o);
  f.assign_lids();
  Mad q = mad::make_gmp(mad::kClassSa, mad::kSaGetTable, mad::kNodeRecord, 0);
  f.send(q, mad::gsi_address(1), 100);
  auto r = f.receive(0);
  ASSERT_TRUE(r);
  ASSERT_EQ(r->bytes.size(), 56u + 6 * 112u);
  Mad head = to_mad(*r);
  EXPECT_EQ(head.get(mad::hdr::kRmppPayload), 20u + 672u);
  EXPECT_EQ(head.get(hdr::kRmppFlags),
            uint64_t{mad::kRmppActive | mad::kRmppFirst | mad::kRmppLast});
  EXPECT_EQ(r->bytes[56 + 5 * 112 + 1], 6);  // the last record's LID
  EXPECT_FALSE(f.receive(0));
}

}  // namespace
}  // namespace rdma::ibtest

namespace rdma::ibtest {
namespace {

TEST(SaAcked, SegmentsAsTheReceiversAcksOpenTheWindow) {
  FabricOptions o;
  o.rmpp = RmppMode::Acked;
  FakeFabric f(load_topology(kNet), o);
  f.assign_lids();
  Mad q = mad::make_gmp(mad::kClassSa, mad::kSaGetTable, mad::kNodeRecord, 0);
  q.set(hdr::kTid, 9);
  auto segments = [&] {
    std::vector<uint64_t> got;
    while (auto r = f.receive(0)) got.push_back(to_mad(*r).get(mad::hdr::kRmppSegment));
    return got;
  };
  auto ack = [&](uint32_t seg, uint32_t window_last, uint8_t type = mad::kRmppAck) {
    Mad a = q;
    a.set(hdr::kResponse, 1);
    a.set(hdr::kMethod, mad::kSaGetTable);
    a.set(hdr::kRmppVersion, 1);
    a.set(hdr::kRmppType, type);
    a.set(hdr::kRmppFlags, mad::kRmppActive);
    a.set(mad::hdr::kRmppSegment, seg);
    a.set(mad::hdr::kRmppPayload, window_last);
    f.send(a, mad::gsi_address(1), 0);
  };
  f.send(q, mad::gsi_address(1), 100);
  EXPECT_EQ(segments(), (std::vector<uint64_t>{1}));
  ack(1, 3);
  EXPECT_EQ(segments(), (std::vector<uint64_t>{2, 3}));
  ack(3, 10);
  EXPECT_EQ(segments(), (std::vector<uint64_t>{4}));
  ack(4, 10);  // the last: the transfer is over
  ack(1, 4);
  EXPECT_EQ(segments(), (std::vector<uint64_t>{}));
  // STOP ends a transfer too.
  f.send(q, mad::gsi_address(1), 100);
  EXPECT_EQ(segments(), (std::vector<uint64_t>{1}));
  ack(1, 1, 3);
  ack(1, 4);
  EXPECT_EQ(segments(), (std::vector<uint64_t>{}));
  EXPECT_EQ(f.stats().timeouts, 0u);
}

}  // namespace
}  // namespace rdma::ibtest
