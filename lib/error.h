// One error type for the whole tool: a message for the user, printed as one
// line on stderr by the front end.
#pragma once

#include <stdexcept>
#include <string>

namespace rdma {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& msg) : std::runtime_error(msg) {}
};

// A malformed command line (an unknown word, a missing or extra argument, a
// value that does not parse): found before anything was asked of the kernel
// or printed, so with -j stdout stays empty rather than "[]".
class UsageError : public Error {
 public:
  explicit UsageError(const std::string& msg) : Error(msg) {}
};

// An error the kernel answered with; code is its positive errno.
class KernelError : public Error {
 public:
  KernelError(int code, const std::string& msg) : Error(msg), code(code) {}
  int code;
};

}  // namespace rdma
