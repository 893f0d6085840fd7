// Loading the libraries only some commands use (libibumad for the MAD
// commands, libibverbs for the verbs views) with dlopen, so that the
// netlink commands never map them or their providers.
#pragma once

#include <string>

#include "lib/error.h"

namespace rdma::dl {

// A handle for soname, or nullptr with *why set.
void* open(const char* soname, std::string* why);
void* sym(void* handle, const char* name);

// Sets fn to the function name of handle (the library soname); throws
// Error "cannot use SONAME: it has no NAME (NEEDS)" when it has none: a
// library older than the tool, said in one line before anything is done.
template <typename Fn>
void bind(void* handle, const char* soname, const char* name, Fn& fn, const char* needs = nullptr) {
  void* p = sym(handle, name);
  if (!p)
    throw Error(std::string("cannot use ") + soname + ": it has no " + name +
                (needs ? std::string(" (") + needs + ")" : std::string()));
  fn = reinterpret_cast<Fn>(p);
}

}  // namespace rdma::dl
