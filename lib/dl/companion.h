// Where the static front end finds the dynamic build of rdma (lib/dl/dl.h).
#pragma once

#include <string>
#include <vector>

namespace rdma::dl {

// The paths to try, in order, for a front end running as self_exe:
//   beside it, named dynamic_name        (the build tree, the test VM);
//   relpath from its directory           (installed under any prefix, or
//                                         a package unpacked anywhere);
//   abs_path                             (installed; /proc not mounted).
// An empty self_exe leaves out the first two.
std::vector<std::string> companion_paths(const std::string& self_exe,
                                         const std::string& dynamic_name,
                                         const std::string& relpath, const std::string& abs_path);

}  // namespace rdma::dl
