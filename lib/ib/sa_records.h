// The SA record types `rdma sa show` lists, as saquery names them, and how
// each prints: the record's own fields (LID, port, ...) then the attribute
// it carries decoded with that attribute's table, so `sa show nodes` has
// the keys of `node show`.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "lib/mad/field.h"
#include "lib/view/record.h"

namespace rdma::ib {

struct SaKind {
  const char* word;  // "nodes", "ports", ...
  const mad::AttrDef* record;
  // The attributes the record carries and where (bytes from its start).
  const mad::AttrDef* carried[2] = {nullptr, nullptr};
  size_t at[2] = {0, 0};
  // ComponentMask bits of the LID and port number fields; -1: none.
  int lid_bit = -1, port_bit = -1;
};

std::span<const SaKind> sa_kinds();
// The kind the word abbreviates, or nullptr.
const SaKind* find_sa_kind(std::string_view word);

// The record's fields, then its attributes' (a key already given is not
// repeated: a PortInfoRecord's LID, not its PortInfo's).
void sa_record(const SaKind& k, std::span<const uint8_t> rec, int detail, view::Record& out);

// The LID a record is about (its first field), or 0 for paths.
uint16_t sa_record_lid(const SaKind& k, std::span<const uint8_t> rec);

}  // namespace rdma::ib
