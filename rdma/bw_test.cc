// rdma bw's words through the whole front end (devices from the test
// kernel): bad input fails with one line before librdmacm is loaded. The
// measurement itself is lib/bw's (fake connection) and the VM's (rxe).
#include <gtest/gtest.h>

#include <algorithm>

#include "lib/testing/kernel/testkernel.h"
#include "rdma/ib/test_util.h"
#include "rdma/test_util.h"

namespace rdma {
namespace {

test::Result bw_run(testkernel::TestKernel& k, std::vector<std::string> args) {
  return test::run_program(std::move(args), [&] { return std::make_unique<test::Borrowed>(k); });
}

TEST(BwCmd, BadInputIsOneLineAndNothingOnStdout) {
  testkernel::TestKernel k{testkernel::KernelVersion::k6_1};  // rxe0, rxe1
  struct Case {
    std::vector<std::string> args;
    std::string err;
  } cases[] = {
      {{"bw", "client"}, "missing server address or InfiniBand target\n"},
      {{"bw", "client", "node7"},
       "invalid server address \"node7\" (expected an IPv4 or IPv6 address, lid LID, guid GUID, "
       "gid GID, dr PATH or name NAME)\n"},
      {{"bw", "client", "lid", "0"}, "invalid LID \"0\" (expected 1-49151, decimal or 0x hex)\n"},
      {{"bw", "path"}, "missing InfiniBand target\n"},
      {{"bw", "path", "192.0.2.1"},
       "invalid LID \"192.0.2.1\" (expected 1-49151, decimal or 0x hex)\n"},
      {{"bw", "path", "node7"},
       "invalid target \"node7\" (expected lid LID, guid GUID, gid GID, dr PATH or name "
       "NAME)\n"},
      {{"bw", "client", "192.0.2.1", "size", "0"}, "invalid size \"0\" (expected 1-1073741824)\n"},
      {{"bw", "client", "192.0.2.1", "size"}, "missing bytes after \"size\"\n"},
      {{"bw", "client", "2001:db8::1", "iterations", "x"},
       "invalid iterations \"x\" (expected 1-100000000)\n"},
      {{"bw", "client", "192.0.2.1", "sise", "10"},
       "unknown bw client parameter \"sise\" (size, iterations, port, rxe0 or rxe1); did you mean "
       "\"size\"?\n"},
      {{"bw", "client", "192.0.2.1", "rxe0/2"}, "device \"rxe0\" has no port 2 (ports: 1-1)\n"},
      {{"bw", "client", "192.0.2.1", "rxe0/x"},
       "invalid port \"x\" (expected DEV/PORT with PORT 1-255)\n"},
      {{"bw", "server", "port", "70000"}, "invalid port \"70000\" (expected 1-65535)\n"},
      {{"bw", "server", "rxe0", "rxe1"}, "more than one device: \"rxe0\" and \"rxe1\"\n"},
      {{"bw", "server", "wait", "0"}, "invalid wait \"0\" (expected 1-86400)\n"},
      {{"bw", "server", "nosuch0"},
       "unknown bw server parameter \"nosuch0\" (port, wait, rxe0 or rxe1)\n"},
      {{"bw", "frob"}, "unknown bw command \"frob\" (server, client, path or help)\n"},
  };
  for (const Case& c : cases) {
    test::Result r = bw_run(k, c.args);
    EXPECT_EQ(r.status, 1) << c.args.back();
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, c.err);
  }
}

// Where the host has no InfiniBand port (here: no MAD access at all; the
// VM's rxe in tests/vm/bw-guest.sh), an InfiniBand target is one line
// naming it, before librdmacm is loaded.
TEST(BwCmd, AnInfinibandTargetWithoutAnInfinibandPortIsOneLine) {
  testkernel::TestKernel k{testkernel::KernelVersion::k6_1};
  for (auto args : {std::vector<std::string>{"bw", "client", "lid", "4"}, {"bw", "path", "4"}}) {
    test::Result r = bw_run(k, args);
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err.rfind("lid 4 is an InfiniBand target: ", 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

TEST(BwCmd, HelpNamesBothSides) {
  testkernel::TestKernel k{testkernel::KernelVersion::k6_1};
  for (auto args : {std::vector<std::string>{"bw"}, {"bw", "help"}}) {
    test::Result r = bw_run(k, args);
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("rdma bw server [ DEV[/PORT] ]"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("rdma bw client TARGET [ size BYTES ]"), std::string::npos);
  }
}

// `rdma bw path` on the fabric double: the PathRecord `bw client` gives
// rdma_cm for an InfiniBand target (lib/ib/cm_path.h), printed as `sa show
// paths` prints the SA's path from the local port (tests/ibsim/route.sh
// compares both with saquery on the simulator).
class BwPath : public madtest::MadCmd {};

TEST_F(BwPath, IsTheSasPathFromTheLocalPortByLidGuidOrName) {
  madtest::Result sa = run({"sa", "show", "paths", "lid", "6"});
  ASSERT_EQ(sa.status, 0) << sa.err;
  ASSERT_NE(sa.out, "");
  for (std::vector<std::string> target : {std::vector<std::string>{"lid", "6"},
                                          {"6"},
                                          {"name", "hca4"},
                                          {"guid", guid(node("hca4").ports[1].guid)}}) {
    std::vector<std::string> args = {"bw", "path"};
    args.insert(args.end(), target.begin(), target.end());
    madtest::Result r = run(args);
    EXPECT_EQ(r.status, 0) << target.back() << ": " << r.err;
    EXPECT_EQ(r.out, sa.out) << target.back();
  }
  EXPECT_EQ(json({"bw", "path", "lid", "6"}), json({"sa", "show", "paths", "lid", "6"}));
  madtest::Result none = run({"bw", "path", "name", "nosuch"});
  EXPECT_NE(none.status, 0);
  EXPECT_EQ(none.out, "");
  EXPECT_EQ(std::count(none.err.begin(), none.err.end(), '\n'), 1) << none.err;
}

}  // namespace
}  // namespace rdma
