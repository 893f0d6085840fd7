// A line's field without the blanks around it (spaces, tabs, and the '\r'
// of a file written on Windows): what the readers of the site's and the
// user's text files (cable plans, ibdiag.conf) take as the value.
#pragma once

#include <string>

namespace rdma::view {

inline std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

}  // namespace rdma::view
