// Shared by the libFuzzer targets (tests/fuzz/fuzz_*.cc): a null output and
// an in-memory stdin, so a target never touches the host (no netns, no
// sleeping -w). MAD commands fail at once: an Env's MAD access (Env::mad)
// is empty unless set, and the targets set none, so no umad port is opened.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "lib/error.h"
#include "lib/mad/transport.h"
#include "rdma/options.h"
#include "rdma/rdma.h"

namespace rdma::fuzz {

inline std::FILE* null_file() {
  static std::FILE* f = std::fopen("/dev/null", "w");
  return f;
}

// Whether a command line may run in-process: not one that waits by design
// (-w), reads files or the host (-b, -n). Malformed options are fine: run()
// rejects them itself.
inline bool safe_to_run(std::vector<std::string> args) {
  try {
    Options o = parse_options(args);
    return !o.watch_s && !o.batch && !o.netns;
  } catch (const Error&) {
    return true;
  }
}

// The bytes as a file the parsers under test open by name (they take a
// path, as the tool does): an anonymous memory file, named through
// /proc/self/fd, so no run writes to the disk. Closed when it goes.
class MemFile {
 public:
  MemFile(const uint8_t* data, size_t size) : fd_(memfd_create("fuzz", MFD_CLOEXEC)) {
    for (size_t off = 0; fd_ >= 0 && off < size;) {
      ssize_t n = ::write(fd_, data + off, size - off);
      if (n <= 0) break;
      off += static_cast<size_t>(n);
    }
  }
  ~MemFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  MemFile(const MemFile&) = delete;
  MemFile& operator=(const MemFile&) = delete;
  bool ok() const { return fd_ >= 0; }
  std::string path() const { return "/proc/self/fd/" + std::to_string(fd_); }

 private:
  int fd_;
};

}  // namespace rdma::fuzz
