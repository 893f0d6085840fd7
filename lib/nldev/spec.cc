#include "lib/nldev/spec.h"

#include <cinttypes>
#include <cstdio>

#include "lib/nldev/names.h"
#include "lib/view/fields.h"

namespace rdma::nldev {

namespace {

// Appends the text template with its "%s" replaced by the value.
void fill(std::string& out, const char* tmpl, const std::string& value) {
  for (const char* p = tmpl; *p; ++p) {
    if (p[0] == '%' && p[1] == 's') {
      out += value;
      ++p;
    } else {
      out += *p;
    }
  }
}

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%" PRIx64, v);
  return buf;
}

// Capability bits as names: text "A, B", JSON ["A","B"].
void caps(uint64_t bits, const char* (*name)(unsigned), std::string& text, view::Json& json) {
  json = view::Json::array();
  for (unsigned i = 0; i < 64; ++i) {
    if (!(bits >> i & 1)) continue;
    if (!text.empty()) text += ", ";
    text += name(i);
    json.push_back(name(i));
  }
}

}  // namespace

bool decode_field(const nl::Attrs& a, const FieldSpec& f, view::Record& out) {
  if (!a.has(f.attr)) return false;
  std::string text;
  view::Json json;
  switch (f.fmt) {
    case Fmt::U32:
      json = a.u32(f.attr);
      text = std::to_string(a.u32(f.attr));
      break;
    case Fmt::U64:
      json = a.u64(f.attr);
      text = std::to_string(a.u64(f.attr));
      break;
    case Fmt::Str:
      text = std::string(a.str(f.attr));
      json = text;
      break;
    case Fmt::Guid:
      text = view::guid_text(a.u64(f.attr));
      json = text;
      break;
    case Fmt::Hex32:
      text = hex(a.u32(f.attr));
      json = text;
      break;
    case Fmt::Hex64:
      text = hex(a.u64(f.attr));
      json = text;
      break;
    case Fmt::OnOff: {
      uint8_t v = a.u8(f.attr);
      if (v > 1) return false;  // the kernel's "not supported"
      text = v ? "on" : "off";
      json = bool(v);
      break;
    }
    case Fmt::NodeType:
      text = node_type_name(a.u8(f.attr));
      json = text;
      break;
    case Fmt::PortState:
      text = port_state_name(a.u8(f.attr));
      json = text;
      break;
    case Fmt::PhysState:
      text = phys_state_name(a.u8(f.attr));
      json = text;
      break;
    case Fmt::DevCaps:
      caps(a.u64(f.attr), dev_cap_name, text, json);
      break;
    case Fmt::PortCaps:
      caps(a.u64(f.attr), port_cap_name, text, json);
      break;
    case Fmt::NetnsMode: {
      uint8_t v = a.u8(f.attr);
      text = v == 0 ? "exclusive" : v == 1 ? "shared" : "unknown";
      json = text;
      break;
    }
    case Fmt::Custom:
      if (!f.render || !f.render(a, f.attr, text, json)) return false;
      break;
  }
  // Filled in place: the record's field keeps its storage from the last
  // object, so a warm record allocates nothing here.
  view::Field& field = out.next();
  if (f.key) field.key.assign(f.key);
  if (f.text) fill(field.text, f.text, text);
  field.value = std::move(json);
  return true;
}

void decode(const nl::Attrs& attrs, std::span<const FieldSpec> spec, int detail,
            view::Record& out) {
  for (const FieldSpec& f : spec)
    if (f.level <= detail) decode_field(attrs, f, out);
}

}  // namespace rdma::nldev
