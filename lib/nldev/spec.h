// An nldev view's fields, declared once: which attribute, the JSON key, how
// the text shows it, and at which detail level. decode_attrs() turns attributes
// into a Record that either printer can render.
#pragma once

#include <span>
#include <string>

#include "lib/nl/attrs.h"
#include "lib/view/record.h"

namespace rdma::nldev {

// How a value is rendered (text and JSON).
enum class Fmt {
  U32,        // decimal number
  U64,        // decimal number
  Str,        // string
  Guid,       // u64 as xxxx:xxxx:xxxx:xxxx
  Hex32,      // u32 as 0x%x in text and JSON string
  Hex64,      // u64 as 0x%llx
  OnOff,      // u8 as on/off in text, JSON boolean
  NodeType,   // u8 node type name
  PortState,  // u8 IB port state name
  PhysState,  // u8 IB physical port state name
  DevCaps,    // u64 device capability names, "\n    caps: <A, B>"
  PortCaps,   // u64 port capability names
  NetnsMode,  // u8 shared/exclusive
  Custom,     // FieldSpec::render decides (views with formats of their own)
};

// For Fmt::Custom: fills text and json from the attribute; false hides the
// field.
using RenderFn = bool (*)(const nl::Attrs& a, int attr, std::string& text, view::Json& json);

enum Level { kAlways = 0, kDetails = 1, kDriver = 2 };

struct FieldSpec {
  int attr;          // nldev attribute holding the value
  const char* key;   // JSON key; nullptr: text only
  const char* text;  // text template, "%s" is the value; nullptr: JSON only
  Fmt fmt;
  int level = kAlways;  // shown with at least this many -d
  RenderFn render = nullptr;
};

// Appends the fields present in attrs, in declaration order.
void decode_attrs(const nl::Attrs& attrs, std::span<const FieldSpec> spec, int detail,
                  view::Record& out);

// Appends one field from a spec (for views that mix in computed fields).
bool decode_field(const nl::Attrs& attrs, const FieldSpec& f, view::Record& out);

}  // namespace rdma::nldev
