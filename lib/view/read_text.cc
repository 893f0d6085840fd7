#include "lib/view/read_text.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "lib/error.h"

namespace rdma::view {

std::string cannot_read(const std::string& path, const std::string& what, int err) {
  return "cannot read " + what + " \"" + path + "\": " + std::strerror(err);
}

std::string read_text(const std::string& path, const std::string& what) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw Error(cannot_read(path, what, errno));
  std::string text;
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int e = errno;
      ::close(fd);
      throw Error(cannot_read(path, what, e));
    }
    if (n == 0) break;
    text.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return text;
}

}  // namespace rdma::view
