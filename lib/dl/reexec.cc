// lib/dl for the statically linked front end: instead of loading a library,
// become the dynamic build of the same tool (see dl.h). The names come from
// CMakeLists.txt: RDMA_DYNAMIC_NAME (rdma-dynamic), RDMA_DYNAMIC_RELPATH
// (from the bin directory to it, installed), RDMA_DYNAMIC_PATH (absolute).
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "lib/dl/companion.h"
#include "lib/dl/dl.h"

namespace rdma::dl {

namespace {

std::vector<char*>& saved_argv() {
  static std::vector<char*> argv;
  return argv;
}

std::string self_exe() {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}

// Set in the environment of the exec: a static rdma that finds it set was
// itself started as "rdma-dynamic" (a misinstalled copy) and must not exec
// again, which would loop for ever.
constexpr char kMarker[] = "RDMA_STATIC_FRONTEND_EXEC";

// Returns only when no dynamic build could be run; why says what was tried.
void exec_dynamic(std::string* why) {
  if (getenv(kMarker)) {
    *why = "this rdma is linked statically, and so is the rdma-dynamic that ran it (" + self_exe() +
           ")";
    return;
  }
  std::vector<char*> argv = saved_argv();
  if (argv.empty() || argv.back() != nullptr) argv.push_back(nullptr);
  std::string tried;
  for (const std::string& path :
       companion_paths(self_exe(), RDMA_DYNAMIC_NAME, RDMA_DYNAMIC_RELPATH, RDMA_DYNAMIC_PATH)) {
    if (access(path.c_str(), X_OK) != 0) continue;
    setenv(kMarker, "1", 1);
    execv(path.c_str(), argv.data());
    tried = path + ": " + std::strerror(errno);
    unsetenv(kMarker);
  }
  *why = "this rdma is linked statically and needs its dynamic build to load it (" +
         (tried.empty() ? std::string(RDMA_DYNAMIC_PATH) + " not found" : tried) + ")";
}

}  // namespace

void set_argv(std::vector<char*> argv) {
  saved_argv() = std::move(argv);
}

void* open(const char*, std::string* why) {
  exec_dynamic(why);
  return nullptr;
}

void* sym(void*, const char*) {
  return nullptr;
}

void become_dynamic() {
  std::string why;
  exec_dynamic(&why);
}

}  // namespace rdma::dl
