// rdma monitor: events in text and JSON lines, the dev filter, kernels
// without monitor support, malformed events and bad arguments.
#include <gtest/gtest.h>
#include <libmnl/libmnl.h>

#include <map>
#include <regex>
#include <string>
#include <vector>

#include "lib/nl/nldev.h"
#include "lib/testing/fake_verbs.h"
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

// "ports": verbs async events of each device (from the fake verbs: the VM
// test flaps a real rxe port) beside the netlink events, in the same layout.
struct MonitorPorts : ::testing::Test {
  TestKernel k;  // 6.12: rxe0, rxe1
  std::map<std::string, verbs::FakeDeviceSpec> devs{{"rxe0", {}}, {"rxe1", {}}};
  std::vector<std::string> opened;
  Result run(std::vector<std::string> args) {
    auto on_join = [&] { k.inject(event(nldev::kEventRename, 0, "fast0")); };
    return test::run_program(
        std::move(args),
        [&]() -> std::unique_ptr<nl::Transport> {
          return std::make_unique<test::Hooked>(k, nullptr, on_join);
        },
        "",
        [&]() -> std::unique_ptr<verbs::Verbs> {
          return std::make_unique<verbs::FakeVerbs>(devs, &opened);
        });
  }
};

TEST_F(MonitorPorts, PortEventsBesideNetlinkEvents) {
  devs["rxe0"].async_events = {{IBV_EVENT_PORT_ERR, 1}, {IBV_EVENT_PORT_ACTIVE, 1}};
  devs["rxe1"].async_events = {
      {IBV_EVENT_GID_CHANGE, 1}, {verbs::kEventDeviceSpeedChange, 1}, {IBV_EVENT_DEVICE_FATAL, 0}};
  devs["rxe1"].port_speeds[1] = 4000;
  Result r = run({"-c", "6", "monitor", "ports"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "[PORT_ERR]\tdev 0 rxe0 port 1\n"
            "[PORT_ACTIVE]\tdev 0 rxe0 port 1\n"
            "[GID_CHANGE]\tdev 1 rxe1 port 1\n"
            "[DEVICE_SPEED_CHANGE]\tdev 1 rxe1 port 1 effective_speed 400Gb/s\n"
            "[DEVICE_FATAL]\tdev 1 rxe1\n"
            "[RENAME]\tdev 0 fast0\n");
  EXPECT_EQ(opened, (std::vector<std::string>{"rxe0", "rxe1"}));
}

TEST_F(MonitorPorts, JsonLinesTimestampsAndTheDevFilter) {
  devs["rxe0"].async_events = {{IBV_EVENT_PORT_ERR, 1}};
  devs["rxe1"].async_events = {{IBV_EVENT_LID_CHANGE, 1}, {IBV_EVENT_SM_CHANGE, 1}};
  Result r = run({"-j", "-t", "-c", "2", "monitor", "dev", "rxe1", "ports"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(opened, (std::vector<std::string>{"rxe1"}));
  std::regex line(R"(\{"timestamp":[0-9.e+]+,"event_type":"\[(LID|SM)_CHANGE\]","rdma_index":1,)"
                  R"("rdma_dev":"rxe1","port":1\}\n)");
  std::string out = r.out;
  for (int i = 0; i < 2; ++i) {
    std::smatch m;
    ASSERT_TRUE(std::regex_search(out, m, line)) << r.out;
    EXPECT_EQ(m.position(0), 0);
    out = m.suffix();
  }
  EXPECT_EQ(out, "");
}

// 6.1 sends no netlink events, but verbs port events come on any kernel.
TEST_F(MonitorPorts, PortEventsOnAKernelWithoutNetlinkEvents) {
  k.opts.version = KernelVersion::k6_1;  // SYS_GET without MONITOR_MODE
  devs["rxe1"].async_events = {{IBV_EVENT_PORT_ERR, 1}};
  Result r = run({"-c", "1", "monitor", "ports"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "[PORT_ERR]\tdev 1 rxe1 port 1\n");
}

TEST_F(MonitorPorts, ADeviceThatCannotBeOpenedAndBadWords) {
  devs["rxe1"].open_error =
      "cannot open verbs device \"rxe1\" (/dev/infiniband/uverbs1): "
      "Permission denied";
  Result r = run({"monitor", "ports"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, devs["rxe1"].open_error + "\n");
  r = run({"monitor", "ports", "ports"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "unknown monitor parameter \"ports\" (expected \"dev DEV\" or \"ports\")\n");
}

}  // namespace
}  // namespace rdma
