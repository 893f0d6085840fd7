#include "lib/nldev/spec.h"

#include <charconv>
#include <cstring>
#include <string_view>

#include "lib/nldev/names.h"
#include "lib/view/fields.h"
#include "lib/view/json_writer.h"

namespace rdma::nldev {

namespace {

// Appends the text template with each "%s" replaced by what put(out)
// appends (runs of the template in one append, not one a character; strchr
// for the '%', as strstr cost more than the appends). Appends by pointer and
// length: a range of iterators goes through std::string's general replace,
// twice the cost.
template <typename Put>
void fill_with(std::string& out, const char* tmpl, Put&& put) {
  const char* run = tmpl;
  for (const char* at = tmpl; (at = std::strchr(at, '%'));) {
    if (at[1] != 's') {
      ++at;
      continue;
    }
    out.append(run, static_cast<size_t>(at - run));
    put(out);
    run = at += 2;
  }
  out.append(run, std::strlen(run));
}

void fill(std::string& out, const char* tmpl, std::string_view value) {
  fill_with(out, tmpl, [value](std::string& o) { o.append(value.data(), value.size()); });
}

// v as 0x%x into buf (at least 20 bytes).
std::string_view hex(uint64_t v, char* buf) {
  buf[0] = '0';
  buf[1] = 'x';
  return {buf, std::to_chars(buf + 2, buf + 20, v, 16).ptr};
}

using CapName = const char* (*)(unsigned);

// Capability bits as names, "A, B", appended where the text template puts
// them: no string of its own to build (and grow) for every device.
void append_caps(uint64_t bits, CapName name, std::string& text) {
  bool any = false;  // a name written yet (the separator goes after one)
  for (unsigned i = 0; i < 64; ++i) {
    if (!(bits >> i & 1)) continue;
    if (any) text.append(", ", 2);
    const char* n = name(i);
    size_t len = std::strlen(n);
    text.append(n, len);
    any = any || len;
  }
}

// The same as a JSON list, ["A","B"].
view::Json caps_json(uint64_t bits, CapName name) {
  view::Json json = view::Json::array();
  for (unsigned i = 0; i < 64; ++i)
    if (bits >> i & 1) json.push_back(name(i));
  return json;
}

// The fields whose JSON form is a list or a renderer's choice, as Json.
bool decode_built(const nl::Attrs& a, const FieldSpec& f, view::Record& out) {
  if (f.fmt == Fmt::DevCaps || f.fmt == Fmt::PortCaps) {
    CapName name = f.fmt == Fmt::DevCaps ? dev_cap_name : port_cap_name;
    uint64_t bits = a.u64(f.attr);
    view::Field& field = out.next();
    if (f.text) fill_with(field.text, f.text, [&](std::string& t) { append_caps(bits, name, t); });
    if (out.text_only()) return true;
    if (f.key) field.key.assign(f.key);
    field.value = caps_json(bits, name);
    return true;
  }
  std::string text;
  view::Json json;
  if (!f.render || !f.render(a, f.attr, text, json)) return false;
  view::Field& field = out.next();
  if (f.text) fill(field.text, f.text, text);
  if (out.text_only()) return true;
  if (f.key) field.key.assign(f.key);
  field.value = std::move(json);
  return true;
}

}  // namespace

bool decode_field(const nl::Attrs& a, const FieldSpec& f, view::Record& out) {
  if (!a.has(f.attr)) return false;
  // The value's text and its JSON form go straight into the record's field,
  // which keeps its storage from the last object: no std::string or Json
  // value is built for a scalar (their allocations were most of a batch
  // line's decoding). Caps lists and custom renderers still build a Json.
  char num[32];
  std::string_view text;
  enum class As { Number, String, Bool } as = As::String;
  switch (f.fmt) {
    case Fmt::U32: {
      // A u8 shown as a number (LMC) is read at its width: four bytes
      // would take its padding for the high bytes.
      uint32_t v = nl::Attrs::payload_len(a.get(f.attr)) == 1 ? a.u8(f.attr) : a.u32(f.attr);
      text = {num, std::to_chars(num, num + sizeof num, v).ptr};
      as = As::Number;
      break;
    }
    case Fmt::U64:
      text = {num, std::to_chars(num, num + sizeof num, a.u64(f.attr)).ptr};
      as = As::Number;
      break;
    case Fmt::Str:
      text = a.str(f.attr);
      break;
    case Fmt::Guid:
      text = {num, view::guid_chars(a.u64(f.attr), num)};
      break;
    case Fmt::Hex32:
      text = hex(a.u32(f.attr), num);
      break;
    case Fmt::Hex64:
      text = hex(a.u64(f.attr), num);
      break;
    case Fmt::OnOff: {
      uint8_t v = a.u8(f.attr);
      if (v > 1) return false;  // the kernel's "not supported"
      text = v ? "on" : "off";
      as = As::Bool;
      break;
    }
    case Fmt::NodeType:
      text = node_type_name(a.u8(f.attr));
      break;
    case Fmt::PortState:
      text = port_state_name(a.u8(f.attr));
      break;
    case Fmt::PhysState:
      text = phys_state_name(a.u8(f.attr));
      break;
    case Fmt::NetnsMode: {
      uint8_t v = a.u8(f.attr);
      text = v == 0 ? "exclusive" : v == 1 ? "shared" : "unknown";
      break;
    }
    case Fmt::DevCaps:
    case Fmt::PortCaps:
    case Fmt::Custom:
      return decode_built(a, f, out);
  }
  view::Field& field = out.next();
  if (f.key && !out.text_only()) {
    field.key.assign(f.key);
    switch (as) {
      case As::Number:
        field.json.assign(text);
        break;
      case As::String:
        view::JsonWriter::quote(text, field.json);
        break;
      case As::Bool:
        field.json.assign(text == "on" ? "true" : "false");
        break;
    }
  }
  if (f.text) fill(field.text, f.text, text);
  return true;
}

void decode_attrs(const nl::Attrs& attrs, std::span<const FieldSpec> spec, int detail,
                  view::Record& out) {
  for (const FieldSpec& f : spec)
    if (f.level <= detail) decode_field(attrs, f, out);
}

}  // namespace rdma::nldev
