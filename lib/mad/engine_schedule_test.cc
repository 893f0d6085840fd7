// The engine's per-destination scheduling (EngineConfig::per_node) and the
// timeouts nodes ask for, on a virtual clock.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <queue>
#include <set>
#include <string>
#include <vector>

#include "lib/mad/attrs.h"
#include "lib/mad/engine.h"
#include "lib/testing/fake_transport.h"

namespace rdma::mad {
namespace {

// Every LID answers after `service` of virtual time, one MAD at a time,
// except the dead ones, whose requests are reported as timed out after the
// sender's timeout, and the damaged ones, whose replies carry another
// attribute (dropped as not answering the request). Records what is in
// flight to each LID. A MAD goes to the node `node` names (default: its
// DLID).
class ScheduleTransport : public Transport {
 public:
  using Ns = std::chrono::nanoseconds;
  std::map<uint16_t, int> in_flight, max_in_flight;
  std::vector<uint16_t> sent_to;
  std::vector<int> timeouts;  // as sent
  std::set<uint16_t> dead, damaged;
  // Whether the MAD sent to node id is lost on its way (then nothing comes
  // back: the sender's own timeout ends the try).
  std::function<bool(uint16_t id)> lose;
  Ns service = std::chrono::microseconds(100);
  // The attribute bytes a LID answers with (default: zeros).
  std::function<std::vector<uint8_t>(const Mad&)> attr = [](const Mad&) {
    return std::vector<uint8_t>(64);
  };
  std::function<uint16_t(const Mad&, const Address&)> node = [](const Mad&, const Address& to) {
    return to.lid;
  };

  void send(const Mad& m, const Address& to, int timeout_ms) override {
    uint16_t id = node(m, to);
    sent_to.push_back(id);
    timeouts.push_back(timeout_ms);
    int& n = in_flight[id];
    max_in_flight[id] = std::max(max_in_flight[id], ++n);
    Event ev{now_, seq_++, id, {}};
    if (lose && lose(id)) {
      --n;
      return;
    }
    if (dead.count(id)) {
      ev.at += std::chrono::milliseconds(timeout_ms);
      ev.r.bytes.assign(m.bytes.begin(), m.bytes.end());
      ev.r.status = 110;
    } else {
      Ns& busy = busy_[id];
      busy = std::max(busy, now_) + service;
      ev.at = busy;
      ev.r.bytes = reply_to(m, attr(m));
      ev.r.slid = to.lid;
      if (damaged.count(id)) ev.r.bytes[17] ^= 0x01;  // AttributeID's low byte
    }
    events_.push(std::move(ev));
  }
  std::optional<Received> receive(int timeout_ms) override {
    Ns limit = now_ + std::chrono::milliseconds(timeout_ms);
    if (events_.empty() || events_.top().at > limit) {
      now_ = limit;
      return std::nullopt;
    }
    Event ev = events_.top();
    events_.pop();
    now_ = std::max(now_, ev.at);
    --in_flight[ev.lid];
    return ev.r;
  }
  std::chrono::steady_clock::time_point now() const override {
    return std::chrono::steady_clock::time_point(now_);
  }
  Ns elapsed() const { return now_; }

