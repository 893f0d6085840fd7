#include "lib/mad/attrs.h"

#include <cctype>
#include <string>

#include "lib/error.h"

namespace rdma::mad {

namespace {

const AttrDef* const kAll[] = {
    &kNodeInfo,     &kNodeDescription,      &kSwitchInfo, &kPortInfo, &kGuidInfo,
    &kPKeyTable,    &kSl2VlTable,           &kVlArbTable, &kSmInfo,   &kClassPortInfo,
    &kPortCounters, &kPortCountersExtended, &kPathRecord,
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

std::span<const AttrDef* const> all_attrs() {
  return kAll;
}

const AttrDef& find_attr(std::string_view word) {
  // An exact name wins over a longer one it abbreviates (PortCounters).
  for (const AttrDef* a : kAll)
    if (word.size() == std::string_view(a->name).size() && abbreviates(word, a->name)) return *a;
  for (const AttrDef* a : kAll)
    if (abbreviates(word, a->name)) return *a;
  std::string names;
  for (const AttrDef* a : kAll) names += std::string(names.empty() ? "" : ", ") + a->name;
  throw Error("unknown attribute \"" + std::string(word) + "\" (known: " + names + ")");
}

const AttrDef* attr_by_id(uint8_t mgmt_class, uint16_t id) {
  uint8_t cls = mgmt_class == kClassSmiDr ? uint8_t{kClassSmiLid} : mgmt_class;
  if (id == kClassPortInfo.id && cls != kClassSmiLid) return &kClassPortInfo;
  for (const AttrDef* a : kAll)
    if (a->mgmt_class == cls && a->id == id) return a;
  return nullptr;
}

}  // namespace rdma::mad
