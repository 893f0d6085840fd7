#include "lib/res/comm.h"

#include <gtest/gtest.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <thread>

namespace rdma::res {
namespace {

TEST(ProcessName, BlanksAreKept) {
  // A thread of ours with a blank in its name: /proc/TID/comm has it whole.
  std::string got;
  std::thread t([&] {
    prctl(PR_SET_NAME, "rc ping");
    got = process_name(static_cast<uint32_t>(gettid())).value_or("?");
  });
  t.join();
  EXPECT_EQ(got, "rc ping");
  std::optional<std::string> self = process_name(static_cast<uint32_t>(getpid()));
  ASSERT_TRUE(self);
  EXPECT_EQ(self->find('\n'), std::string::npos);
  EXPECT_FALSE(self->empty());
}

TEST(ProcessName, GoneOrNoProcess) {
  EXPECT_EQ(process_name(0), std::nullopt);
  EXPECT_EQ(process_name(0x3ffffff0), std::nullopt);  // above pid_max
}

TEST(CommReader, RemembersTheLastPid) {
  CommReader r;
  uint32_t me = static_cast<uint32_t>(getpid());
  std::string first = r.get(me).value_or("");
  EXPECT_FALSE(first.empty());
  EXPECT_EQ(r.get(me), first);
  EXPECT_EQ(r.get(0x3ffffff0), std::nullopt);
  EXPECT_EQ(r.get(me), first);
}

}  // namespace
}  // namespace rdma::res
