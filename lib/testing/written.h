// What a writer to a stdio stream writes, as a string: the tests of the
// file and view writers (write_topology, write_fabric) compare it.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

namespace rdma::testio {

template <typename Write>
std::string written(Write&& write) {
  char* buf = nullptr;
  size_t len = 0;
  std::FILE* out = open_memstream(&buf, &len);
  write(out);
  std::fclose(out);
  std::string s(buf, len);
  std::free(buf);
  return s;
}

}  // namespace rdma::testio
