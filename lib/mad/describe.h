// A whole MAD as records (header, then attribute), for `rdma mad decode` and
// the -dd trace; and the hex text both read and write.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lib/view/record.h"

namespace rdma::mad {

// Decodes the header (by class) and, when the class and attribute are
// known, the attribute with every field; keys (M_Key, SM_Key, CC_Key ...)
// in clear only with show_keys (bytes given to mad decode are shown
// whole; the -dd trace hides them without --show-keys). Throws Error for
// a MAD shorter than 256 bytes or of another base version.
void describe(std::span<const uint8_t> mad, view::Record& header, view::Record& attr,
              bool show_keys = true);

// Hex bytes: pairs of digits, optionally 0x-prefixed, separated by
// whitespace, ':' or ','. Throws Error naming the first bad character.
std::vector<uint8_t> parse_hex(std::string_view text);

// 16 bytes a line, space separated.
std::string hex_dump(std::span<const uint8_t> bytes);

// 16 bytes a line in groups of two ("0000 0a01 ..."), as smpdump prints an
// attribute (libibmad's xdump).
std::string smpdump_text(std::span<const uint8_t> bytes);

// The bytes as one string of hex digits, lowercase ("000a01..."): a raw
// attribute in JSON.
std::string hex_string(std::span<const uint8_t> bytes);

}  // namespace rdma::mad
