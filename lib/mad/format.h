// Turns attribute bytes into records by their field tables: text
// "label value" pairs, and JSON with the same keys and values (numbers stay
// numbers; names, hex and GUIDs are the text's strings).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "lib/mad/field.h"
#include "lib/view/record.h"

namespace rdma::mad {

// The value of element index of f (0 for plain fields), as text and JSON.
void render(const FieldDef& f, std::span<const uint8_t> attr, unsigned index, std::string& text,
            view::Json& json);

// A numeric value of f as render gives it: text in f's format, JSON the
// number for Fmt::Uint and the text otherwise.
void render_value(const FieldDef& f, uint64_t v, std::string& text, view::Json& json);

// A table's values (f's elements, as many as there are) as one field of
// out, as decode gives a table: "label v,v,v " and a JSON array.
void add_values(const FieldDef& f, std::span<const uint64_t> values, view::Record& out);

// What a key field (Fmt::Key) shows unless show_keys, in text and JSON, as
// infiniband-diags prints it without -K.
inline constexpr const char* kNotDisplayed = "<not displayed>";

// What decode shows beyond the fields at a detail level.
struct DecodeOptions {
  bool show_keys = false;  // keys (Fmt::Key) in clear, not kNotDisplayed
  // The vendor's MlnxExtPortInfo says the port runs FDR10, which PortInfo's
  // speed keys then read.
  bool fdr10 = false;
  // The PortInfo whose capability masks say which extended speed fields
  // PortInfo's speed keys may read (lib/mad/speed.h): the port's own, or a
  // switch's port 0. Empty: every field as it is, as smpquery prints it.
  std::span<const uint8_t> speed_caps = {};
};

// Appends every field at or below detail; tables (count > 1) become one
// field with a comma-separated text and a JSON array. Throws Error when
// attr is shorter than the attribute.
void decode(const AttrDef& a, std::span<const uint8_t> attr, int detail, view::Record& out,
            const DecodeOptions& o = {});

// The same for a bare field list (MAD headers).
void decode_fields(std::span<const FieldDef> fields, std::span<const uint8_t> bytes, int detail,
                   view::Record& out, const DecodeOptions& o = {});

// A numeric value as text in the given format ("4X", "ACTIVE", "0x0012").
std::string value_text(Fmt fmt, uint64_t v, unsigned width = 64);

// A counter's value in the unit it is shown in: the data counters count
// 4-byte words (IBA 16.1.3.5) and are shown in bytes, times 4, stopping at
// the largest uint64_t (a 64-bit counter saturated or close to it); other
// counters as they are.
uint64_t shown_value(Fmt fmt, uint64_t v);

// Names shared with callers that print enumerations themselves.
const char* port_state_name(unsigned v);
const char* phys_state_name(unsigned v);

// 16 bytes as an IPv6 address (GIDs).
std::string gid_text(std::span<const uint8_t, 16> gid);

// A GUID as the InfiniBand tools print it: 0x and 16 hex digits. (The
// netlink views keep iproute2's xxxx:xxxx:xxxx:xxxx, view::guid_colons.)
std::string guid_hex(uint64_t v);

// A NodeDescription (or the name a node-name-map gives it) for text: in
// double quotes, with '"' and '\\' escaped by a backslash and every other
// byte below 0x20 or 0x7f as \xHH; bytes from 0x80 (UTF-8) as they are.
std::string desc_text(std::string_view s);

// A NUL-padded string field's text: its bytes up to the first NUL (a
// NodeDescription: the attribute's 64 bytes, or fewer when bytes is short).
std::string c_string(std::span<const uint8_t> bytes);

}  // namespace rdma::mad
