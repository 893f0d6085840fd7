// rdma monitor: events in text and JSON lines, the dev filter, kernels
// without monitor support, malformed events and bad arguments.
#include <gtest/gtest.h>
#include <libmnl/libmnl.h>

#include <regex>
#include <string>
#include <vector>

#include "lib/nl/nldev.h"
#include "lib/testing/kernel/fixture.h"
#include "lib/testing/kernel/testkernel.h"
#include "rdma/test_util.h"

namespace rdma {
namespace {

using test::Result;
using test::run_on;
using testkernel::KernelVersion;
using testkernel::TestKernel;

std::vector<uint8_t> event(uint8_t type, uint32_t index, const char* name) {
  std::vector<uint8_t> buf(512);
  nlmsghdr* nlh = mnl_nlmsg_put_header(buf.data());
  nlh->nlmsg_type = nldev::msg_type(nldev::kCmdMonitor);
  mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, index);
  mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, name);
  mnl_attr_put_u8(nlh, nldev::kAttrEventType, type);
  buf.resize(nlh->nlmsg_len);
  return buf;
}

TEST(Monitor, EventsInTextAndJsonLines) {
  for (bool json : {false, true}) {
    TestKernel k;
    auto on_join = [&] {
      testkernel::Netdev nd{7, "veth7"};
      k.register_device(testkernel::make_rxe(KernelVersion::k6_12, "rxe2", nd));
      k.unregister_device(2);
    };
    std::vector<std::string> args = {"-c", "3", "monitor"};
    if (json) args.insert(args.begin(), "-j");
    Result r = run_on(k, args, {}, on_join);
    EXPECT_EQ(r.status, 0) << r.err;
    if (!json)
      EXPECT_EQ(r.out,
                "[REGISTER]\tdev 2 rxe2\n"
                "[NETDEV_ATTACH]\tdev 2 rxe2 port 1 netdev 7 veth7\n"
                "[UNREGISTER]\tdev 2 rxe2\n");
    else
      EXPECT_EQ(r.out,
                "{\"event_type\":\"[REGISTER]\",\"rdma_index\":2,\"rdma_dev\":\"rxe2\"}\n"
                "{\"event_type\":\"[NETDEV_ATTACH]\",\"rdma_index\":2,\"rdma_dev\":\"rxe2\","
                "\"port\":1,\"netdev_idx\":7,\"netdev_name\":\"veth7\"}\n"
                "{\"event_type\":\"[UNREGISTER]\",\"rdma_index\":2,\"rdma_dev\":\"rxe2\"}\n");
  }
}

// -t: the local time in text, before the event; seconds since the epoch as
// "timestamp", the first member, in JSON.
TEST(Monitor, Timestamps) {
  for (bool json : {false, true}) {
    TestKernel k;
    auto on_join = [&] { k.inject(event(nldev::kEventRename, 0, "fast0")); };
    std::vector<std::string> args = {"-t", "-c", "1", "monitor"};
    if (json) args.insert(args.begin(), "-j");
    Result r = run_on(k, args, {}, on_join);
    EXPECT_EQ(r.status, 0) << r.err;
    if (!json)
      EXPECT_TRUE(std::regex_match(
          r.out,
          std::regex(R"(\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\] \[RENAME\]\tdev 0 fast0\n)")))
          << r.out;
    else
      EXPECT_TRUE(std::regex_match(
          r.out,
          std::regex(
              R"(\{"timestamp":\d+(\.\d+)?(e\+\d+)?,"event_type":"\[RENAME\]","rdma_index":0,)"
              R"("rdma_dev":"fast0"\}\n)")))
          << r.out;
  }
}

TEST(Monitor, RenameEventsUnknownTypesAndDevFilter) {
  TestKernel k;
  auto on_join = [&] {
    k.inject(event(nldev::kEventRename, 0, "fast0"));  // rxe0 renamed: still rxe0's events
    k.inject(event(nldev::kEventRegister, 5, "other"));
    k.inject(event(0x2a, 0, "fast0"));
    k.inject(event(nldev::kEventNetdevRename, 0, "fast0"));
  };
  Result r = run_on(k, {"-c", "3", "monitor", "dev", "rxe0"}, {}, on_join);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "[RENAME]\tdev 0 fast0\n[UNKNOWN 0x2a]\tdev 0 fast0\n[NETDEV_RENAME]\tdev 0 fast0\n");
}

TEST(Monitor, KernelWithoutMonitorSupport) {
  TestKernel k(KernelVersion::k6_1);
  Result r = run_on(k, {"monitor"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "RDMA monitoring is not supported by this kernel (it needs Linux 6.12 or newer)\n");
  r = run_on(k, {"-j", "monitor"});
  EXPECT_EQ(r.out, "[]\n");
}

TEST(Monitor, MalformedEventAndBadArguments) {
  TestKernel k;
  auto on_join = [&] {
    std::vector<uint8_t> buf(64);
    nlmsghdr* nlh = mnl_nlmsg_put_header(buf.data());
    nlh->nlmsg_type = nldev::msg_type(nldev::kCmdMonitor);
    mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 0);
    buf.resize(nlh->nlmsg_len);
    k.inject(buf);
  };
  Result r = run_on(k, {"monitor"}, {}, on_join);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "malformed kernel notification: monitor event without an event type\n");
  EXPECT_EQ(run_on(k, {"monitor", "bogus"}).status, 1);
  EXPECT_EQ(run_on(k, {"monitor", "dev"}).err, "missing device name after \"dev\"\n");
}

}  // namespace
}  // namespace rdma
