// EngineConfig::deadline (--deadline): the run stops sending when it is
// reached and every query not answered yet ends as a Timeout.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "lib/mad/attrs.h"
#include "lib/mad/engine.h"
#include "lib/testing/fake_transport.h"

namespace rdma::mad {
namespace {

TEST(EngineDeadline, ASilentTargetEndsAtTheDeadlineNotAfterEveryTry) {
  FakeTransport t([](const Mad&, const Address&) { return std::nullopt; });
  auto start = std::chrono::steady_clock::now();
  EngineConfig c{.timeout_ms = 1000, .retries = 3, .window = 2};
  c.deadline = start + std::chrono::milliseconds(50);
  Engine e(t, c);
  std::vector<std::string> failures;
  Route r{false, 77, {}};
  for (int i = 0; i < 5; ++i)
    e.submit({make_smp(r, kGet, kNodeInfo, 0), smp_address(r), "NodeInfo " + std::to_string(i),
              [&](const Mad* reply, const Failure* f) {
                ASSERT_FALSE(reply);
                EXPECT_EQ(f->kind, Failure::Kind::Timeout);
                failures.push_back(f->message);
              }});
  e.run();
  auto took = std::chrono::steady_clock::now() - start;
  EXPECT_GE(took, std::chrono::milliseconds(50));
  EXPECT_LT(took, std::chrono::milliseconds(900));  // not one 1 s try, let alone 4
  EXPECT_TRUE(e.stats().deadline_reached);
  EXPECT_EQ(t.sent.size(), 2u);  // the window's two; the other three never sent
  ASSERT_EQ(failures.size(), 5u);
  EXPECT_EQ(failures[0], "deadline reached: no reply to NodeInfo 0");
  EXPECT_EQ(failures[4], "deadline reached: not sent: NodeInfo 4");
  // Past the deadline nothing more is sent.
  bool ended = false;
  e.submit({make_smp(r, kGet, kNodeInfo, 0), smp_address(r), "NodeInfo late",
            [&](const Mad*, const Failure* f) { ended = f != nullptr; }});
  e.run();
  EXPECT_TRUE(ended);
  EXPECT_EQ(t.sent.size(), 2u);
}

TEST(EngineDeadline, NoDeadlineNoCap) {
  FakeTransport t([](const Mad&, const Address&) { return std::nullopt; });
  Engine e(t, {.timeout_ms = 1, .retries = 1, .window = 2});
  Route r{false, 77, {}};
  EXPECT_THROW(e.call(make_smp(r, kGet, kNodeInfo, 0), smp_address(r), "NodeInfo"), MadError);
  EXPECT_FALSE(e.stats().deadline_reached);
  EXPECT_EQ(t.sent.size(), 2u);
}

}  // namespace
}  // namespace rdma::mad
