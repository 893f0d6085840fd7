#include "lib/mad/attrs.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "lib/choices.h"
#include "lib/error.h"
#include "lib/mad/attrs_ext.h"
#include "lib/mad/bits.h"
#include "lib/view/number.h"

namespace rdma::mad {

namespace {

// Help order; the forwarding tables last, so that the prefixes before
// them still name what they named.
const AttrDef* const kAll[] = {
    &kNodeInfo,
    &kNodeDescription,
    &kSwitchInfo,
    &kPortInfo,
    &kGuidInfo,
    &kPKeyTable,
    &kSl2VlTable,
    &kVlArbTable,
    &kSmInfo,
    &kClassPortInfo,
    &kPortCounters,
    &kPortCountersExtended,
    &kPathRecord,
    &kPortInfoExtended,
    &kMlnxExtPortInfo,
    &kLinearForwardingTable,
    &kMulticastForwardingTable,
};

bool abbreviates(std::string_view word, std::string_view name) {
  if (word.empty() || word.size() > name.size()) return false;
  for (size_t i = 0; i < word.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(word[i])) !=
        std::tolower(static_cast<unsigned char>(name[i])))
      return false;
  return true;
}

}  // namespace

const FieldDef* find_field(const AttrDef& a, std::string_view name) {
  for (const FieldDef& f : a.fields)
    if (name == f.name) return &f;
  return nullptr;
}

namespace {

// The bit offset of element index of a's field called name, checked.
unsigned field_bit(const AttrDef& a, size_t bytes, std::string_view name, unsigned index,
                   const FieldDef*& f) {
  f = find_field(a, name);
  if (!f) throw Error(std::string("internal: ") + a.name + " has no field " + std::string(name));
  if (index >= f->count)
    throw Error(std::string("internal: ") + a.name + " " + f->name + " has no element " +
                std::to_string(index));
  unsigned bit = f->bit + index * (f->stride ? f->stride : f->width);
  if (size_t{bit} + f->width > bytes * 8)
    throw Error("truncated " + std::string(a.name) + ": " + std::to_string(bytes) +
                " bytes, no room for " + f->name);
  return bit;
}

}  // namespace

uint64_t get_field(const AttrDef& a, std::span<const uint8_t> attr, std::string_view name,
                   unsigned index) {
  const FieldDef* f = nullptr;
  unsigned bit = field_bit(a, attr.size(), name, index, f);
  return get_bits(attr, bit, f->width);
}

void set_field(const AttrDef& a, std::span<uint8_t> attr, std::string_view name, uint64_t v) {
  const FieldDef* f = nullptr;
  unsigned bit = field_bit(a, attr.size(), name, 0, f);
  set_bits(attr, bit, f->width, v);
}

std::span<const AttrDef* const> all_attrs() {
  return kAll;
}

namespace {

// An attribute id, decimal or 0x hex (C bases, as strtoul read it).
std::optional<uint64_t> attr_id(std::string_view word) {
  return view::parse_number(word, {.max = 0xffff, .c_bases = true});
}

// The one SMP or PMA attribute with the id word (SA records are not read by
// id); SwitchInfo and PortCounters share 0x0012.
const AttrDef& attr_by_number(std::string_view word) {
  std::optional<uint64_t> id = attr_id(word);
  if (!id) throw UsageError("invalid attribute id \"" + std::string(word) + "\"");
  std::vector<const AttrDef*> found;
  for (const AttrDef* a : kAll)
    if (a->id == *id && a->mgmt_class != kClassSa) found.push_back(a);
  std::string hex = view::hex_text(*id, 4);
  if (found.empty()) throw UsageError("unknown attribute id " + hex);
  if (found.size() > 1) {
    std::string names;
    for (const AttrDef* a : found) names += std::string(names.empty() ? "" : " and ") + a->name;
    throw UsageError("attribute id " + hex + " is " + names + "; name the one you mean");
  }
  return *found[0];
}

}  // namespace

const AttrDef& find_attr(std::string_view word) {
  if (!word.empty() && word[0] >= '0' && word[0] <= '9') return attr_by_number(word);
  // An exact name wins over a longer one it abbreviates (PortCounters).
  for (const AttrDef* a : kAll)
    if (word.size() == std::string_view(a->name).size() && abbreviates(word, a->name)) return *a;
  for (const AttrDef* a : kAll)
    if (abbreviates(word, a->name)) return *a;
  std::vector<std::string> names;
  for (const AttrDef* a : kAll) names.push_back(a->name);
  throw UsageError(unknown_word("attribute", word, names));
}

AttrChoice choose_attr(std::string_view word) {
  if (word.empty() || word[0] < '0' || word[0] > '9') return {&find_attr(word), 0};
  try {
    return {&attr_by_number(word), 0};
  } catch (const UsageError&) {
    std::optional<uint64_t> id = attr_id(word);
    if (!id) throw;  // not an id at all
    for (const AttrDef* a : kAll)
      if (a->id == *id && a->mgmt_class != kClassSa) throw;  // ambiguous: name it
    return {nullptr, static_cast<uint16_t>(*id)};  // an SMP attribute without a decoder: raw
  }
}

const AttrDef* attr_by_id(uint8_t mgmt_class, uint16_t id) {
  // Known by id (replies, -dd), not offered by name to `mad get`.
  static const AttrDef* const kMore[] = {&kNodeRecord,      &kPortInfoRecord, &kSwitchInfoRecord,
                                         &kLftRecord,       &kSmInfoRecord,   &kLinkRecord,
                                         &kServiceRecord,   &kMcMemberRecord, &kGuidInfoRecord,
                                         &kPKeyTableRecord, &kSl2VlRecord,    &kVlArbRecord};
  uint8_t cls = mgmt_class == kClassSmiDr ? uint8_t{kClassSmiLid} : mgmt_class;
  if (id == kClassPortInfo.id && cls != kClassSmiLid) return &kClassPortInfo;
  for (const AttrDef* a : kAll)
    if (a->mgmt_class == cls && a->id == id) return a;
  for (const AttrDef* a : kMore)
    if (a->mgmt_class == cls && a->id == id) return a;
  return nullptr;
}

}  // namespace rdma::mad
