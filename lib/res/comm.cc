#include "lib/res/comm.h"

#include <cstdio>
#include <string>

namespace rdma::res {

namespace {

std::optional<std::string> read_comm(uint32_t pid) {
  std::string path = "/proc/" + std::to_string(pid) + "/comm";
  std::FILE* f = std::fopen(path.c_str(), "r");
  if (!f) return std::nullopt;
  char buf[64];
  size_t n = std::fread(buf, 1, sizeof buf, f);
  std::fclose(f);
  std::string s(buf, n);
  if (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

}  // namespace

const std::optional<std::string>& CommReader::get(uint32_t pid) {
  if (!valid_ || pid != pid_) {
    pid_ = pid;
    comm_ = read_comm(pid);
    valid_ = true;
  }
  return comm_;
}

}  // namespace rdma::res
