// The whole program, run in-process against the test kernel: every view's
// text and JSON, errors, abbreviations and batch mode.
#include "rdma/rdma.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "lib/error.h"
#include "lib/testing/kernel/fixture.h"
#include "lib/testing/kernel/testkernel.h"
#include "rdma/test_util.h"

namespace rdma {
namespace {

using testkernel::KernelVersion;
using testkernel::TestKernel;

using test::Borrowed;

using test::Result;

Result run_on(nl::Transport* kernel, std::vector<std::string> args, const std::string& in = "") {
  int opened = 0;
  Result r = test::run_program(
      std::move(args),
      [&]() -> std::unique_ptr<nl::Transport> {
        ++opened;
        if (!kernel)
          throw Error("the kernel has no RDMA netlink support (NETLINK_RDMA); load ib_core");
        return std::make_unique<Borrowed>(*kernel);
      },
      in);
  EXPECT_LE(opened, 1) << "one socket per process";
  return r;
}

class RdmaTest : public ::testing::Test {
 protected:
  TestKernel k{KernelVersion::k6_1};
  Result run(std::vector<std::string> args, const std::string& in = "") {
    return run_on(&k, std::move(args), in);
  }
  std::string guid(int dev) {
    uint64_t g = k.state.devices[dev].node_guid;
    char buf[24];
    std::snprintf(buf, sizeof buf, "%04x:%04x:%04x:%04x", unsigned(g >> 48) & 0xffff,
                  unsigned(g >> 32) & 0xffff, unsigned(g >> 16) & 0xffff, unsigned(g) & 0xffff);
    return buf;
  }
};

TEST_F(RdmaTest, DevTextAsIproute2) {
  Result r = run({"dev"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, "0: rxe0: node_type ca protocol roce node_guid " + guid(0) + " sys_image_guid " +
                       guid(0) + " \n1: rxe1: node_type ca protocol roce node_guid " + guid(1) +
                       " sys_image_guid " + guid(1) + " \n");
}

TEST_F(RdmaTest, DevDetailsAddModerationAndCaps) {
  Result r = run({"-d", "dev", "show", "rxe1"});
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("adaptive-moderation off \n    caps: <BAD_PKEY_CNTR, "), std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("rxe0"), std::string::npos);
  EXPECT_EQ(r.out.back(), '\n');
}

// -o: iproute2 writes its _SL_ ("\\") where a record breaks its line; the
// record itself still ends with a newline.
TEST_F(RdmaTest, OnelineJoinsMultiLineRecords) {
  std::string multi = run({"-d", "dev"}).out;
  std::string joined = multi;
  for (size_t p = 0; (p = joined.find("\n    caps: <", p)) != std::string::npos;) joined[p] = '\\';
  ASSERT_NE(joined, multi);
  Result r = run({"-o", "-d", "dev"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, joined);
  EXPECT_NE(r.out.find("adaptive-moderation off \\    caps: <BAD_PKEY_CNTR, "), std::string::npos);
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 2) << "one line per device";
  EXPECT_EQ(run({"-oneline", "-d", "link"}).out.find("\n    caps"), std::string::npos);
  // Single-line views and JSON are unchanged.
  EXPECT_EQ(run({"-o", "dev"}).out, run({"dev"}).out);
  EXPECT_EQ(run({"--oneline", "system"}).out, run({"system"}).out);
  EXPECT_EQ(run({"-o", "-j", "-d", "dev"}).out, run({"-j", "-d", "dev"}).out);
  EXPECT_EQ(run({"-o", "-j", "-p", "-d", "dev"}).out, run({"-j", "-p", "-d", "dev"}).out);
  // In a batch, -o on the command line holds for every line.
  EXPECT_EQ(run({"-o", "-b", "-"}, "-d dev show rxe0\n-d dev show rxe1\n").out, joined);
}

TEST_F(RdmaTest, DevJson) {
  Result r = run({"dev", "-j", "show", "rxe0"});
  EXPECT_EQ(r.out,
            "[{\"ifindex\":0,\"ifname\":\"rxe0\",\"node_type\":\"ca\",\"protocol\":\"roce\","
            "\"node_guid\":\"" +
                guid(0) + "\",\"sys_image_guid\":\"" + guid(0) + "\"}]\n");
}

TEST_F(RdmaTest, UnknownDeviceIsAnErrorAndJsonStaysValid) {
  Result r = run({"-j", "dev", "show", "nosuch"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "[]\n");
  EXPECT_EQ(r.err, "unknown device \"nosuch\"\n");
}

TEST_F(RdmaTest, LinkTextJsonAndDetails) {
  EXPECT_EQ(run({"link"}).out,
            "link rxe0/1 state ACTIVE physical_state LINK_UP netdev veth0 \n"
            "link rxe1/1 state ACTIVE physical_state LINK_UP netdev veth1 \n");
  Result d = run({"-d", "link", "show", "rxe1/1"});
  EXPECT_EQ(d.out, "link rxe1/1 state ACTIVE physical_state LINK_UP netdev veth1 netdev_index " +
                       std::to_string(k.state.devices[1].ports[0].netdev->ifindex) + " \n");
  Result j = run({"-j", "link", "show", "rxe0"});
  EXPECT_EQ(j.out,
            "[{\"ifindex\":0,\"ifname\":\"rxe0\",\"port\":1,\"state\":\"ACTIVE\","
            "\"physical_state\":\"LINK_UP\",\"netdev\":\"veth0\",\"netdev_index\":" +
                std::to_string(k.state.devices[0].ports[0].netdev->ifindex) + "}]\n");
}

TEST_F(RdmaTest, LinkShowDevListsEveryPortWithOneDump) {
  k.state.devices.push_back(testkernel::make_ib("mlx5_0", 2, 0x0002c90300001234ull));
  k.state.devices.back().index = 2;
  size_t before = k.requests();
  Result r = run({"link", "show", "mlx5_0"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("link mlx5_0/1 subnet_prefix fe80:0000:0000:0000 lid 1 sm_lid 1 lmc 0 "),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("link mlx5_0/2 "), std::string::npos);
  EXPECT_EQ(k.requests() - before, 2u);  // device list, then one port dump
}

TEST_F(RdmaTest, LinkBadPortNamesIt) {
  Result r = run({"link", "show", "rxe0/9"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "device \"rxe0\" has no port 9 (ports: 1-1)\n");
  EXPECT_EQ(run({"link", "show", "rxe0/x"}).status, 1);
}

TEST_F(RdmaTest, SystemTextAndJson) {
  EXPECT_EQ(run({"system"}).out, "netns shared privileged-qkey off copy-on-fork on\n");
  EXPECT_EQ(run({"-j", "sys", "show"}).out,
            "[{\"netns\":\"shared\",\"privileged-qkey\":false,\"copy-on-fork\":true}]\n");
}

// 6.12 sends MONITOR_MODE (6.1 does not): shown as iproute2 6.13+ shows it.
TEST(RdmaSystem, MonitorModeWhenTheKernelSendsIt) {
  TestKernel k612(KernelVersion::k6_12);
  EXPECT_EQ(run_on(&k612, {"system"}).out,
            "netns shared privileged-qkey off monitor on copy-on-fork on\n");
  EXPECT_EQ(run_on(&k612, {"-j", "system"}).out,
            "[{\"netns\":\"shared\",\"privileged-qkey\":false,\"monitor\":true,"
            "\"copy-on-fork\":true}]\n");
  EXPECT_EQ(run_on(&k612, {"system", "show", "monitor"}).out, run_on(&k612, {"system"}).out);
  EXPECT_EQ(run_on(&k612, {"sys", "sh", "mon"}).out, run_on(&k612, {"system"}).out);
  EXPECT_EQ(run_on(&k612, {"system", "show", "netns"}).out, run_on(&k612, {"system"}).out);
  Result bad = run_on(&k612, {"system", "show", "bogus"});
  EXPECT_EQ(bad.status, 1);
  EXPECT_EQ(bad.err, "unknown system parameter \"bogus\" (netns, privileged-qkey or monitor)\n");
  EXPECT_EQ(bad.out, "");
}

TEST_F(RdmaTest, SetCommandsChangeTheKernel) {
  EXPECT_EQ(run({"dev", "set", "rxe0", "name", "roce0"}).status, 0);
  EXPECT_EQ(k.state.devices[0].name, "roce0");
  EXPECT_EQ(run({"dev", "set", "roce0", "adaptive-moderation", "on"}).status, 0);
  EXPECT_TRUE(k.state.devices[0].use_cq_dim);
  EXPECT_EQ(run({"sys", "set", "netns", "exclusive"}).status, 0);
  EXPECT_EQ(k.state.sys.netns_shared, 0);
}

TEST_F(RdmaTest, KernelRefusalShowsItsErrorAndChangesNothing) {
  Result r = run({"dev", "set", "rxe0", "name", "rxe1"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err, "");
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line";
  EXPECT_EQ(k.state.devices[0].name, "rxe0");
}

TEST_F(RdmaTest, LinkAddAndDelete) {
  Result add = run({"link", "add", "rxe2", "type", "rxe", "netdev", "veth0"});
  // The fixture's veth0 already has rxe0: the kernel refuses a second one.
  EXPECT_EQ(add.status, 1);
  EXPECT_EQ(run({"link", "delete", "rxe1"}).status, 0);
  EXPECT_EQ(run({"dev"}).out.find("rxe1"), std::string::npos);
  Result bad = run({"link", "add", "rxe9", "type", "rxe"});
  EXPECT_EQ(bad.err, "missing \"netdev NETDEV\"\n");
}

TEST_F(RdmaTest, AbbreviationsFollowIproute2Order) {
  EXPECT_EQ(run({"s"}).out, run({"system", "show"}).out);
  EXPECT_EQ(run({"d", "sh", "rxe0"}).out, run({"dev", "show", "rxe0"}).out);
  EXPECT_EQ(run({"l", "l"}).out, run({"link", "list"}).out);
  EXPECT_EQ(run({"dev", "set", "rxe0", "adap", "of"}).status, 0);
}

TEST_F(RdmaTest, UnknownWordsAreErrors) {
  Result r = run({"foo"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  // Every unknown word lists the choices (and the closest, when one is).
  EXPECT_EQ(r.err,
            "unknown object \"foo\" (help, dev, link, resource, system, statistic, monitor, node, "
            "port, perf, sm, mad, fabric, route, sa, gid, cc or bw)\n");
  EXPECT_EQ(
      run({"dev", "bar"}).err,
      "unknown dev command \"bar\" (show, list, set, add, delete, help, limits or chardev)\n");
  EXPECT_EQ(run({"dev", "lmits"}).err,
            "unknown dev command \"lmits\" (show, list, set, add, delete, help, limits or "
            "chardev); did you "
            "mean \"limits\"?\n");
  EXPECT_EQ(run({"dev", "show", "rxe0", "extra"}).status, 1);
  EXPECT_EQ(run({"-y", "dev"}).err, "unknown option \"-y\"\n");  // -q is --quiet
}

TEST(RdmaNoKernel, HelpWorksAndCommandsFailWithOneLine) {
  Result h = run_on(nullptr, {"dev", "help"});
  EXPECT_EQ(h.status, 0);
  EXPECT_EQ(h.out.rfind("Usage: rdma dev show [DEV]\n", 0), 0u);
  Result r = run_on(nullptr, {"dev"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "the kernel has no RDMA netlink support (NETLINK_RDMA); load ib_core\n");
  EXPECT_EQ(run_on(nullptr, {"dev", "nope"}).status, 1);  // usage errors need no kernel
}

TEST_F(RdmaTest, BatchStopsAtTheFirstFailureWithoutForce) {
  Result r = run({"-b", "-"}, "dev show rxe0\n# comment\ndev show nosuch\nsystem\n");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "-:3: unknown device \"nosuch\"\n");
  EXPECT_NE(r.out.find("rxe0"), std::string::npos);
  EXPECT_EQ(r.out.find("netns"), std::string::npos);
}

TEST_F(RdmaTest, BatchWithForceRunsEveryLine) {
  Result r = run({"-force", "-batch", "-"}, "dev show nosuch\nsys\nbogus\n");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(r.err.starts_with("-:1: unknown device \"nosuch\"\n-:3: unknown object \"bogus\" ("))
      << r.err;
  EXPECT_EQ(r.out, "netns shared privileged-qkey off copy-on-fork on\n");
}

TEST_F(RdmaTest, BatchLinesDoNotLeakOptions) {
  Result r = run({"-b", "-"}, "-d dev show rxe0\ndev show rxe0\n");
  EXPECT_EQ(r.status, 0) << r.err;
  size_t first = r.out.find("caps");
  EXPECT_NE(first, std::string::npos);
  EXPECT_EQ(r.out.find("caps", first + 1), std::string::npos);
}

TEST_F(RdmaTest, BatchJsonIsOneDocument) {
  Result r = run({"-j", "-b", "-"}, "dev show rxe0\nsystem\n");
  EXPECT_EQ(r.out.front(), '[');
  EXPECT_EQ(r.out.substr(r.out.size() - 3), "}]\n");
  EXPECT_TRUE(nlohmann::json::accept(r.out));
}

// monitor and -w write a document per event or interval: inside a -j batch
// they would end the batch's one document, so the line is refused and the
// lines after it (with -f) still print into the same array.
TEST_F(RdmaTest, BatchJsonRefusesCommandsWithDocumentsOfTheirOwn) {
  Result r = run({"-j", "-f", "-b", "-"}, "dev show rxe0\nmon\n-w 1 -c 1 res\nsystem\n");
  EXPECT_NE(r.status, 0);
  EXPECT_EQ(r.err,
            "-:2: monitor cannot run in a JSON batch (-j -b): it writes a document of its own "
            "per event or interval\n"
            "-:3: -w cannot run in a JSON batch (-j -b): it writes a document of its own per "
            "event or interval\n");
  ASSERT_TRUE(nlohmann::json::accept(r.out)) << r.out;
  nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[0]["ifname"], "rxe0");
  EXPECT_TRUE(j[1].contains("netns"));
}

TEST_F(RdmaTest, BatchFileErrorsNameTheFile) {
  Result r = run({"-b", "/nonexistent/cmds"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "cannot open batch file \"/nonexistent/cmds\"\n");
}

TEST_F(RdmaTest, MalformedKernelReplyIsAnErrorNotACrash) {
  // A device reply whose DEV_INDEX is 2 bytes long.
  std::vector<uint8_t> d(64, 0);
  auto* h = mnl_nlmsg_put_header(d.data());
  h->nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET);
  h->nlmsg_flags = NLM_F_MULTI;
  mnl_attr_put_u16(h, RDMA_NLDEV_ATTR_DEV_INDEX, 1);
  d.resize(h->nlmsg_len);
  k.inject(d);
  // The injected reply carries port id 0 and seq 0: not an answer to us
  // (the kernel sets both), so it is one error line, not believed.
  Result r = run({"dev"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "malformed kernel reply: message for port id 0, ours is 4242\n");
  EXPECT_EQ(r.out, "");
  // The session is not left stuck: the next command works.
  k.reopen();
  Result r2 = run_on(&k, {"dev"});
  EXPECT_EQ(r2.status, 0);
}

}  // namespace
}  // namespace rdma
