#include "lib/res/comm.h"

#include <cstdio>
#include <string>

namespace rdma::res {

std::optional<std::string> process_name(uint32_t pid) {
  if (!pid) return std::nullopt;
  std::string path = "/proc/" + std::to_string(pid) + "/comm";
  std::FILE* f = std::fopen(path.c_str(), "r");
  if (!f) return std::nullopt;
  char buf[64];
  size_t n = std::fread(buf, 1, sizeof buf, f);
  std::fclose(f);
  std::string s(buf, n);
  return s.substr(0, s.find('\n'));
}

const std::optional<std::string>& CommReader::get(uint32_t pid) {
  if (!valid_ || pid != pid_) {
    pid_ = pid;
    comm_ = process_name(pid);
    valid_ = true;
  }
  return comm_;
}

}  // namespace rdma::res
