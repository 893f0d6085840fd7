#include "lib/mad/bits.h"

namespace rdma::mad {

uint64_t get_bits(std::span<const uint8_t> buf, unsigned bit, unsigned width) {
  uint64_t v = 0;
  unsigned end = bit + width;
  while (bit < end) {
    unsigned byte = bit / 8, in = bit % 8;
    unsigned take = 8 - in < end - bit ? 8 - in : end - bit;
    unsigned chunk = (buf[byte] >> (8 - in - take)) & ((1u << take) - 1);
    v = (v << take) | chunk;
    bit += take;
  }
  return v;
}

void set_bits(std::span<uint8_t> buf, unsigned bit, unsigned width, uint64_t v) {
  unsigned end = bit + width;
  while (bit < end) {
    unsigned byte = bit / 8, in = bit % 8;
    unsigned take = 8 - in < end - bit ? 8 - in : end - bit;
    unsigned shift = 8 - in - take;
    unsigned mask = ((1u << take) - 1) << shift;
    unsigned left = end - bit - take;  // bits of v still to store after this chunk
    unsigned chunk = static_cast<unsigned>(v >> left) & ((1u << take) - 1);
    buf[byte] = static_cast<uint8_t>((buf[byte] & ~mask) | (chunk << shift));
    bit += take;
  }
}

}  // namespace rdma::mad
