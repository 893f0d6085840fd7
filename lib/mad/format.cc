#include "lib/mad/format.h"

#include <arpa/inet.h>

#include <cinttypes>
#include <cstdio>

#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/mad/bits.h"
#include "lib/mad/speed.h"
#include "lib/mad/types.h"
#include "lib/view/fields.h"
#include "lib/view/number.h"

namespace rdma::mad {

namespace {

struct Name {
  unsigned value;
  const char* name;
};

constexpr Name kPortStates[] = {
    {0, "NOP"}, {1, "DOWN"}, {2, "INIT"}, {3, "ARMED"}, {4, "ACTIVE"},
};
constexpr Name kPhysStates[] = {
    {0, "NOP"},
    {1, "SLEEP"},
    {2, "POLLING"},
    {3, "DISABLED"},
    {4, "PORT_CONFIGURATION_TRAINING"},
    {5, "LINK_UP"},
    {6, "LINK_ERROR_RECOVERY"},
    {7, "PHY_TEST"},
};
constexpr Name kLinkDownDef[] = {{0, "NOCHANGE"}, {1, "SLEEP"}, {2, "POLLING"}};
constexpr Name kWidths[] = {{1, "1X"}, {2, "4X"}, {4, "8X"}, {8, "12X"}, {16, "2X"}};
constexpr Name kSpeeds[] = {{1, "2.5"}, {2, "5.0"}, {4, "10.0"}};
constexpr Name kSpeedsExt[] = {{1, "14.0625"}, {2, "25.78125"}, {4, "53.125"}, {8, "106.25"}};
constexpr Name kMtus[] = {{1, "256"}, {2, "512"}, {3, "1024"}, {4, "2048"}, {5, "4096"}};
constexpr Name kVlCaps[] = {{1, "VL0"}, {2, "VL0-1"}, {3, "VL0-3"}, {4, "VL0-7"}, {5, "VL0-14"}};
constexpr Name kSmStates[] = {{0, "NOTACTIVE"}, {1, "DISCOVERING"}, {2, "STANDBY"}, {3, "MASTER"}};

template <size_t N>
std::string name_of(const Name (&names)[N], uint64_t v) {
  for (const Name& n : names)
    if (n.value == v) return n.name;
  return "unknown(" + std::to_string(v) + ")";
}

// A set of flags: "1X,4X"; "none" when empty.
template <size_t N>
std::string mask_of(const Name (&names)[N], uint64_t v) {
  std::string out;
  for (const Name& n : names) {
    if (!(v & n.value)) continue;
    if (!out.empty()) out += ',';
    out += n.name;
    v &= ~uint64_t(n.value);
  }
  if (v) out += (out.empty() ? "" : ",") + std::string("unknown(") + std::to_string(v) + ")";
  return out.empty() ? "none" : out;
}

// PortInfo's speed keys (speed, rate, generation) in LinkSpeedActive's
// place. A down port's speed fields mean nothing (IBA C14-24.2.1): its
// speed is the raw LinkSpeedActive, as ever, with no rate or generation.
void add_link_speed(std::span<const uint8_t> pi, view::Record& out, const DecodeOptions& o) {
  bool down = get_field(kPortInfo, pi, "PortState") == kPortDown;
  add_speed(out, down ? Generation::Unknown : port_generation(pi, o.fdr10, o.speed_caps),
            static_cast<unsigned>(get_field(kPortInfo, pi, "LinkWidthActive")),
            static_cast<unsigned>(get_field(kPortInfo, pi, "LinkSpeedActive")));
}

}  // namespace

const char* port_state_name(unsigned v) {
  for (const Name& n : kPortStates)
    if (n.value == v) return n.name;
  return "UNKNOWN";
}

const char* phys_state_name(unsigned v) {
  for (const Name& n : kPhysStates)
    if (n.value == v) return n.name;
  return "UNKNOWN";
}

std::string gid_text(std::span<const uint8_t, 16> gid) {
  char buf[INET6_ADDRSTRLEN];
  inet_ntop(AF_INET6, gid.data(), buf, sizeof buf);
  return buf;
}

std::string guid_hex(uint64_t v) {
  return view::hex_text(v, 16);
}

std::string desc_text(std::string_view s) {
  std::string out = "\"";
  for (char ch : s) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += ch;
    }
  }
  return out + '"';
}

std::string c_string(std::span<const uint8_t> bytes) {
  std::string out;
  for (uint8_t c : bytes) {
    if (!c) break;
    out += static_cast<char>(c);
  }
  return out;
}

namespace {

// Throws Error unless element index of f lies inside bytes: a field
// table's offsets are the attribute's, and a caller's buffer (a short
// reply, a record built elsewhere) may be shorter than the attribute.
// The message names the element ("[3]") when name_element says.
void check_room(const FieldDef& f, size_t index, std::span<const uint8_t> bytes,
                bool name_element = false) {
  size_t end = size_t{f.bit} + index * (f.stride ? f.stride : f.width) + f.width;
  if (end > bytes.size() * 8)
    throw Error("truncated attribute: " + std::to_string(bytes.size()) + " bytes, no room for " +
                f.name + (name_element ? "[" + std::to_string(index) + "]" : ""));
}

}  // namespace

