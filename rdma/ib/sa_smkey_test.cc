// smkey x: the key read from a terminal (a pseudo-terminal here) with its
// echo off, and from a pipe as it comes.
#include "rdma/ib/sa_smkey.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <stdlib.h>
#include <termios.h>
#include <unistd.h>

#include <string>
#include <thread>

#include "lib/error.h"

namespace rdma {
namespace {

// What the terminal shows (the master side's output) within a moment.
std::string shown(int master) {
  std::string s;
  char buf[256];
  pollfd p{master, POLLIN, 0};
  while (::poll(&p, 1, 100) > 0) {
    ssize_t n = ::read(master, buf, sizeof buf);
    if (n <= 0) break;
    s.append(buf, static_cast<size_t>(n));
  }
  return s;
}

TEST(ReadSecret, ATerminalDoesNotEchoTheKey) {
  int master = ::posix_openpt(O_RDWR | O_NOCTTY);
  ASSERT_GE(master, 0);
  ASSERT_EQ(::grantpt(master), 0);
  ASSERT_EQ(::unlockpt(master), 0);
  int slave = ::open(::ptsname(master), O_RDWR | O_NOCTTY);
  ASSERT_GE(slave, 0);
  termios before{};
  ASSERT_EQ(::tcgetattr(slave, &before), 0);
  ASSERT_TRUE(before.c_lflag & ECHO);
  // The key is typed once the prompt shows (read_secret's TCSAFLUSH drops
  // what was typed before): the terminal echoes a line as it comes in, so
  // the key stays off the screen only if the echo is off by then.
  std::string key;
  std::thread reader([&] { key = read_secret(slave, slave, "SM_Key: "); });
  EXPECT_EQ(shown(master), "SM_Key: ");  // the prompt, echo already off
  ASSERT_EQ(::write(master, "0x1234\n", 7), 7);
  reader.join();
  EXPECT_EQ(key, "0x1234");
  std::string rest = shown(master);
  EXPECT_EQ(rest.find("1234"), std::string::npos) << rest;  // not echoed
  termios after{};
  ASSERT_EQ(::tcgetattr(slave, &after), 0);
  EXPECT_TRUE(after.c_lflag & ECHO);  // restored
  ::close(slave);
  ::close(master);
}

TEST(ReadSecret, APipeGivesItsLine) {
  int in[2], out[2];
  ASSERT_EQ(::pipe(in), 0);
  ASSERT_EQ(::pipe(out), 0);
  ASSERT_EQ(::write(in[1], "7\n", 2), 2);
  ::close(in[1]);
  EXPECT_EQ(read_secret(in[0], out[1], "SM_Key: "), "7");
  char buf[16] = {};
  EXPECT_EQ(::read(out[0], buf, sizeof buf), 8);
  EXPECT_STREQ(buf, "SM_Key: ");
  EXPECT_THROW(read_secret(in[0], out[1], ""), Error);  // end of input
  for (int fd : {in[0], out[0], out[1]}) ::close(fd);
}

}  // namespace
}  // namespace rdma
