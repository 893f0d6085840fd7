// rdma bw's words through the whole front end (devices from the test
// kernel): bad input fails with one line before librdmacm is loaded. The
// measurement itself is lib/bw's (fake connection) and the VM's (rxe).
#include <gtest/gtest.h>

#include "lib/testing/kernel/testkernel.h"
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
      {{"bw", "client"}, "missing server address\n"},
      {{"bw", "client", "node7"},
       "invalid server address \"node7\" (expected an IPv4 or IPv6 address; InfiniBand targets "
       "by LID, GUID or name are not supported yet)\n"},
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
      {{"bw", "frob"}, "unknown bw command \"frob\" (server, client or help)\n"},
  };
  for (const Case& c : cases) {
    test::Result r = bw_run(k, c.args);
    EXPECT_EQ(r.status, 1) << c.args.back();
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, c.err);
  }
}

TEST(BwCmd, HelpNamesBothSides) {
  testkernel::TestKernel k{testkernel::KernelVersion::k6_1};
  for (auto args : {std::vector<std::string>{"bw"}, {"bw", "help"}}) {
    test::Result r = bw_run(k, args);
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("rdma bw server [ DEV[/PORT] ]"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("rdma bw client ADDRESS [ size BYTES ]"), std::string::npos);
  }
}

}  // namespace
}  // namespace rdma