 private:
  struct Event {
    Ns at;
    uint64_t seq;
    uint16_t lid;
    Received r;
    bool operator>(const Event& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };
  Ns now_{0};
  uint64_t seq_ = 0;
  std::map<uint16_t, Ns> busy_;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
};

// n NodeInfo Gets to each LID, submitted LID by LID; the LIDs whose
// queries ended (answered or not), in order.
std::vector<uint16_t> ask_lids(Engine& e, const std::vector<uint16_t>& lids, int n,
                               const AttrDef& a = kNodeInfo, uint8_t cls = kClassSmiLid) {
  auto done = std::make_shared<std::vector<uint16_t>>();
  for (uint16_t lid : lids)
    for (int i = 0; i < n; ++i) {
      Mad m =
          cls == kClassSmiLid ? make_smp({false, lid, {}}, kGet, a, 0) : make_gmp(cls, kGet, a, 0);
      Address to = cls == kClassSmiLid ? smp_address({false, lid, {}}) : Address{lid, 1, kGsiQkey};
      e.submit({m, to, "query", [done, lid](const Mad*, const Failure*) { done->push_back(lid); }});
    }
  e.run();
  return *done;
}

TEST(EngineSchedule, NeverMoreThanPerNodeInFlightToOneNode) {
  ScheduleTransport t;
  Engine e(t, {.timeout_ms = 1000, .retries = 0, .window = 16, .per_node = 2});
  std::vector<uint16_t> lids{1, 2, 3, 4, 5};
  ask_lids(e, lids, 20);
  for (uint16_t lid : lids) EXPECT_EQ(t.max_in_flight[lid], 2) << "lid " << lid;
  EXPECT_EQ(e.stats().answered, 100u);
  // Five nodes, each busy all the time: 20 x 100 us, not 100 x 100 us.
  EXPECT_LE(t.elapsed(), std::chrono::microseconds(20 * 100 + 100));
}

// NodeInfo probes of unknown nodes behind ports 1..20 of the switches at
// dr 0,1 and dr 0,2 (Query::unknown_end). Every port of the first leads to
// node 100 (parallel links to one spine), every port of the second to 200.
std::vector<uint16_t> probe_behind_ports(Engine& e, ScheduleTransport& t, bool unknown_end) {
  t.node = [](const Mad& m, const Address&) {
    return static_cast<uint16_t>(100 * get_bits(m.bytes, hdr::kInitialPath.bit + 8, 8));
  };
  auto done = std::make_shared<std::vector<uint16_t>>();
  for (uint8_t first : {1, 2})
    for (uint8_t port = 1; port <= 20; ++port) {
      Route r{true, 0, {first, port}};
      Query q{make_smp(r, kGet, kNodeInfo, 0), smp_address(r), "probe",
              [done, first](const Mad* m, const Failure*) {
                if (m) done->push_back(first);
              }};
      q.unknown_end = unknown_end;
      e.submit(std::move(q));
    }
  e.run();
  return *done;
}

TEST(EngineSchedule, ProbesBehindOneNodeNeverPassPerNode) {
  ScheduleTransport t;
  Engine e(t, {.timeout_ms = 1000, .retries = 0, .window = 64, .per_node = 2});
  EXPECT_EQ(probe_behind_ports(e, t, true).size(), 40u);
  // Never more than per_node at the node the ports lead to, whichever it is.
  EXPECT_EQ(t.max_in_flight[100], 2);
  EXPECT_EQ(t.max_in_flight[200], 2);
  // The two port groups in parallel: 20 x 100 us, not 40.
  EXPECT_LE(t.elapsed(), std::chrono::microseconds(20 * 100 + 100));
  // -d's busiest counts a probe at its route's end, not at its group.
  EXPECT_EQ(e.stats().busiest_sent, 1u);
  EXPECT_EQ(e.stats().busiest.rfind("dr 0,", 0), 0u) << e.stats().busiest;
}

// A probe's route end is counted without a Dest of its own until a query
// goes there as to a known node: its count then goes on from the probes'.
TEST(EngineSchedule, BusiestCountsAProbesRouteOnWithTheNodeItFound) {
  ScheduleTransport t;
  Engine e(t, {.timeout_ms = 1000, .retries = 0, .window = 8, .per_node = 2});
  auto ask = [&e](std::vector<uint8_t> path, bool probe) {
    Route r{true, 0, std::move(path)};
    Query q{make_smp(r, kGet, kNodeInfo, 0), smp_address(r), "query", nullptr};
    q.unknown_end = probe;
    e.submit(std::move(q));
  };
  for (uint8_t port : {1, 2, 3}) ask({1, port}, true);
  e.run();
  EXPECT_EQ(e.stats().busiest_sent, 1u);
  ask({1, 2}, false);
  ask({1, 2}, false);
  e.run();
  EXPECT_EQ(e.stats().busiest, "dr 0,1,2");
  EXPECT_EQ(e.stats().busiest_sent, 3u);
  // A route too long to pack in 64 bits (8 hops) is counted the same.
  std::vector<uint8_t> far{1, 2, 3, 4, 5, 6, 7, 8};
  ask(far, true);
  e.run();
  for (int i = 0; i < 3; ++i) ask(far, false);
  e.run();
  EXPECT_EQ(e.stats().busiest, "dr 0,1,2,3,4,5,6,7,8");
  EXPECT_EQ(e.stats().busiest_sent, 4u);
}

TEST(EngineSchedule, WithoutTheMarkEachProbeRouteIsItsOwnNode) {
  ScheduleTransport t;
  Engine e(t, {.timeout_ms = 1000, .retries = 0, .window = 64, .per_node = 2});
  EXPECT_EQ(probe_behind_ports(e, t, false).size(), 40u);
  EXPECT_EQ(t.max_in_flight[100], 20);  // what the mark prevents
}

TEST(EngineSchedule, RunUntilStopsWithTheRestStillQueued) {
  ScheduleTransport t;
  Engine e(t, {.timeout_ms = 1000, .retries = 0, .window = 4, .per_node = 1});
  int answered = 0;
  for (int i = 0; i < 10; ++i)
    e.submit({make_smp({false, 3, {}}, kGet, kNodeInfo, 0), smp_address({false, 3, {}}), "query",
              [&answered](const Mad* m, const Failure*) { answered += m != nullptr; }});
  e.run([&answered] { return answered == 3; });
  EXPECT_EQ(answered, 3);
  e.run();
  EXPECT_EQ(answered, 10);
  EXPECT_EQ(e.stats().sent, 10u);
}

TEST(EngineSchedule, OneNodeAtATimeWhenPerNodeIsOne) {
  ScheduleTransport t;
  Engine e(t, {.timeout_ms = 1000, .retries = 0, .window = 8, .per_node = 1});
  ask_lids(e, {7}, 10);
  EXPECT_EQ(t.max_in_flight[7], 1);
  EXPECT_EQ(e.stats().busiest, "lid 7");
  EXPECT_EQ(e.stats().busiest_sent, 10u);
}

TEST(EngineSchedule, QueriesOfDifferentNodesInterleave) {
  ScheduleTransport t;
  Engine e(t, {.timeout_ms = 1000, .retries = 0, .window = 3, .per_node = 1});
  ask_lids(e, {1, 2, 3}, 3);  // submitted 1 1 1 2 2 2 3 3 3
  EXPECT_EQ(t.sent_to, (std::vector<uint16_t>{1, 2, 3, 1, 2, 3, 1, 2, 3}));
}

TEST(EngineSchedule, PerNodeZeroKeepsTheSubmitOrder) {
  ScheduleTransport t;
  Engine e(t, {.timeout_ms = 1000, .retries = 0, .window = 3});
  ask_lids(e, {1, 2, 3}, 3);
  EXPECT_EQ(t.sent_to, (std::vector<uint16_t>{1, 1, 1, 2, 2, 2, 3, 3, 3}));
  EXPECT_EQ(t.max_in_flight[1], 3);
}

// A node that gets work while another holds one query in flight is served
// first: its first query before the busy node's second, so the window keeps
// as many nodes busy as it holds MADs.
TEST(EngineSchedule, AnIdleNodeGoesBeforeABusyNodesSecond) {
  ScheduleTransport t;
  Engine e(t, {.timeout_ms = 1000, .retries = 0, .window = 2, .per_node = 2});
  Route to1{false, 1, {}}, to2{false, 2, {}};
  bool asked2 = false;
  for (int i = 0; i < 4; ++i)
    e.submit({make_smp(to1, kGet, kNodeInfo, 0), smp_address(to1), "to 1",
              [&](const Mad*, const Failure*) {
                if (asked2) return;
                asked2 = true;  // the first answer asks node 2
                e.submit({make_smp(to2, kGet, kNodeInfo, 0), smp_address(to2), "to 2",
                          [](const Mad*, const Failure*) {}});
              }});
  e.run();
  // 1 1 (the window), then 2, not node 1's third.
  ASSERT_GE(t.sent_to.size(), 3u);
  EXPECT_EQ(t.sent_to[2], 2);
}

// A query its caller no longer wants when its turn comes is not sent; its
// done hears Withdrawn, which is no failure of the fabric.
TEST(EngineSchedule, AWithdrawnQueryIsNotSent) {
  ScheduleTransport t;
  Engine e(t, {.timeout_ms = 1000, .retries = 0, .window = 1, .per_node = 2});
  Route to{false, 3, {}};
  bool needed = true;
  std::vector<Failure::Kind> ended;
  for (int i = 0; i < 3; ++i) {
    Query q{make_smp(to, kGet, kNodeInfo, 0), smp_address(to), "query",
            [&](const Mad* m, const Failure* f) {
              if (m) needed = false;  // the first answer makes the others moot
              if (f) ended.push_back(f->kind);
            }};
    if (i) q.wanted = [&needed] { return needed; };
    e.submit(std::move(q));
  }
  e.run();
  EXPECT_EQ(t.sent_to.size(), 1u);
  EXPECT_EQ(ended,
            (std::vector<Failure::Kind>{Failure::Kind::Withdrawn, Failure::Kind::Withdrawn}));
  EXPECT_EQ(e.stats().withdrawn, 2u);
  EXPECT_EQ(e.stats().failed(), 0u);
}

// Probes behind one node (Query::behind) share its limit whichever route
// they take to it: discovery reaches a switch by its first route found and
// by its route in the waves.
TEST(EngineSchedule, ProbesBehindOneNodeShareItsLimitOnEveryRoute) {
  ScheduleTransport t;
  Engine e(t, {.timeout_ms = 1000, .retries = 0, .window = 64, .per_node = 2});
  t.node = [](const Mad& m, const Address&) {
    return static_cast<uint16_t>(get_bits(m.bytes, hdr::kInitialPath.bit + 16, 8));
  };
  int answered = 0;
  for (uint8_t first : {1, 2})  // two routes to the node, 10 ports each
    for (uint8_t port = 1; port <= 10; ++port) {
      Route r{true, 0, {first, port}};
      Query q{make_smp(r, kGet, kNodeInfo, 0), smp_address(r), "probe",
              [&answered](const Mad* m, const Failure*) { answered += m != nullptr; }};
      q.unknown_end = true;
      q.behind = 0x1234;
      e.submit(std::move(q));
    }
  e.run();
  EXPECT_EQ(answered, 20);
  // Each port's node served 2 probes, one at a time: together never more
  // than 2 in flight, so 10 rounds of 100 us at least, not 5.
  EXPECT_GE(t.elapsed(), std::chrono::microseconds(10 * 100));
  for (const auto& [node, most] : t.max_in_flight) EXPECT_LE(most, 2) << "node " << node;
}

// A probe behind a switch's port that times out (its peer is dead) leaves
// the switch's probe group limited: the other ports' probes still go 2 at a
// time into the spine that parallel links lead to.
TEST(EngineSchedule, ATimedOutProbeLeavesItsGroupLimited) {
  ScheduleTransport t;
  t.node = [](const Mad& m, const Address&) {
    auto port = get_bits(m.bytes, hdr::kInitialPath.bit + 16, 8);
    return static_cast<uint16_t>(port == 1 ? 1 : 100);  // port 1: a dead node; the rest: a spine
  };
  t.dead = {1};
  Engine e(t, {.timeout_ms = 10, .retries = 0, .window = 64, .per_node = 2});
  int answered = 0;
  for (uint8_t port = 1; port <= 13; ++port) {
    Route r{true, 0, {1, port}};
    Query q{make_smp(r, kGet, kNodeInfo, 0), smp_address(r), "probe",
            [&answered](const Mad* m, const Failure*) { answered += m != nullptr; }};
    q.unknown_end = true;
    e.submit(std::move(q));
  }
  e.run();
  EXPECT_EQ(answered, 12);
  EXPECT_EQ(e.stats().timeouts, 1u);
  EXPECT_LE(t.max_in_flight[100], 2);
}

TEST(EngineSchedule, ADeadNodeDoesNotHoldTheOthersBack) {
  ScheduleTransport t;
  t.dead = {1};
  Engine e(t, {.timeout_ms = 1000, .retries = 3, .window = 4, .per_node = 2, .give_up = kGiveUp});
  std::vector<uint16_t> done = ask_lids(e, {1, 2, 3}, 10);
  ASSERT_EQ(done.size(), 30u);
  // The live nodes' 20 queries end before the dead node's first timeout.
  EXPECT_TRUE(std::all_of(done.begin(), done.begin() + 20, [](uint16_t l) { return l != 1; }));
  EXPECT_EQ(e.stats().timeouts, 10u);
  // Its first two queries, in flight together, run out of their 4 tries:
  // 8 tries unanswered, two queries' worth, and the other 8 end unsent.
  // One query's time (4 tries of 1 s), not 10 x 4 s two at a time.
  EXPECT_LE(t.elapsed(), std::chrono::milliseconds(4 * 1000 + 1));
  EXPECT_EQ(std::count(t.sent_to.begin(), t.sent_to.end(), 1), 8);
  EXPECT_EQ(e.stats().given_up, 8u);
  EXPECT_EQ(e.stats().gave_up_on, std::vector<std::string>{"lid 1"});
  EXPECT_EQ(e.stats().given_up_text(), "gave up on 1 destination (lid 1): 8 queries not sent");
}

// The failures of the queries given up on: their kind, tries and message.
std::vector<Failure> fail_lid(Engine& e, uint16_t lid, int n) {
  auto failed = std::make_shared<std::vector<Failure>>();
  for (int i = 0; i < n; ++i) {
    Route r{false, lid, {}};
    e.submit({make_smp(r, kGet, kPortInfo, static_cast<uint32_t>(i)), smp_address(r),
              "PortInfo port " + std::to_string(i) + " from lid " + std::to_string(lid),
              [failed](const Mad*, const Failure* f) {
                if (f) failed->push_back(*f);
              }});
  }
  e.run();
  return *failed;
}

// Replies that never answer the request (damaged: dropped, the query waits
// for its own) cost the same tries as silence, and end the same way.
TEST(EngineSchedule, ANodeWhoseRepliesAreAllDamagedIsGivenUpOn) {
  ScheduleTransport t;
  t.damaged = {5};
  Engine e(t, {.timeout_ms = 1000, .retries = 3, .window = 256, .per_node = 2, .give_up = kGiveUp});
  std::vector<Failure> failed = fail_lid(e, 5, 39);  // a 36-port switch's sweep
  ASSERT_EQ(failed.size(), 39u);
  // The two in flight end as refused (the last damaged reply names why),
  // after every try; the rest unsent, at once.
  EXPECT_EQ(failed[0].kind, Failure::Kind::Malformed);
  EXPECT_EQ(failed[1].kind, Failure::Kind::Malformed);
  EXPECT_EQ(failed[2].kind, Failure::Kind::Timeout);
  EXPECT_EQ(failed[2].tries, 0);
  EXPECT_EQ(failed[38].message,
            "not sent: PortInfo port 38 from lid 5: gave up on lid 5 (8 tries in a row "
            "unanswered)");
  EXPECT_EQ(e.stats().dropped, 8u);
  EXPECT_LE(t.elapsed(), std::chrono::milliseconds(4 * 1000 + 1));  // not 20 x 4 s
}

// A node that loses a try now and then keeps its queries: one answered at
// its first try clears the count.
TEST(EngineSchedule, ANodeThatLosesSomeTriesIsNotGivenUpOn) {
  ScheduleTransport t;
  int sends = 0;
  t.lose = [&sends](uint16_t) { return ++sends % 4 == 0; };  // a quarter of the MADs
  Engine e(t, {.timeout_ms = 100, .retries = 3, .window = 256, .per_node = 2, .give_up = kGiveUp});
  EXPECT_TRUE(fail_lid(e, 5, 100).empty());
  EXPECT_EQ(e.stats().answered, 100u);
  EXPECT_GT(e.stats().retried, 20u);
  EXPECT_TRUE(e.stats().gave_up_on.empty());
}

// Probes behind one switch's ports (a probe group) may reach many nodes, so
// a group takes twice a node's allowance; meanwhile, and after, never more
// than per_node of them at the node that parallel links lead to.
TEST(EngineSchedule, AProbeGroupIsGivenUpOnAfterTwiceANodesTries) {
  ScheduleTransport t;
  // One spine behind every port, its replies all damaged (dropped as not
  // answering: it still serves each request, so what it holds shows).
  t.node = [](const Mad&, const Address&) { return uint16_t{100}; };
  t.damaged = {100};
  Engine e(t, {.timeout_ms = 1000, .retries = 3, .window = 256, .per_node = 2, .give_up = kGiveUp});
  auto failed = std::make_shared<std::vector<Failure>>();
  for (uint8_t port = 1; port <= 18; ++port) {
    Route r{true, 0, {1, port}};
    Query q{make_smp(r, kGet, kNodeInfo, 0), smp_address(r),
            "NodeInfo from dr 0,1," + std::to_string(port),
            [failed](const Mad*, const Failure* f) { failed->push_back(*f); }};
    q.unknown_end = true;
    q.behind = 0x1234;
    e.submit(std::move(q));
  }
  e.run();
  ASSERT_EQ(failed->size(), 18u);
  EXPECT_EQ(t.max_in_flight[100], 2);
  // Two rounds of two probes, 16 tries, then the other 14 unsent: 8 s, not
  // 9 x 4 s.
  EXPECT_EQ(t.sent_to.size(), 16u);
  EXPECT_LE(t.elapsed(), std::chrono::milliseconds(2 * 4 * 1000 + 10));
  EXPECT_EQ(failed->back().message,
            "not sent: NodeInfo from dr 0,1,18: gave up on the probes behind "
            "0x0000000000001234 (16 tries in a row unanswered)");
}

// Given up on for the rest of a run, not for good: once every query has
// ended, the next run (a watch's next sweep) sends to it again.
TEST(EngineSchedule, AGivenUpNodeIsAskedAgainByTheNextRun) {
  ScheduleTransport t;
  t.dead = {7};
  Engine e(t, {.timeout_ms = 10, .retries = 0, .window = 8, .per_node = 2, .give_up = kGiveUp});
  EXPECT_EQ(fail_lid(e, 7, 5).size(), 5u);
  EXPECT_EQ(t.sent_to.size(), 2u);  // 2 tries unanswered, 3 unsent
  t.dead.clear();
  EXPECT_TRUE(fail_lid(e, 7, 5).empty());
  EXPECT_EQ(t.sent_to.size(), 7u);
}

// Without give_up (bench's model of other tools) a dead node keeps its
// queries: per_node at a time, every try of each.
TEST(EngineSchedule, WithoutGiveUpEveryQueryIsSent) {
  ScheduleTransport t;
  t.dead = {7};
  Engine e(t, {.timeout_ms = 10, .retries = 1, .window = 8, .per_node = 2});
  EXPECT_EQ(fail_lid(e, 7, 6).size(), 6u);
  EXPECT_EQ(t.sent_to.size(), 12u);
  EXPECT_GE(t.elapsed(), std::chrono::milliseconds(3 * 2 * 10));  // 3 rounds of 2 tries
}

TEST(EngineSchedule, TheTimeoutIsWhatClassPortInfoSays) {
  ScheduleTransport t;
  // RespTimeValue 14: 4.096 us x 2^14 = 67.1 ms.
  t.attr = [](const Mad& m) {
    Mad r = m;
    if (m.get(hdr::kAttrId) == kClassPortInfo.id) r.set_attr(kClassPortInfo, "RespTimeValue", 14);
    return std::vector<uint8_t>(r.data().begin(), r.data().end());
  };
  Engine e(t, {.timeout_ms = 1000, .retries = 0, .window = 1});
  ask_lids(e, {4}, 1, kClassPortInfo, kClassPerf);
  ask_lids(e, {4, 5}, 1, kPortCounters, kClassPerf);
  EXPECT_EQ(t.timeouts, (std::vector<int>{1000, 68, 1000}));  // lid 5 said nothing
}

TEST(EngineSchedule, TheTimeoutIsWhatPortInfoSaysWithinTheBounds) {
  ScheduleTransport t;
  uint64_t subnet = 12, resp = 13;  // 16.8 ms + 33.6 ms
  t.attr = [&](const Mad& m) {
    Mad r = m;
    if (m.get(hdr::kAttrId) == kPortInfo.id) {
      r.set_attr(kPortInfo, "SubnetTimeOut", subnet);
      r.set_attr(kPortInfo, "RespTimeValue", resp);
    }
    return std::vector<uint8_t>(r.data().begin(), r.data().begin() + 64);
  };
  Engine e(t, {.timeout_ms = 1000, .retries = 0, .window = 1});
  ask_lids(e, {4}, 2, kPortInfo);
  subnet = 20;  // 4.3 s: no more than the configured timeout
  ask_lids(e, {4}, 2, kPortInfo);
  subnet = 0, resp = 0;  // 8 us: no less than min_timeout_ms
  ask_lids(e, {4}, 2, kPortInfo);
  EXPECT_EQ(t.timeouts, (std::vector<int>{1000, 51, 51, 1000, 1000, 50}));
}

}  // namespace
}  // namespace rdma::mad
