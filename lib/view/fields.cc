#include "lib/view/fields.h"

namespace rdma::view {

// By hand rather than snprintf: a device line shows two GUIDs, and the
// format parsing cost more than the rest of the field. Four groups of four
// digits, each group's from one 16-bit word (a colon test and a shift by a
// computed count for every digit cost twelve instructions a digit).
char* guid_chars(uint64_t v, char* out) {
  static const char kHex[] = "0123456789abcdef";
  for (int shift = 48;; shift -= 16) {
    unsigned w = static_cast<unsigned>(v >> shift) & 0xffff;
    out[0] = kHex[w >> 12];
    out[1] = kHex[w >> 8 & 15];
    out[2] = kHex[w >> 4 & 15];
    out[3] = kHex[w & 15];
    out += 4;
    if (shift == 0) return out;
    *out++ = ':';
  }
}

std::string guid_colons(uint64_t v) {
  char buf[19];
  return std::string(buf, guid_chars(v, buf));
}

}  // namespace rdma::view
