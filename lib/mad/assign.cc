#include "lib/mad/assign.h"

#include <strings.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <string>
#include <vector>

#include "lib/choices.h"
#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/mad/bits.h"
#include "lib/mad/format.h"
#include "lib/view/number.h"

namespace rdma::mad {

namespace {

bool same_blind(std::string_view a, std::string_view b) {
  return a.size() == b.size() && strncasecmp(a.data(), b.data(), a.size()) == 0;
}

const FieldDef* field_named(const AttrDef& a, std::string_view name) {
  for (const FieldDef& f : a.fields)
    if (name == f.name || name == f.label) return &f;
  for (const FieldDef& f : a.fields)
    if (same_blind(name, f.name) || same_blind(name, f.label)) return &f;
  return nullptr;
}

std::vector<std::string> field_names(const AttrDef& a) {
  std::vector<std::string> out;
  for (const FieldDef& f : a.fields)
    if (f.level != kHidden && f.width <= 64)
      out.push_back(f.name + std::string(f.count > 1 ? "[i]" : ""));
  return out;
}

// A plain number, decimal or 0x hex, the whole word.
bool parse_plain(std::string_view word, uint64_t& v) {
  std::optional<uint64_t> n = view::parse_number(word, {.c_bases = true});
  if (n) v = *n;
  return n.has_value();
}

// The value whose text (as decode shows it) is word, for the formats that
// name their values; the fields that have them are at most 8 bits wide.
bool parse_named(const FieldDef& f, std::string_view word, uint64_t& v) {
  switch (f.fmt) {
    case Fmt::Uint:
    case Fmt::DataWords:
    case Fmt::Hex:
    case Fmt::Key:
    case Fmt::Guid:
    case Fmt::Gid:
    case Fmt::Str:
    case Fmt::Desc:
      return false;
    default:
      break;
  }
  if (f.width > 8) return false;
  for (uint64_t x = 0; x < (uint64_t{1} << f.width); ++x)
    if (same_blind(word, value_text(f.fmt, x, f.width))) {
      v = x;
      return true;
    }
  return false;
}

}  // namespace

void add_assignment(std::vector<Assignment>& changes, const Assignment& s) {
  for (const Assignment& c : changes)
    if (c.field == s.field && c.index == s.index)
      throw UsageError("\"" + std::string(s.field->name) +
                       (s.field->count > 1 ? "[" + std::to_string(s.index) + "]" : "") +
                       "\" given twice");
  changes.push_back(s);
}

Assignment parse_assignment(const AttrDef& a, std::string_view word) {
  size_t eq = word.find('=');
  if (eq == std::string_view::npos)
    throw UsageError("expected FIELD=VALUE, not \"" + std::string(word) + "\"");
  std::string_view name = word.substr(0, eq), value = word.substr(eq + 1);
  Assignment s;
  std::string_view base = name;
  if (size_t br = name.find('['); br != std::string_view::npos && name.back() == ']') {
    base = name.substr(0, br);
    uint64_t i = 0;
    if (!parse_plain(name.substr(br + 1, name.size() - br - 2), i) || i > 0xffff)
      throw UsageError("invalid element \"" + std::string(name) + "\" (expected NAME[N])");
    s.index = static_cast<unsigned>(i);
  }
  s.field = field_named(a, base);
  if (!s.field || s.field->level == kHidden)
    throw UsageError(unknown_word(std::string(a.name) + " field", base, field_names(a)));
  const FieldDef& f = *s.field;
  if (f.width > 64)
    throw UsageError(std::string(a.name) + " " + f.name +
                     " is not a number; it cannot be set here");
  if (s.index >= f.count)
    throw UsageError(std::string(a.name) + " " + f.name + " has " + std::to_string(f.count) +
                     (f.count == 1 ? " element" : " elements") + ", not " +
                     std::to_string(s.index + 1));
  uint64_t max = f.width >= 64 ? ~uint64_t{0} : (uint64_t{1} << f.width) - 1;
  // Names first: an MTU's "4096" is code 5.
  if (!parse_named(f, value, s.value) && !parse_plain(value, s.value))
    throw UsageError("invalid value \"" + std::string(value) + "\" for " + f.name +
                     " (a number from 0 to " + std::to_string(max) + ")");
  if (s.value > max)
    throw UsageError("value " + std::string(value) + " out of range for " + f.name + " (" +
                     std::to_string(f.width) + " bits: 0 to " + std::to_string(max) + ")");
  return s;
}

void store(const Assignment& s, std::span<uint8_t> attr) {
  const FieldDef& f = *s.field;
  unsigned bit = f.bit + s.index * (f.stride ? f.stride : f.width);
  if (size_t{bit} + f.width > attr.size() * 8)
    throw Error(std::string("internal: no room for ") + f.name);
  set_bits(attr, bit, f.width, s.value);
}

uint64_t load(const Assignment& s, std::span<const uint8_t> attr) {
  const FieldDef& f = *s.field;
  unsigned bit = f.bit + s.index * (f.stride ? f.stride : f.width);
  if (size_t{bit} + f.width > attr.size() * 8)
    throw Error(std::string("internal: no room for ") + f.name);
  return get_bits(attr, bit, f.width);
}

bool reads_back(const AttrDef& a, const Assignment& s) {
  if (a.mgmt_class == kClassPerf || a.mgmt_class == kClassSa || &a == &kSmInfo) return false;
  if (&a != &kPortInfo) return true;
  std::string_view n = s.field->name;
  if (n == "PortState" || n == "PortPhysicalState" || n == "ClientReregister") return false;
  // IBA 14.2.5.6, PortInfo: 0 changes nothing in these; the masks' all-ones
  // value (255 for the width, 15 and 30 or 31 for the speeds) enables
  // every supported one.
  bool no_change = n == "LinkWidthEnabled" || n == "LinkSpeedEnabled" ||
                   n == "LinkSpeedExtEnabled" || n == "OperationalVLs" ||
                   n == "LinkDownDefaultState";
  if (no_change && s.value == 0) return false;
  if (n == "LinkWidthEnabled" && s.value == 255) return false;
  if (n == "LinkSpeedEnabled" && s.value == 15) return false;
  if (n == "LinkSpeedExtEnabled" && s.value >= 30) return false;
  return true;
}

void prepare_set(const AttrDef& a, std::span<uint8_t> attr) {
  if (&a == &kPortInfo) {
    set_field(a, attr, "PortState", 0);
    set_field(a, attr, "PortPhysicalState", 0);
    return;
  }
  if (!find_field(a, "CounterSelect")) return;
  for (const FieldDef& f : a.fields) {
    std::string_view n = f.name;
    if (n == "PortSelect" || n == "OpCode" || n.starts_with("CounterSelect")) continue;
    for (unsigned i = 0; i < f.count; ++i)
      set_bits(attr, f.bit + i * (f.stride ? f.stride : f.width), f.width, 0);
  }
}

}  // namespace rdma::mad
