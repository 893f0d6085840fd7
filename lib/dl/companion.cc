#include "lib/dl/companion.h"

namespace rdma::dl {

std::vector<std::string> companion_paths(const std::string& self_exe,
                                         const std::string& dynamic_name,
                                         const std::string& relpath, const std::string& abs_path) {
  std::vector<std::string> paths;
  size_t slash = self_exe.rfind('/');
  if (slash != std::string::npos) {
    std::string dir = self_exe.substr(0, slash + 1);
    paths.push_back(dir + dynamic_name);
    if (!relpath.empty()) paths.push_back(dir + relpath);
  }
  if (!abs_path.empty()) paths.push_back(abs_path);
  return paths;
}

}  // namespace rdma::dl
