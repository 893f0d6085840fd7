// The fields of an attribute a fabric read from a file holds, put back
// into the attribute's bytes (saved_node.h, saved_sa.h): one walk of the
// model's fields (smp.h) for both.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <set>
#include <span>
#include <string_view>

#include "lib/mad/field.h"

namespace rdma::ib {

template <typename T>
std::optional<uint64_t> saved_value(const T& v) {
  return uint64_t{v};
}
template <typename T>
std::optional<uint64_t> saved_value(const std::optional<T>& v) {
  return v ? std::optional<uint64_t>(uint64_t{*v}) : std::nullopt;
}

// Encodes into bytes (a's) the fields of s that fields walks and the file
// holds (holds, when given, says which of them a topology file has),
// adding their IBA names to held.
template <typename S, typename Fields>
void encode_held(const mad::AttrDef& a, const S& s, Fields fields,
                 bool (*holds)(std::string_view name), std::span<uint8_t> bytes,
                 std::set<std::string_view>& held) {
  fields(s, [&](const char* name, const auto& v) {
    if (std::strchr(name, '.')) return;  // another attribute's field
    if (holds && !holds(name)) return;
    if (std::optional<uint64_t> x = saved_value(v)) {
      mad::set_field(a, bytes, name, *x);
      held.insert(name);
    }
  });
}

}  // namespace rdma::ib
