// Names of the processes that own resources: the kernel sends only a pid,
// the name is /proc/PID/comm as the tool sees it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace rdma::res {

// A process's name: the line /proc/PID/comm holds, blanks included, as
// iproute2 6.1 reads it (fgets, cut at the newline); nullopt for pid 0 or a
// process that is gone or not visible here.
std::optional<std::string> process_name(uint32_t pid);

class CommReader {
 public:
  // nullopt when the process is gone or not visible in this pid namespace.
  // Remembers the last pid only: entries of one process come in a row, and
  // memory stays flat however many there are.
  const std::optional<std::string>& get(uint32_t pid);

 private:
  uint32_t pid_ = 0;
  std::optional<std::string> comm_;
  bool valid_ = false;
};

}  // namespace rdma::res
