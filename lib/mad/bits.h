// Big-endian bit fields as the IBA numbers them: bit 0 is the most
// significant bit of byte 0. Every field table in lib/mad goes through here.
#pragma once

#include <cstdint>
#include <span>

namespace rdma::mad {

// The width-bit value (width 1..64) at bit offset bit. The caller keeps the
// field inside buf (field tables are checked against attribute sizes).
uint64_t get_bits(std::span<const uint8_t> buf, unsigned bit, unsigned width);

// Stores the low width bits of v at bit offset bit.
void set_bits(std::span<uint8_t> buf, unsigned bit, unsigned width, uint64_t v);

}  // namespace rdma::mad
