// Loading the libraries only some commands use (libibumad for the MAD
// commands, libibverbs for the verbs views) with dlopen, so that the
// netlink commands never map them or their providers.
#pragma once

#include <string>

namespace rdma::dl {

// A handle for soname, or nullptr with *why set.
void* open(const char* soname, std::string* why);
void* sym(void* handle, const char* name);

}  // namespace rdma::dl
