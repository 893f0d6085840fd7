// Turns attribute bytes into records by their field tables: text
// "label value" pairs, and JSON with the same keys and values (numbers stay
// numbers; names, hex and GUIDs are the text's strings).
#pragma once

#include <cstdint>
#include <span>
#include <string>

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

// Appends every field at or below detail; tables (count > 1) become one
// field with a comma-separated text and a JSON array. Throws Error when attr
// is shorter than the attribute. fdr10: the vendor's MlnxExtPortInfo says
// the port runs FDR10, which PortInfo's speed keys then read.
void decode(const AttrDef& a, std::span<const uint8_t> attr, int detail, view::Record& out,
            bool fdr10 = false);

// The same for a bare field list (MAD headers).
void decode_fields(std::span<const FieldDef> fields, std::span<const uint8_t> bytes, int detail,
                   view::Record& out, bool fdr10 = false);

// A numeric value as text in the given format ("4X", "ACTIVE", "0x0012").
std::string value_text(Fmt fmt, uint64_t v, unsigned width = 64);

// Names shared with callers that print enumerations themselves.
const char* port_state_name(unsigned v);
const char* phys_state_name(unsigned v);

// 16 bytes as an IPv6 address (GIDs).
std::string gid_text(std::span<const uint8_t, 16> gid);

}  // namespace rdma::mad
