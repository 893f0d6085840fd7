// `rdma resource show|set frmr_pools` against the test kernel's 7.0 FRMR
// pool commands, and their refusal by 6.1 and 6.12.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "lib/testing/kernel/policy.h"
#include "rdma/res_test_util.h"

namespace rdma {
namespace {

using testkernel::FrmrPool;
using testkernel::FrmrPools;
using testkernel::KernelVersion;
using testkernel::TestKernel;

constexpr auto k70 = KernelVersion::k7_0;

FrmrPool pool(uint64_t vendor, uint64_t ndma, uint32_t access, uint8_t ats, uint32_t queue,
              uint64_t in_use, uint64_t max_in_use, uint32_t pinned) {
  FrmrPool p;
  p.vendor_key = vendor;
  p.num_dma_blocks = ndma;
  p.access_flags = access;
  p.ats = ats;
  p.queue_handles = queue;
  p.in_use = in_use;
  p.max_in_use = max_in_use;
  p.pinned_handles = pinned;
  return p;
}

// A 7.0 kernel: rxe0 with two pools, rxe1 with a kernel-internal one.
struct Pools7 : TestKernel {
  Pools7();
};

Pools7::Pools7() : TestKernel(testkernel::Options{.version = k70}, testkernel::vm_fixture(k70)) {
  TestKernel& k = *this;
  k.state.devices[0].frmr =
      FrmrPools{{pool(0, 8, 0x1f, 0, 4, 2, 5, 0), pool(0x1a, 0x100, 0x3, 1, 10, 0, 7, 10)}};
  FrmrPool internal = pool(0, 0x40, 0, 0, 1, 1, 1, 0);
  internal.kernel_vendor_key = 2;
  k.state.devices[1].frmr = FrmrPools{{internal}};
}

const char kText[] =
    "dev rxe0 key 0:8:1f:0 queue 4 in_use 2 max_in_use 5 pinned 0 \n"
    "dev rxe0 key 1a:100:3:1 queue 10 in_use 0 max_in_use 7 pinned 10 \n"
    "dev rxe1 key 0:40:0:0 queue 1 in_use 1 max_in_use 1 pinned 0 \n";

TEST(FrmrPoolsShow, TextAsIproute2Head) {
  Pools7 k;
  restest::Result r = restest::run(k, {"resource", "show", "frmr_pools"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, kText);
  // One dump per device, each naming it (the kernel requires DEV_INDEX).
  EXPECT_EQ(r.count(nldev::kCmdFrmrPoolsGet, true), 2);
  EXPECT_EQ(restest::run(k, {"res", "show", "fr"}).out, kText);
  EXPECT_EQ(restest::run(k, {"res", "show", "frmr_pools", "dev", "rxe1"}).out,
            "dev rxe1 key 0:40:0:0 queue 1 in_use 1 max_in_use 1 pinned 0 \n");
}

TEST(FrmrPoolsShow, DetailsShowTheKeyFields) {
  Pools7 k;
  restest::Result r = restest::run(k, {"-d", "res", "show", "frmr_pools", "dev", "rxe1"});
  EXPECT_EQ(r.out,
            "dev rxe1 key 0:40:0:0 ats 0 access_flags 0 vendor_key 0 num_dma_blocks 64 "
            "kernel_vendor_key 2 queue 1 in_use 1 max_in_use 1 pinned 0 \n");
}

TEST(FrmrPoolsShow, JsonHasTheTextsKeysAndValues) {
  Pools7 k;
  restest::Result r = restest::run(k, {"-j", "res", "show", "frmr_pools", "dev", "rxe0"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "[{\"ifindex\":0,\"ifname\":\"rxe0\",\"key\":\"0:8:1f:0\",\"queue\":4,\"in_use\":2,"
            "\"max_in_use\":5,\"pinned\":0},{\"ifindex\":0,\"ifname\":\"rxe0\",\"key\":"
            "\"1a:100:3:1\",\"queue\":10,\"in_use\":0,\"max_in_use\":7,\"pinned\":10}]\n");
  r = restest::run(k, {"-j", "-p", "-d", "res", "show", "frmr_pools"});
  auto doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc.size(), 3u);
  EXPECT_EQ(doc[1]["vendor_key"], 0x1a);
  EXPECT_EQ(doc[1]["num_dma_blocks"], 0x100);
  EXPECT_EQ(doc[1]["access_flags"], 3);
  EXPECT_EQ(doc[1]["ats"], 1);
  EXPECT_EQ(doc[2]["kernel_vendor_key"], 2);
  EXPECT_FALSE(doc[0].contains("kernel_vendor_key"));
}

TEST(FrmrPoolsShow, EveryFilterOfIproute2) {
  Pools7 k;
  auto keys = [&](std::vector<std::string> filter) {
    std::vector<std::string> args = {"-j", "res", "show", "frmr_pools"};
    args.insert(args.end(), filter.begin(), filter.end());
    restest::Result r = restest::run(k, args);
    EXPECT_EQ(r.status, 0) << r.err;
    std::string out;
    for (const auto& o : nlohmann::json::parse(r.out)) out += o["key"].get<std::string>() + " ";
    return out;
  };
  EXPECT_EQ(keys({"ats", "1"}), "1a:100:3:1 ");
  EXPECT_EQ(keys({"access_flags", "0x1f"}), "0:8:1f:0 ");
  EXPECT_EQ(keys({"vendor_key", "26"}), "1a:100:3:1 ");
  EXPECT_EQ(keys({"num_dma_blocks", "8-64"}), "0:8:1f:0 0:40:0:0 ");
  EXPECT_EQ(keys({"queue", "1,4"}), "0:8:1f:0 0:40:0:0 ");
  EXPECT_EQ(keys({"in_use", "0"}), "1a:100:3:1 ");
  EXPECT_EQ(keys({"max_in_use", "5-7"}), "0:8:1f:0 1a:100:3:1 ");
  EXPECT_EQ(keys({"pinned", "10"}), "1a:100:3:1 ");
  EXPECT_EQ(keys({"dev", "rxe0", "pinned", "0"}), "0:8:1f:0 ");
  EXPECT_EQ(keys({"ats", "0", "queue", "1"}), "0:40:0:0 ");
  restest::Result bad = restest::run(k, {"res", "show", "frmr_pools", "lkey", "1"});
  EXPECT_EQ(bad.status, 1);
  EXPECT_EQ(bad.out, "");
  EXPECT_EQ(restest::run(k, {"res", "show", "frmr_pools", "dev", "nosuch"}).err,
            "unknown device \"nosuch\"\n");
  EXPECT_EQ(restest::run(k, {"res", "show", "frmr_pools", "queue"}).err,
            "filter \"queue\" has no value\n");
}

TEST(FrmrPoolsShow, DevicesWithoutPoolsAndLongDumps) {
  Pools7 k;
  k.state.devices[1].frmr.reset();  // a driver without FRMR pools
  // Enough pools that the kernel splits the table over several messages.
  for (uint32_t i = 0; i < 1000; ++i)
    k.state.devices[0].frmr->pools.push_back(pool(i, 1, 0, 0, i, 0, 0, 0));
  restest::Result r = restest::run(k, {"res", "show", "frmr_pools"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1002);
  EXPECT_NE(r.out.find("dev rxe0 key 3e7:1:0:0 queue 999 "), std::string::npos);
  EXPECT_EQ(r.out.find("rxe1"), std::string::npos);
}

TEST(FrmrPoolsSet, AgingAndPinnedReachTheKernel) {
  Pools7 k;
  restest::Result r = restest::run(k, {"res", "set", "frmr_pools", "dev", "rxe0", "aging", "120"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(k.state.devices[0].frmr->aging_period_sec, 120u);
  r = restest::run(k, {"res", "set", "frmr_pools", "dev", "rxe0", "pinned", "1a:100:3:1", "3"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(k.state.devices[0].frmr->pools[1].pinned_handles, 3u);
  // A key without a pool makes one (ib_frmr_pools_set_pinned).
  r = restest::run(k, {"res", "set", "frmr_pools", "dev", "rxe0", "pinned", "0:10:0:1", "2"});
  EXPECT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(k.state.devices[0].frmr->pools.size(), 3u);
  EXPECT_EQ(k.state.devices[0].frmr->pools[2].num_dma_blocks, 0x10u);
  EXPECT_EQ(k.state.devices[0].frmr->pools[2].ats, 1);
  EXPECT_EQ(k.state.devices[0].frmr->pools[2].pinned_handles, 2u);
}

TEST(FrmrPoolsSet, BadInputChangesNothing) {
  Pools7 k;
  auto refused = [&](std::vector<std::string> args, const std::string& err) {
    std::vector<std::string> all = {"res", "set", "frmr_pools"};
    all.insert(all.end(), args.begin(), args.end());
    restest::Result r = restest::run(k, all);
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, err);
    EXPECT_EQ(r.count(nldev::kCmdFrmrPoolsSet, false), 0);
  };
  refused({"dev", "rxe0", "aging", "0"}, "the aging period must be at least 1 second\n");
  refused({"dev", "rxe0", "aging", "x"}, "invalid aging period \"x\" (expected 0-4294967295)\n");
  // Options stand anywhere on the line: "-5" is one.
  refused({"dev", "rxe0", "aging", "-5"}, "unknown option \"-5\"\n");
  refused({"dev", "rxe0", "aging"}, "missing aging period in seconds\n");
  refused({"dev", "rxe0", "pinned", "1:2:3", "4"},
          "invalid FRMR pool key \"1:2:3\": it has 3 fields, not 4 (expected "
          "VENDOR:NDMA:ACCESS:ATS, hex)\n");
  refused({"dev", "rxe0", "pinned", "1:2:3:0"}, "missing number of pinned handles\n");
  refused({"dev", "rxe0", "pinned", "1:2:3:0", "5000000000"},
          "invalid pinned value \"5000000000\" (expected 0-4294967295)\n");
  refused({"dev", "rxe0", "speed", "1"},
          "unknown frmr_pools parameter \"speed\" (expected aging or pinned)\n");
  refused({"dev", "nosuch", "aging", "5"}, "unknown device \"nosuch\"\n");
  refused({"rxe0", "aging", "5"}, "expected \"dev DEV\", not \"rxe0\"\n");
  refused({"dev", "rxe0", "aging", "5", "extra"}, "unexpected argument \"extra\"\n");
  EXPECT_EQ(k.state.devices[0].frmr->aging_period_sec, 60u);
  EXPECT_EQ(k.state.devices[0].frmr->pools.size(), 2u);
  restest::Result r = restest::run(k, {"res", "set", "qp"});
  EXPECT_EQ(r.err, "unknown resource set object \"qp\" (expected frmr_pools)\n");
}

// Without FRMR pools on the device the kernel refuses; unprivileged too.
TEST(FrmrPoolsSet, KernelRefusals) {
  Pools7 k;
  k.state.devices[1].frmr.reset();
  restest::Result r = restest::run(k, {"res", "set", "frmr_pools", "dev", "rxe1", "aging", "5"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err,
            "the kernel refused FRMR_POOLS_SET (Operation not supported): the device has no FRMR "
            "pools\n");
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line";
  k.opts.net_admin = false;
  r = restest::run(k, {"res", "set", "frmr_pools", "dev", "rxe0", "aging", "5"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err.find("7.0"), std::string::npos) << r.err;
  EXPECT_EQ(k.state.devices[0].frmr->aging_period_sec, 60u);
}

// Debian's kernels know neither command: one clear line, nothing on stdout.
TEST(FrmrPools, OlderKernelsRefuseWithOneLine) {
  for (KernelVersion v : {KernelVersion::k6_1, KernelVersion::k6_12}) {
    TestKernel k(v);
    for (std::vector<std::string> args :
         {std::vector<std::string>{"res", "show", "frmr_pools"},
          {"-j", "res", "show", "frmr_pools", "dev", "rxe0"},
          {"res", "set", "frmr_pools", "dev", "rxe0", "aging", "10"},
          {"res", "set", "frmr_pools", "dev", "rxe0", "pinned", "0:8:0:0", "1"}}) {
      restest::Result r = restest::run(k, args);
      EXPECT_EQ(r.status, 1);
      EXPECT_EQ(r.out, args[0] == "-j" ? "[]\n" : "");
      std::string cmd = args[args[0] == "-j" ? 2 : 1] == "show" ? "GET" : "SET";
      EXPECT_EQ(r.err, "the kernel refused FRMR_POOLS_" + cmd +
                           " (Invalid argument): FRMR pools need Linux 7.0 or newer\n");
    }
  }
}

TEST(FrmrPools, OnlineAndHelp) {
  Pools7 k;
  EXPECT_EQ(restest::run(k, {"-o", "res", "show", "frmr_pools"}).out, kText);
  restest::Result h = restest::run(k, {"res", "help"});
  EXPECT_NE(h.out.find("resource set frmr_pools dev DEV pinned POOL_KEY PINNED_VALUE"),
            std::string::npos);
}

}  // namespace
}  // namespace rdma