void render(const FieldDef& f, std::span<const uint8_t> attr, unsigned index, std::string& text,
            view::Json& json) {
  unsigned bit = f.bit + index * (f.stride ? f.stride : f.width);
  // decode_fields checks a whole table first; a caller rendering one
  // element (cc show port N) is checked here, so no index reads past attr.
  check_room(f, index, attr, f.count > 1);
  if (f.fmt == Fmt::Gid) {
    text = gid_text(attr.subspan(bit / 8).first<16>());
    json = text;
    return;
  }
  if (f.fmt == Fmt::Str || f.fmt == Fmt::Desc) {
    text = c_string(attr.subspan(bit / 8, f.width / 8));
    json = text;
    if (f.fmt == Fmt::Desc) text = desc_text(text);
    return;
  }
  render_value(f, get_bits(attr, bit, f.width), text, json);
}

void render_value(const FieldDef& f, uint64_t v, std::string& text, view::Json& json) {
  text = value_text(f.fmt, v, f.width);
  // One vocabulary: JSON carries what the text says ("ACTIVE", "4X",
  // "0x0012"); plain numbers stay numbers, and so does an MTU (2048).
  if (f.fmt == Fmt::Uint || f.fmt == Fmt::DataWords)
    json = shown_value(f.fmt, v);
  else if (std::optional<uint64_t> mtu; f.fmt == Fmt::Mtu && (mtu = view::parse_number(text, {})))
    json = *mtu;  // not "7 (?)", a value with no MTU
  else
    json = text;
}

void add_values(const FieldDef& f, std::span<const uint64_t> values, view::Record& out) {
  std::string all, text;
  view::Json json, arr = view::Json::array();
  for (size_t i = 0; i < values.size(); ++i) {
    render_value(f, values[i], text, json);
    all += (i ? "," : "") + text;
    arr.push_back(std::move(json));
  }
  out.add(f.label, std::string(f.label) + " " + all + " ", std::move(arr));
}

std::string value_text(Fmt fmt, uint64_t v, unsigned width) {
  switch (fmt) {
    case Fmt::Uint:
      return std::to_string(v);
    case Fmt::DataWords:
      return std::to_string(shown_value(fmt, v));
    case Fmt::Hex:
    case Fmt::Key:
      return view::hex_text(v, (width + 3) / 4);
    case Fmt::Guid:
      return guid_hex(v);
    case Fmt::NodeType: {
      const char* name = node_type_name(static_cast<unsigned>(v));
      return name ? name : "unknown(" + std::to_string(v) + ")";
    }
    case Fmt::PortState:
      return name_of(kPortStates, v);
    case Fmt::PhysState:
      return name_of(kPhysStates, v);
    case Fmt::LinkDownDef:
      return name_of(kLinkDownDef, v);
    case Fmt::Width:
      return name_of(kWidths, v);
    case Fmt::WidthMask:
      return mask_of(kWidths, v);
    case Fmt::Speed:
    case Fmt::LinkSpeed:
      return name_of(kSpeeds, v);
    case Fmt::SpeedMask:
      return mask_of(kSpeeds, v);
    case Fmt::SpeedExt:
      return v ? name_of(kSpeedsExt, v) : "none";
    case Fmt::SpeedExtMask:
      return mask_of(kSpeedsExt, v);
    case Fmt::Mtu:
      return name_of(kMtus, v);
    case Fmt::VlCap:
      return name_of(kVlCaps, v);
    case Fmt::SmState:
      return name_of(kSmStates, v);
    case Fmt::Gid:
    case Fmt::Str:
    case Fmt::Desc:
      break;  // not numbers
  }
  return std::to_string(v);
}

uint64_t shown_value(Fmt fmt, uint64_t v) {
  if (fmt != Fmt::DataWords) return v;
  return v > UINT64_MAX / 4 ? UINT64_MAX : v * 4;
}

void decode_fields(std::span<const FieldDef> fields, std::span<const uint8_t> bytes, int detail,
                   view::Record& out, const DecodeOptions& o) {
  // All checked first: a short buffer adds nothing to out.
  for (const FieldDef& f : fields)
    if (f.level <= detail) check_room(f, f.count > 1 ? f.count - 1 : 0, bytes);
  for (const FieldDef& f : fields) {
    if (f.level > detail) continue;
    if (f.fmt == Fmt::LinkSpeed) {
      add_link_speed(bytes, out, o);
      continue;
    }
    std::string text;
    view::Json json;
    if (f.fmt == Fmt::Key && !o.show_keys) {
      out.add(f.label, std::string(f.label) + " " + kNotDisplayed + " ", kNotDisplayed);
      continue;
    }
    if (f.count <= 1) {
      render(f, bytes, 0, text, json);
      out.add(f.label, std::string(f.label) + " " + text + " ", std::move(json));
      continue;
    }
    std::string all;
    view::Json arr = view::Json::array();
    for (unsigned i = 0; i < f.count; ++i) {
      render(f, bytes, i, text, json);
      all += (i ? "," : "") + text;
      arr.push_back(std::move(json));
    }
    out.add(f.label, std::string(f.label) + " " + all + " ", std::move(arr));
  }
}

void decode(const AttrDef& a, std::span<const uint8_t> attr, int detail, view::Record& out,
            const DecodeOptions& o) {
  if (attr.size() < a.bytes)
    throw Error("truncated " + std::string(a.name) + ": " + std::to_string(attr.size()) +
                " bytes, expected " + std::to_string(a.bytes));
  decode_fields(a.fields, attr, detail, out, o);
}

}  // namespace rdma::mad
