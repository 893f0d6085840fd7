#include "lib/ib/mkey_transport.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <memory>
#include <vector>

#include "lib/mad/attrs.h"
#include "lib/testing/fake_transport.h"

namespace rdma::ib {
namespace {

// The NodeInfo attribute bytes of a port with this PortGUID.
std::vector<uint8_t> mkt_node_info(const mad::Mad& request, uint64_t port_guid) {
  mad::Mad a = request;
  a.set_attr(mad::kNodeInfo, "PortGUID", port_guid);
  std::span<const uint8_t> d = a.data();
  return {d.begin(), d.begin() + 64};
}

// A fabric whose every port answers NodeInfo with a GUID of its route's
// length (dr 1,3 is 0x102; lid 4 is 0x104) and every other Get with
// zeros; the wire the MkeyTransport wraps, what left kept in sent.
struct MktFabric {
  mad::FakeTransport* wire = nullptr;
  MkeySource keys;
  std::unique_ptr<MkeyTransport> t;

  MktFabric() {
    auto fake = std::make_unique<mad::FakeTransport>(
        [](const mad::Mad& q, const mad::Address& to) -> std::optional<std::vector<uint8_t>> {
          if (q.get(mad::hdr::kAttrId) != mad::kNodeInfo.id) return mad::reply_to(q, {});
          uint64_t guid = q.mgmt_class() == mad::kClassSmiDr ? 0x100 + q.get(mad::hdr::kHopCount)
                                                             : 0x100 + to.lid;
          return mad::reply_to(q, mkt_node_info(q, guid));
        });
    wire = fake.get();
    t = std::make_unique<MkeyTransport>(std::move(fake), keys);
  }
  // Sends a Get of a to r through the wrapper and takes its answer.
  std::optional<mad::Received> get(const mad::Route& r, const mad::AttrDef& a, uint64_t tid) {
    mad::Mad q = mad::make_smp(r, mad::kGet, a, 0);
    q.set(mad::hdr::kTid, tid);
    t->send(q, mad::smp_address(r), 100);
    return t->receive(100);
  }
  uint64_t last_key() const { return wire->sent.back().get(mad::hdr::kMKey); }
};

TEST(MkeyTransport, SmpLeavesWithTheKeyOfItsPortsGuid) {
  MktFabric f;
  f.keys.set_key(0x5);
  f.keys.set_keys({{0x200, 0xaa}, {0x300, 0xbb}});
  f.keys.learn_lid(4, 0x200);
  f.keys.learn_lid(6, 0x300);
  f.keys.learn_lid(7, 0x999);  // known, not in the file
  f.get({false, 4, {}}, mad::kPortInfo, 1);
  EXPECT_EQ(f.last_key(), 0xaau);
  f.get({false, 6, {}}, mad::kPortInfo, 2);
  EXPECT_EQ(f.last_key(), 0xbbu);
  f.get({false, 7, {}}, mad::kPortInfo, 3);
  EXPECT_EQ(f.last_key(), 0x5u);
  f.get({false, 9, {}}, mad::kPortInfo, 4);  // GUID unknown
  EXPECT_EQ(f.last_key(), 0x5u);
  // Only the key changed on the way: the rest is the request as built.
  mad::Mad built = mad::make_smp({false, 4, {}}, mad::kGet, mad::kPortInfo, 0);
  built.set(mad::hdr::kTid, 1);
  built.set(mad::hdr::kMKey, 0xaa);
  EXPECT_EQ(f.wire->sent.front().bytes, built.bytes);
}

TEST(MkeyTransport, SmpLeavesWithTheSingleKeyWithoutAFile) {
  MktFabric f;
  f.keys.set_key(0x1234);
  f.keys.learn_lid(4, 0x200);
  f.get({false, 4, {}}, mad::kPortInfo, 1);
  EXPECT_EQ(f.last_key(), 0x1234u);
  f.get({true, 0, {1, 3}}, mad::kNodeInfo, 2);
  EXPECT_EQ(f.last_key(), 0x1234u);
  f.get({true, 0, {1, 3}}, mad::kPortInfo, 3);  // its GUID heard: still one key
  EXPECT_EQ(f.last_key(), 0x1234u);
  // A request built with another key leaves with the chosen one.
  mad::Mad q = mad::make_smp({true, 0, {2}}, mad::kGet, mad::kPortInfo, 0);
  q.set(mad::hdr::kMKey, 0x77);
  f.t->send(q, mad::smp_address({true, 0, {2}}), 100);
  EXPECT_EQ(f.last_key(), 0x1234u);
}

TEST(MkeyTransport, GmpPassesUntouched) {
  MktFabric f;
  f.keys.set_key(0x5);
  f.keys.set_keys({{0x104, 0xaa}});
  f.keys.learn_lid(4, 0x104);
  int traced = 0;
  f.t->trace = [&](const char*, std::span<const uint8_t>) { ++traced; };
  mad::Mad q = mad::make_gmp(mad::kClassPerf, mad::kGet, mad::kPortCounters, 0);
  q.set(mad::hdr::kTid, 9);
  mad::Address to = mad::gsi_address(4);
  to.pkey_index = 3;
  f.t->send(q, to, 100);
  ASSERT_EQ(f.wire->sent.size(), 1u);
  EXPECT_EQ(f.wire->sent[0].bytes, q.bytes);
  EXPECT_EQ(f.wire->sent_to[0].pkey_index, 3);
  EXPECT_EQ(f.wire->sent_to[0].qkey, mad::kGsiQkey);
  EXPECT_EQ(traced, 0);  // the engine's trace showed it already
  // Its answer comes back as the wire gave it.
  std::optional<mad::Received> r = f.t->receive(100);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->bytes, mad::reply_to(q, {}));
}

TEST(MkeyTransport, TracesEachSmpWithTheKeyItLeftWith) {
  MktFabric f;
  f.keys.set_key(0x42);
  std::vector<uint64_t> keys;
  f.t->trace = [&](const char* dir, std::span<const uint8_t> bytes) {
    EXPECT_STREQ(dir, ">");
    mad::Mad m;
    std::copy(bytes.begin(), bytes.end(), m.bytes.begin());
    keys.push_back(m.get(mad::hdr::kMKey));
  };
  f.get({true, 0, {1}}, mad::kPortInfo, 1);
  EXPECT_EQ(keys, std::vector<uint64_t>{0x42});
}

TEST(MkeyTransport, NodeInfoAnswerTeachesTheGuidAtTheRoutesEnd) {
  MktFabric f;
  f.keys.set_key(0x5);
  f.keys.set_keys({{0x102, 0xaa}, {0x103, 0xcc}});
  EXPECT_FALSE(f.keys.guid_at("dr 1,3"));
  std::optional<mad::Received> r = f.get({true, 0, {1, 3}}, mad::kNodeInfo, 11);
  ASSERT_TRUE(r);
  EXPECT_EQ(f.last_key(), 0x5u);  // asked before its GUID was known
  EXPECT_EQ(f.keys.guid_at("dr 1,3"), 0x102u);
  f.get({true, 0, {1, 3}}, mad::kPortInfo, 12);
  EXPECT_EQ(f.last_key(), 0xaau);
  // Only that route learned: its neighbor is still unknown.
  EXPECT_FALSE(f.keys.guid_at("dr 1,4"));
  // A PortInfo answer teaches nothing, nor does a NodeInfo Set's.
  f.get({true, 0, {2, 2, 2}}, mad::kPortInfo, 13);
  EXPECT_FALSE(f.keys.guid_at("dr 2,2,2"));
  mad::Mad set = mad::make_smp({true, 0, {2, 2, 2}}, mad::kSet, mad::kNodeInfo, 0);
  set.set(mad::hdr::kTid, 14);
  f.t->send(set, mad::smp_address({true, 0, {2, 2, 2}}), 100);
  f.t->receive(100);
  EXPECT_FALSE(f.keys.guid_at("dr 2,2,2"));
  // A LID route learns the same way.
  f.get({false, 3, {}}, mad::kNodeInfo, 15);
  EXPECT_EQ(f.keys.guid_at("lid 3"), 0x103u);
  f.get({false, 3, {}}, mad::kPortInfo, 16);
  EXPECT_EQ(f.last_key(), 0xccu);
}

// A reply is matched to its Get by TransactionID: answers arriving out of
// order each teach their own route.
TEST(MkeyTransport, NodeInfoAnswersMatchTheirGetsByTid) {
  MktFabric f;
  f.keys.set_keys({{0x101, 0xaa}});
  mad::Mad a = mad::make_smp({true, 0, {1}}, mad::kGet, mad::kNodeInfo, 0);
  a.set(mad::hdr::kTid, 21);
  mad::Mad b = mad::make_smp({true, 0, {1, 2, 3}}, mad::kGet, mad::kNodeInfo, 0);
  b.set(mad::hdr::kTid, 22);
  f.t->send(a, mad::smp_address({true, 0, {1}}), 100);
  f.t->send(b, mad::smp_address({true, 0, {1, 2, 3}}), 100);
  ASSERT_TRUE(f.t->receive(100));
  ASSERT_TRUE(f.t->receive(100));
  EXPECT_EQ(f.keys.guid_at("dr 1"), 0x101u);
  EXPECT_EQ(f.keys.guid_at("dr 1,2,3"), 0x103u);
  EXPECT_FALSE(f.t->receive(0));
}

// A wire that reports each send as failed (umad's timeout: the request's
// own bytes with a status).
class MktTimingOut : public mad::Transport {
 public:
  void send(const mad::Mad& m, const mad::Address&, int) override { last_ = m; }
  std::optional<mad::Received> receive(int) override {
    mad::Received r;
    // The request made to look like an answer: only the status says not.
    r.bytes = mad::reply_to(last_, mkt_node_info(last_, 0x100));
    r.status = ETIMEDOUT;
    return r;
  }

