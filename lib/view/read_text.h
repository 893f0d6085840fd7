// A whole file read into a string, with the one error wording every file
// the tool reads shares: `cannot read WHAT "PATH": REASON`.
#pragma once

#include <string>

namespace rdma::view {

// The file's bytes. what names the file for the user ("the M_Key file");
// Error when it cannot be opened or read (a directory included: an
// ifstream reads one as empty).
std::string read_text(const std::string& path, const std::string& what);

// The error read_text throws, for a caller that finds the file missing
// before opening it.
std::string cannot_read(const std::string& path, const std::string& what, int err);

}  // namespace rdma::view
