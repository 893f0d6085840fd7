#include "lib/view/fields.h"

#include <cstdio>

namespace rdma::view {

std::string guid_text(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%04x:%04x:%04x:%04x", unsigned(v >> 48) & 0xffff,
                unsigned(v >> 32) & 0xffff, unsigned(v >> 16) & 0xffff, unsigned(v) & 0xffff);
  return buf;
}

}  // namespace rdma::view