 private:
  mad::Mad last_;
};

// Without a key file no GUID chooses a key: an answer teaches nothing,
// so a discovery keeps nothing a node for it.
TEST(MkeyTransport, NothingLearnedWithoutAFile) {
  MktFabric f;
  f.keys.set_key(0x77);
  mad::Mad q = mad::make_smp({true, 0, {1}}, mad::kGet, mad::kNodeInfo, 0);
  f.t->send(q, mad::smp_address({true, 0, {1}}), 100);
  ASSERT_TRUE(f.t->receive(100));
  EXPECT_FALSE(f.keys.guid_at("dr 1"));
  EXPECT_EQ(f.wire->sent.back().get(mad::hdr::kMKey), 0x77u);
}

// One key for every port needs no route (MkeySource::per_route false)
// until a Set gives one port a key of its own: from then on the SMPs to
// that port carry it, those elsewhere the single key still.
TEST(MkeyTransport, OneKeyUntilASetGivesAPortItsOwn) {
  MktFabric f;
  f.keys.set_key(0x77);
  EXPECT_FALSE(f.keys.per_route());
  f.get({true, 0, {1, 3}}, mad::kPortInfo, 1);
  EXPECT_EQ(f.last_key(), 0x77u);
  f.keys.set_key_at("dr 1,3", 0x99);
  EXPECT_TRUE(f.keys.per_route());
  f.get({true, 0, {1, 3}}, mad::kPortInfo, 2);
  EXPECT_EQ(f.last_key(), 0x99u);
  f.get({true, 0, {1}}, mad::kPortInfo, 3);
  EXPECT_EQ(f.last_key(), 0x77u);
  f.get({false, 4, {}}, mad::kPortInfo, 4);
  EXPECT_EQ(f.last_key(), 0x77u);
}

TEST(MkeyTransport, FailedSendTeachesNothing) {
  MkeySource keys;
  keys.set_keys({{0x100, 0xaa}});
  MkeyTransport t(std::make_unique<MktTimingOut>(), keys);
  mad::Mad q = mad::make_smp({true, 0, {1}}, mad::kGet, mad::kNodeInfo, 0);
  q.set(mad::hdr::kTid, 31);
  t.send(q, mad::smp_address({true, 0, {1}}), 100);
  std::optional<mad::Received> r = t.receive(100);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, ETIMEDOUT);
  EXPECT_FALSE(keys.guid_at("dr 1"));
}

}  // namespace
}  // namespace rdma::ib
