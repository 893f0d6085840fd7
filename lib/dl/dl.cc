#include "lib/dl/dl.h"

#include <dlfcn.h>

namespace rdma::dl {

void* open(const char* soname, std::string* why) {
  // RTLD_NOW: a library without one of our symbols fails here, in one clear
  // line, not in the middle of a sweep.
  void* h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char* e = dlerror();
    *why = e ? e : "unknown error";
  }
  return h;
}

void* sym(void* handle, const char* name) {
  return dlsym(handle, name);
}

}  // namespace rdma::dl
