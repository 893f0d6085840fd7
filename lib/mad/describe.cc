#include "lib/mad/describe.h"

#include <cctype>
#include <cstdio>

#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/mad/format.h"
#include "lib/mad/mad.h"
#include "lib/view/number.h"

namespace rdma::mad {

void describe(std::span<const uint8_t> mad, view::Record& header, view::Record& attr,
              bool show_keys) {
  if (mad.size() < kMadBytes)
    throw Error("truncated MAD: " + std::to_string(mad.size()) + " bytes, a MAD has " +
                std::to_string(kMadBytes));
  Mad m;
  std::copy(mad.begin(), mad.begin() + kMadBytes, m.bytes.begin());
  if (m.get(hdr::kBaseVersion) != 1)
    throw Error("not a MAD: base version " + std::to_string(m.get(hdr::kBaseVersion)) +
                " (expected 1)");
  uint8_t cls = m.mgmt_class();
  decode_fields(header_fields(cls), m.bytes, 1, header, {.show_keys = show_keys});
  header.pair("attribute", attr_name(cls, m.get(hdr::kAttrId)));
  if (const AttrDef* a = attr_by_id(cls, m.get(hdr::kAttrId))) {
    std::span<const uint8_t> data = std::span(m.bytes).subspan(data_offset(cls));
    decode(*a, data, 1, attr, {.show_keys = show_keys});
  }
}

std::vector<uint8_t> parse_hex(std::string_view text) {
  std::vector<uint8_t> out;
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c)) || c == ':' || c == ',') {
      ++i;
      continue;
    }
    if (c == '0' && i + 1 < text.size() && (text[i + 1] == 'x' || text[i + 1] == 'X')) i += 2;
    std::optional<uint64_t> byte;
    if (i + 1 < text.size()) byte = view::parse_number(text.substr(i, 2), {.hex = true});
    if (!byte)
      throw Error("invalid hex at offset " + std::to_string(i) +
                  " (expected pairs of hex digits, e.g. \"01 81 01 01\")");
    out.push_back(static_cast<uint8_t>(*byte));
    i += 2;
  }
  return out;
}

std::string hex_dump(std::span<const uint8_t> bytes) {
  std::string out;
  char buf[4];
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%02x", bytes[i]);
    out += buf;
    out += (i % 16 == 15 || i + 1 == bytes.size()) ? "\n" : " ";
  }
  return out;
}

std::string smpdump_text(std::span<const uint8_t> bytes) {
  std::string out;
  char buf[4];
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%02x", bytes[i]);
    out += buf;
    if (i + 1 == bytes.size() || i % 16 == 15)
      out += '\n';
    else if (i % 2 == 1)
      out += ' ';
  }
  return out;
}

std::string hex_string(std::span<const uint8_t> bytes) {
  std::string out;
  char buf[4];
  for (uint8_t b : bytes) {
    std::snprintf(buf, sizeof buf, "%02x", b);
    out += buf;
  }
  return out;
}

}  // namespace rdma::mad
