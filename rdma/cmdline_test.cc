// Malformed command lines, object by object (issue 15): each gives one line
// on stderr, nothing on stdout (not even "[]" with -j), exit status 1, and
// sends the kernel no request that changes anything.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "lib/error.h"
#include "lib/nl/nldev.h"
#include "lib/testing/kernel/testkernel.h"
#include "rdma/options.h"
#include "rdma/test_util.h"

namespace rdma {
namespace {

bool changes_state(int cmd) {
  static const std::set<int> kWrites = {
      RDMA_NLDEV_CMD_SET,     RDMA_NLDEV_CMD_NEWLINK,  RDMA_NLDEV_CMD_DELLINK,
      RDMA_NLDEV_CMD_SYS_SET, RDMA_NLDEV_CMD_STAT_SET, RDMA_NLDEV_CMD_STAT_DEL,
      nldev::kCmdNewDev,      nldev::kCmdDelDev,
  };
  return kWrites.count(cmd) > 0;
}

// Arguments after "rdma"; "" stands for an empty argument.
const std::vector<std::vector<std::string>> kMalformed = {
    // options
    {"--frob", "dev"},
    {"-x", "dev"},
    {"dev", "--timeout"},
    {"--timeout", "abc", "dev"},
    {"--kernel-timeout", "0", "dev"},
    {"--kernel-timeout", "5s", "dev"},
    {"--retries", "-1", "dev"},
    {"-c", "x", "stat", "show"},
    {"-w", "0", "stat", "show"},
    {"-n"},
    {"-j", "-j", "-j", "frob"},
    {"frob"},
    {""},
    // dev
    {"dev", "frob"},
    {"dev", "show", "rxe0", "extra"},
    {"dev", "show", ""},
    {"dev", "set"},
    {"dev", "set", "rxe0"},
    {"dev", "set", "rxe0", "name"},
    {"dev", "set", "rxe0", "frob", "x"},
    {"dev", "set", "rxe0", "adaptive-moderation", "maybe"},
    {"dev", "set", "rxe0", "name", std::string(64, 'x')},
    {"dev", "add"},
    {"dev", "add", "x", "type"},
    {"dev", "add", "x", "type", "foo", "parent", "rxe0"},
    {"dev", "add", "x", "type", "smi"},
    {"dev", "delete"},
    {"-w", "1", "dev"},
    // link
    {"link", "show", "/1"},
    {"link", "show", "rxe0/"},
    {"link", "show", "rxe0/0"},
    {"link", "show", "rxe0/x"},
    {"link", "show", "rxe0/1", "extra"},
    {"link", "show", ""},
    {"link", "frob"},
    {"link", "add"},
    {"link", "add", "x"},
    {"link", "add", "x", "type", "rxe"},
    {"link", "add", "x", "type", "rxe", "netdev"},
    {"link", "add", "x", "frob", "y"},
    {"link", "delete"},
    {"-c", "1", "link"},
    // resource
    {"res", "frob"},
    {"res", "show", "frob"},
    {"res", "show", "qp", "frob"},
    {"res", "show", "qp", "lqpn"},
    {"res", "show", "qp", "lqpn", "abc"},
    {"res", "show", "qp", "lqpn", "1", "lqpn", "2"},
    {"res", "show", "qp", "link", "/1"},
    {"res", "show", "qp", "dev", "rxe0/1"},
    {"res", "show", "cq", "link", "rxe0/1"},
    {"res", "show", "qp", "state", "NOSUCH"},
    {"res", "show", "qp", "lqpn", "5-"},
    {"res", "show", "mr", "mrlen", ","},
    {"-w", "1", "res", "show", "qp"},
    // statistic
    {"stat", "frob"},
    {"stat", "show", "link", "/1"},
    {"stat", "show", "link", "rxe0/x"},
    {"stat", "show", "frob"},
    {"stat", "show", "-c", "2"},
    {"stat", "qp", "frob"},
    {"stat", "qp", "set"},
    {"stat", "qp", "set", "link", "rxe0/1", "auto", "maybe"},
    {"stat", "qp", "show", "frob", "1"},
    {"stat", "qp", "show", "lqpn", "1", "lqpn", "2"},
    {"stat", "mode", "frob"},
    {"stat", "set", "link"},
    {"stat", "set", "link", "rxe0/1", "frob"},
    {"stat", "mr", "show", "frob", "x"},
    // system
    {"sys", "frob"},
    {"sys", "set"},
    {"sys", "set", "netns", "maybe"},
    {"sys", "set", "frob", "x"},
    {"sys", "show", "extra"},
    // monitor
    {"monitor", "frob"},
    {"-w", "1", "monitor"},
    // MAD objects: their word tables
    {"mad", "frob"},
    {"node", "frob"},
    {"port", "frob"},
    {"perf", "frob"},
    {"sm", "frob"},
};

TEST(CommandLine, EveryMalformedLineIsOneErrorLineAndNothingElse) {
  for (bool json : {false, true}) {
    for (std::vector<std::string> args : kMalformed) {
      if (json) args.insert(args.begin(), "-j");
      testkernel::TestKernel k;
      std::vector<int> cmds;
      test::Result r = test::run_program(args, [&]() -> std::unique_ptr<nl::Transport> {
        return std::make_unique<test::NlRecorder>(k, cmds);
      });
      std::string what = test::command_line(args);
      EXPECT_EQ(r.status, 1) << what;
      EXPECT_EQ(r.out, "") << what;
      EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << what << ": " << r.err;
      EXPECT_FALSE(r.err.empty() || r.err == "\n") << what;
      EXPECT_TRUE(std::none_of(cmds.begin(), cmds.end(), changes_state)) << what;
    }
  }
}

TEST(CommandLine, LinkShowWithoutDeviceIsAnError) {
  testkernel::TestKernel k;
  std::vector<int> cmds;
  test::Result r =
      test::run_program({"link", "show", "/1"}, [&]() -> std::unique_ptr<nl::Transport> {
        return std::make_unique<test::NlRecorder>(k, cmds);
      });
  EXPECT_EQ(r.err, "missing device name in \"/1\" (expected DEV or DEV/PORT)\n");
  EXPECT_TRUE(cmds.empty());
}

TEST(CommandLine, UnknownObjectWithJsonPrintsNothing) {
  test::Result r = test::run_program({"-j", "-j", "-j", "frob"}, [] {
    return std::unique_ptr<nl::Transport>(new testkernel::TestKernel());
  });
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(r.err.starts_with("unknown object \"frob\" (help, dev, ")) << r.err;
  EXPECT_EQ(r.status, 1);
}

// A failure after the kernel was asked keeps -j output one JSON document.
TEST(CommandLine, RuntimeErrorsKeepJsonValid) {
  test::Result r = test::run_program({"-j", "dev", "show", "nosuch"}, [] {
    return std::unique_ptr<nl::Transport>(new testkernel::TestKernel());
  });
  EXPECT_EQ(r.out, "[]\n");
  EXPECT_EQ(r.status, 1);
}

TEST(CommandLine, KernelTimeoutOption) {
  std::vector<std::string> args{"--kernel-timeout", "250", "dev"};
  EXPECT_EQ(parse_options(args).kernel_timeout_ms, 250);
  args = {"--kernel-timeout=7", "dev"};
  EXPECT_EQ(parse_options(args).kernel_timeout_ms, 7);
  args = {"dev"};
  EXPECT_EQ(parse_options(args).kernel_timeout_ms, 0);  // the default, nl::kDefaultTimeoutMs
  // --timeout stays the MAD timeout.
  args = {"--timeout", "300", "dev"};
  Options o = parse_options(args);
  EXPECT_EQ(o.mad_timeout_ms, 300);
  EXPECT_EQ(o.kernel_timeout_ms, 0);
}

}  // namespace
}  // namespace rdma
