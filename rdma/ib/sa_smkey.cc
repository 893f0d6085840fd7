#include "rdma/ib/sa_smkey.h"

#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "lib/error.h"

namespace rdma {

namespace {

void write_all(int fd, std::string_view s) {
  while (!s.empty()) {
    ssize_t n = ::write(fd, s.data(), s.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // a prompt that cannot be shown does not stop the read
    s.remove_prefix(static_cast<size_t>(n));
  }
}

}  // namespace

std::string read_secret(int in, int out, std::string_view prompt) {
  termios saved{};
  bool tty = ::tcgetattr(in, &saved) == 0;
  if (tty) {
    termios quiet = saved;
    quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
    quiet.c_lflag |= ECHONL;  // the newline still shows: the prompt's line ends
    ::tcsetattr(in, TCSAFLUSH, &quiet);
  }
  write_all(out, prompt);
  std::string line;
  bool ended = false;
  for (char c; !ended;) {
    ssize_t n = ::read(in, &c, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    if (c == '\n')
      ended = true;
    else
      line += c;
  }
  if (tty) ::tcsetattr(in, TCSAFLUSH, &saved);
  if (!ended && line.empty()) throw Error("no SM_Key typed (end of input)");
  return line;
}

std::string read_secret_from_tty(std::string_view prompt) {
  int fd = ::open("/dev/tty", O_RDWR | O_CLOEXEC);
  if (fd < 0)
    throw Error(std::string("smkey x: no terminal to read the SM_Key from (/dev/tty: ") +
                std::strerror(errno) + ")");
  try {
    std::string s = read_secret(fd, fd, prompt);
    ::close(fd);
    return s;
  } catch (...) {
    ::close(fd);
    throw;
  }
}

}  // namespace rdma
