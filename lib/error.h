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

// An error the kernel answered with; code is its positive errno.
class KernelError : public Error {
 public:
  KernelError(int code, const std::string& msg) : Error(msg), code(code) {}
  int code;
};

}  // namespace rdma
