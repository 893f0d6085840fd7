#include "lib/mad/engine.h"

#include <gtest/gtest.h>

#include <chrono>
#include <deque>
#include <functional>

#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/testing/fake_transport.h"

namespace rdma::mad {
namespace {

std::vector<uint8_t> node_info_of(uint8_t ports) {
  std::vector<uint8_t> a(40);
  a[0] = 1;
  a[1] = 1;
  a[2] = 1;
  a[3] = ports;
  return a;
}

TEST(Engine, OutOfOrderRepliesMatchTheirRequests) {
  std::vector<Mad> sent;
  std::deque<std::vector<uint8_t>> replies;
  class Held : public Transport {
   public:
    std::vector<Mad>* sent;
    std::deque<std::vector<uint8_t>>* replies;
    void send(const Mad& m, const Address&, int) override { sent->push_back(m); }
    std::optional<Received> receive(int) override {
      if (sent->size() == 3 && replies->empty())  // all in flight: answer last first
        for (int i = 2; i >= 0; --i)
          replies->push_back(reply_to((*sent)[i], node_info_of(static_cast<uint8_t>(10 + i))));
      if (replies->empty()) return std::nullopt;
      Received r{replies->front()};
      replies->pop_front();
      return r;
    }
  } t;
  t.sent = &sent;
  t.replies = &replies;
  Engine e(t, {.timeout_ms = 1000, .retries = 0, .window = 3});
  std::vector<int> got(3, -1);
  for (int i = 0; i < 3; ++i)
    e.submit({make_smp({false, 1, {}}, kGet, kNodeInfo, 0), smp_address({false, 1, {}}), "NodeInfo",
              [&, i](const Mad* r, const Failure* f) {
                ASSERT_TRUE(r) << f->message;
                got[i] = r->bytes[64 + 3];
              }});
  e.run();
  EXPECT_EQ(got, (std::vector<int>{10, 11, 12}));
}

TEST(Engine, KeepsTheWindowBounded) {
  size_t in_flight = 0, max_in_flight = 0;
  std::deque<std::vector<uint8_t>> replies;
  class Slow : public Transport {
   public:
    size_t* in_flight;
    size_t* max;
    std::deque<std::vector<uint8_t>>* replies;
    void send(const Mad& m, const Address&, int) override {
      *max = std::max(*max, ++*in_flight);
      replies->push_back(reply_to(m, std::vector<uint8_t>(40)));
    }
    std::optional<Received> receive(int) override {
      if (replies->empty()) return std::nullopt;
      --*in_flight;
      Received r{replies->front()};
      replies->pop_front();
      return r;
    }
  } t;
  t.in_flight = &in_flight;
  t.max = &max_in_flight;
  t.replies = &replies;
  Engine e(t, {.timeout_ms = 1000, .retries = 0, .window = 2});
  int done = 0;
  for (int i = 0; i < 10; ++i)
    e.submit({make_smp({false, 1, {}}, kGet, kNodeInfo, 0), smp_address({false, 1, {}}), "x",
              [&](const Mad* r, const Failure*) {
                EXPECT_TRUE(r);
                ++done;
              }});
  e.run();
  EXPECT_EQ(done, 10);
  EXPECT_LE(max_in_flight, 2u);
}

TEST(Engine, RetriesThenTimesOutWithAClearError) {
  FakeTransport t([](const Mad&, const Address&) { return std::nullopt; });
  Engine e(t, {.timeout_ms = 5, .retries = 2, .window = 8});
  Route r{false, 77, {}};
  try {
    e.call(make_smp(r, kGet, kNodeInfo, 0), smp_address(r), "NodeInfo from lid 77");
    FAIL() << "no error";
  } catch (const MadError& err) {
    EXPECT_STREQ(err.what(), "no reply to NodeInfo from lid 77 (3 tries of 5 ms)");
    EXPECT_EQ(err.failure.kind, Failure::Kind::Timeout);
    EXPECT_EQ(err.failure.tries, 3);
    EXPECT_FALSE(err.failure.returned);  // waited for
  }
  ASSERT_EQ(t.sent.size(), 3u);
  EXPECT_EQ(e.stats().sent, 3u);
  // Without retries: one try, in the singular.
  Engine once(t, {.timeout_ms = 5, .retries = 0, .window = 8});
  try {
    once.call(make_smp(r, kGet, kNodeInfo, 0), smp_address(r), "NodeInfo from lid 77");
    FAIL() << "no error";
  } catch (const MadError& err) {
    EXPECT_STREQ(err.what(), "no reply to NodeInfo from lid 77 (1 try of 5 ms)");
  }
  EXPECT_EQ(e.stats().retried, 2u);
  EXPECT_EQ(e.stats().timeouts, 1u);
  // Every try is the same request under its own TID.
  EXPECT_NE(t.sent[0].get(hdr::kTid), t.sent[1].get(hdr::kTid));
  Mad a = t.sent[0], b = t.sent[2];
  a.set(hdr::kTid, 0);
  b.set(hdr::kTid, 0);
  EXPECT_EQ(a.bytes, b.bytes);
}

// A query may ask once in an engine that retries (a question with a
// fallback, like a PMA's PortXmitWait tick); the others keep its retries.
TEST(Engine, AQueryMayAskOnceWhereTheEngineRetries) {
  FakeTransport t([](const Mad&, const Address&) { return std::nullopt; });
  Engine e(t, {.timeout_ms = 5, .retries = 3, .window = 8});
  Route r{false, 77, {}};
  std::vector<int> tries;
  for (int retries : {0, -1}) {
    Query q{make_smp(r, kGet, kNodeInfo, 0), smp_address(r), "NodeInfo from lid 77",
            [&](const Mad* reply, const Failure* f) {
              EXPECT_FALSE(reply);
              tries.push_back(f->tries);
            }};
    q.retries = retries;
    e.submit(std::move(q));
  }
  e.run();
  EXPECT_EQ(tries, (std::vector<int>{1, 4}));
  EXPECT_EQ(t.sent.size(), 5u);
  EXPECT_EQ(e.stats().retried, 3u);
}

TEST(Engine, ALateReplyToAnEarlierTryAnswers) {
  std::vector<Mad> sent;
  class Late : public Transport {
   public:
    std::vector<Mad>* sent;
    void send(const Mad& m, const Address&, int) override { sent->push_back(m); }
    std::optional<Received> receive(int) override {
      if (sent->size() < 2) return std::nullopt;  // answer the first try during the second
      if (answered) return std::nullopt;
      answered = true;
      return Received{reply_to((*sent)[0], std::vector<uint8_t>(40, 1))};
    }
    bool answered = false;
  } t;
  t.sent = &sent;
  Engine e(t, {.timeout_ms = 5, .retries = 3, .window = 1});
  Route r{false, 3, {}};
  EXPECT_NO_THROW(e.call(make_smp(r, kGet, kNodeInfo, 0), smp_address(r), "NodeInfo"));
  EXPECT_EQ(sent.size(), 2u);
}

TEST(Engine, AFailureReportForAnOldTryDoesNotCutTheCurrentOneShort) {
  std::vector<Mad> sent;
  class Reports : public Transport {
   public:
    std::vector<Mad>* sent;
    void send(const Mad& m, const Address&, int) override { sent->push_back(m); }
    std::optional<Received> receive(int) override {
      if (sent->size() == 2 && !reported) {  // the kernel's timeout of try 1, late
        reported = true;
        return Received{{(*sent)[0].bytes.begin(), (*sent)[0].bytes.end()}, 110, 0};
      }
      if (sent->size() == 2 && !answered) {
        answered = true;
        return Received{reply_to((*sent)[1], std::vector<uint8_t>(40, 1))};
      }
      return std::nullopt;
    }
    bool reported = false, answered = false;
  } t;
  t.sent = &sent;
  Engine e(t, {.timeout_ms = 5, .retries = 1, .window = 1});
  Route r{false, 3, {}};
  EXPECT_NO_THROW(e.call(make_smp(r, kGet, kNodeInfo, 0), smp_address(r), "NodeInfo"));
  EXPECT_EQ(sent.size(), 2u);
}

TEST(Engine, AFailureReportEndsTheCurrentTryEarly) {
  class Unreachable : public Transport {
   public:
    int sends = 0;
    std::deque<Received> q;
    void send(const Mad& m, const Address&, int) override {
      ++sends;
      q.push_back(Received{{m.bytes.begin(), m.bytes.end()}, 110, 0});
    }
    std::optional<Received> receive(int) override {
      if (q.empty()) return std::nullopt;
      Received r = q.front();
      q.pop_front();
      return r;
    }
  } t;
  Engine e(t, {.timeout_ms = 60000, .retries = 2, .window = 1});
  Route r{false, 3, {}};
  auto start = std::chrono::steady_clock::now();
  try {
    e.call(make_smp(r, kGet, kNodeInfo, 0), smp_address(r), "NodeInfo");
    FAIL() << "no error";
  } catch (const MadError& err) {
    // Said as it happened: refused at once, not 3 waits of 60 s.
    EXPECT_STREQ(err.what(),
                 "no reply to NodeInfo (3 tries, each given back at once by the local port: "
                 "Connection timed out)");
    EXPECT_TRUE(err.failure.returned);
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_EQ(t.sends, 3);
}

TEST(Engine, AnswersAfterARetry) {
  int n = 0;
  FakeTransport t([&](const Mad& m, const Address&) -> std::optional<std::vector<uint8_t>> {
    if (++n < 2) return std::nullopt;  // the first try is lost
    return reply_to(m, node_info_of(8));
  });
  Engine e(t, {.timeout_ms = 5, .retries = 3, .window = 8});
  Route r{false, 3, {}};
  Mad m = e.call(make_smp(r, kGet, kNodeInfo, 0), smp_address(r), "NodeInfo");
  EXPECT_EQ(m.get_attr(kNodeInfo, "NumPorts"), 8u);
  EXPECT_EQ(t.sent.size(), 2u);
}

TEST(Engine, IgnoresForeignAndTruncatedReplies) {
  FakeTransport t([&](const Mad& m, const Address&) -> std::optional<std::vector<uint8_t>> {
    return std::vector<uint8_t>(m.bytes.begin(), m.bytes.begin() + 10);  // truncated
  });
  Engine e(t, {.timeout_ms = 5, .retries = 0, .window = 8});
  Route r{false, 3, {}};
  EXPECT_THROW(e.call(make_smp(r, kGet, kNodeInfo, 0), smp_address(r), "NodeInfo"), Error);
}

TEST(Engine, ShortReplyWithItsTidIsAnError) {
  FakeTransport t([&](const Mad& m, const Address&) -> std::optional<std::vector<uint8_t>> {
    std::vector<uint8_t> r = reply_to(m, node_info_of(2));
    r.resize(100);
    return r;
  });
  Engine e(t, {.timeout_ms = 50, .retries = 0, .window = 8});
  Route r{false, 3, {}};
  try {
    e.call(make_smp(r, kGet, kNodeInfo, 0), smp_address(r), "NodeInfo from lid 3");
    FAIL();
  } catch (const MadError& err) {
    EXPECT_STREQ(err.what(), "malformed reply to NodeInfo from lid 3: 100 bytes, need 104");
    EXPECT_EQ(err.failure.kind, Failure::Kind::Malformed);
  }
  EXPECT_EQ(e.stats().malformed, 1u);
}

// A reply is checked where it arrives, so a query submitted with a callback
// gets the same structured failure as call(): here an unsupported attribute,
// which callers tell from other statuses without reading the message.
TEST(Engine, StatusFailureIsStructured) {
  FakeTransport t([&](const Mad& m, const Address&) -> std::optional<std::vector<uint8_t>> {
    return reply_to(m, {}, 0x000c);  // method/attribute combination not supported
  });
  Engine e(t, {.timeout_ms = 50, .retries = 3, .window = 8});
  Route r{false, 3, {}};
  std::optional<Failure> got;
  e.submit({make_smp(r, kGet, kNodeInfo, 0), smp_address(r), "NodeInfo from lid 3",
            [&](const Mad* reply, const Failure* f) {
              EXPECT_FALSE(reply);
              if (f) got = *f;
            }});
  e.run();
  ASSERT_TRUE(got);
  EXPECT_EQ(got->kind, Failure::Kind::Status);
  EXPECT_EQ(got->status, 0x000c);
  EXPECT_TRUE(got->unsupported());
  EXPECT_EQ(got->message,
            "NodeInfo from lid 3 failed: status 0x000c (method/attribute combination not "
            "supported)");
  EXPECT_EQ(t.sent.size(), 1u);  // an answer, not retried
  EXPECT_EQ(e.stats().status_errors, 1u);
}

TEST(Engine, ReplyForAnotherAttributeIsMalformed) {
  FakeTransport t([&](const Mad& m, const Address&) -> std::optional<std::vector<uint8_t>> {
    Mad other = m;
    other.set(hdr::kAttrId, kPortInfo.id);
    return reply_to(other, node_info_of(2));
  });
  Engine e(t, {.timeout_ms = 50, .retries = 0, .window = 8});
  Route r{false, 3, {}};
  try {
    e.call(make_smp(r, kGet, kNodeInfo, 0), smp_address(r), "NodeInfo from lid 3");
    FAIL();
  } catch (const MadError& err) {
    EXPECT_EQ(err.failure.kind, Failure::Kind::Malformed);
    EXPECT_STREQ(err.what(), "malformed reply to NodeInfo from lid 3: attribute PortInfo");
  }
}

// A transport that holds the first replies until `hold` requests are in
// flight and then delivers them with their TIDs rotated (each carries the
// next request's TID), as a fabric that moves TIDs; later requests (the
// retries) are answered honestly, each reply delivered twice.
class MovedTids : public Transport {
 public:
  using Answer = std::function<Received(const Mad&, const Address&)>;
  MovedTids(size_t hold, Answer a) : hold_(hold), answer_(std::move(a)) {}
  void send(const Mad& m, const Address& to, int) override {
    ++sent;
    Received r = answer_(m, to);
    if (held_.size() < hold_ && !released_) {
      held_.push_back(r);
      if (held_.size() == hold_) {
        released_ = true;
        for (size_t i = 0; i < held_.size(); ++i) {
          Received moved = held_[i];
          const Received& next = held_[(i + 1) % held_.size()];
          std::copy_n(next.bytes.begin() + 8, 8, moved.bytes.begin() + 8);  // the TID
          queue_.push_back(moved);
        }
      }
      return;
    }
    queue_.push_back(r);
    queue_.push_back(r);  // and a duplicate
  }
  std::optional<Received> receive(int) override {
    if (queue_.empty()) return std::nullopt;
    Received r = queue_.front();
    queue_.pop_front();
    return r;
  }
  size_t sent = 0;

 private:
  size_t hold_;
  Answer answer_;
  bool released_ = false;
  std::vector<Received> held_;
  std::deque<Received> queue_;
};

// A DR SMP's answer: the node at the end of path {p} has 10 + p ports.
Received dr_answer(const Mad& m, const Address&) {
  uint8_t p = m.bytes[hdr::kInitialPath.bit / 8 + 1];
  return {reply_to(m, node_info_of(static_cast<uint8_t>(10 + p)))};
}

TEST(Engine, ARepliesTidMovedToAnotherQueryIsDroppedAndTheTrueReplyAwaited) {
  MovedTids t(3, dr_answer);
  Engine e(t, {.timeout_ms = 20, .retries = 2, .window = 3});
  std::vector<int> got(3, -1);
  for (uint8_t p = 1; p <= 3; ++p) {
    Route r{true, 0, {p}};
    e.submit({make_smp(r, kGet, kNodeInfo, 0), smp_address(r), "NodeInfo",
              [&, p](const Mad* reply, const Failure* f) {
                ASSERT_TRUE(reply) << f->message;
                got[p - 1] = reply->bytes[64 + 3];
              }});
  }
  e.run();
  // Each took the answer to its own path, not the first with its TID.
  EXPECT_EQ(got, (std::vector<int>{11, 12, 13}));
  EXPECT_EQ(e.stats().dropped, 3u);
  EXPECT_EQ(e.stats().dropped_by.at("path"), 3u);
  EXPECT_EQ(e.stats().retried, 3u);
  // The duplicates of the retries' replies, but the last: run() ends with
  // the last query, before reading it.
  EXPECT_EQ(e.stats().stray, 2u);
  EXPECT_EQ(e.stats().dropped_text(),
            "dropped 3 replies not matching their request (path 3), 2 stray");
}

TEST(Engine, ALidRoutedReplyFromAnotherLidIsDropped) {
  MovedTids t(2, [](const Mad& m, const Address& to) {
    Received r{reply_to(m, node_info_of(static_cast<uint8_t>(to.lid)))};
    r.slid = to.lid;
    return r;
  });
  Engine e(t, {.timeout_ms = 20, .retries = 1, .window = 2});
  std::vector<int> got(2, -1);
  for (uint16_t lid = 2; lid <= 3; ++lid) {
    Route r{false, lid, {}};
    e.submit({make_smp(r, kGet, kNodeInfo, 0), smp_address(r), "NodeInfo",
              [&, lid](const Mad* reply, const Failure* f) {
                ASSERT_TRUE(reply) << f->message;
                got[lid - 2] = reply->bytes[64 + 3];
              }});
  }
  e.run();
  EXPECT_EQ(got, (std::vector<int>{2, 3}));
  EXPECT_EQ(e.stats().dropped_by.at("source LID"), 2u);
}

// Every field the request fixed: a reply that differs in any is not its
// answer.
TEST(Engine, RepliesDifferingInWhatTheRequestFixedAreRefused) {
  struct Case {
    const char* field;
    std::function<void(Mad&)> spoil;
  } cases[] = {
      {"class version", [](Mad& m) { m.set(hdr::kClassVersion, 2); }},
      {"attribute modifier", [](Mad& m) { m.set(hdr::kAttrMod, 5); }},
      {"direction", [](Mad& m) { m.set(hdr::kDirection, 0); }},
      {"hop count", [](Mad& m) { m.set(hdr::kHopCount, 1); }},
      {"path", [](Mad& m) { m.bytes[hdr::kInitialPath.bit / 8 + 2] = 9; }},
      {"path", [](Mad& m) { m.set(hdr::kDrSlid, 4); }},
  };
  for (const Case& c : cases) {
    FakeTransport t([&](const Mad& m, const Address&) -> std::optional<std::vector<uint8_t>> {
      Mad r;
      std::vector<uint8_t> b = reply_to(m, node_info_of(2));
      std::copy(b.begin(), b.end(), r.bytes.begin());
      c.spoil(r);
      return std::vector<uint8_t>(r.bytes.begin(), r.bytes.end());
    });
    Engine e(t, {.timeout_ms = 5, .retries = 1, .window = 8});
    Route r{true, 0, {1, 2}};
    try {
      e.call(make_smp(r, kGet, kNodeInfo, 0), smp_address(r), "NodeInfo");
      ADD_FAILURE() << c.field;
    } catch (const MadError& err) {
      EXPECT_EQ(err.failure.kind, Failure::Kind::Malformed) << c.field;
      EXPECT_EQ(err.failure.tries, 2) << c.field;  // waited for the true reply, retried
      EXPECT_EQ(std::string(err.failure.field), c.field) << err.what();
    }
    EXPECT_EQ(e.stats().dropped, 2u) << c.field;
    EXPECT_EQ(e.stats().malformed, 1u) << c.field;
  }
}

}  // namespace
}  // namespace rdma::mad
