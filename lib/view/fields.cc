#include "lib/view/fields.h"

namespace rdma::view {

// By hand rather than snprintf: a device line shows two GUIDs, and the
// format parsing cost more than the rest of the field.
char* guid_chars(uint64_t v, char* out) {
  static const char kHex[] = "0123456789abcdef";
  for (int i = 0; i < 16; ++i) {
    if (i && i % 4 == 0) *out++ = ':';
    *out++ = kHex[v >> (60 - 4 * i) & 15];
  }
  return out;
}

std::string guid_text(uint64_t v) {
  char buf[19];
  return std::string(buf, guid_chars(v, buf));
}

}  // namespace rdma::view
