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

// A filter word of one record type: a component the SA selects on (its
// ComponentMask bit) and the tool checks again in every record.
struct SaFilter {
  enum class Value : uint8_t {
    Number,  // up to max
    Gid,     // a GID (MGID)
    Guid,    // a port GUID: the interface ID of the GID field
    Name,    // a NUL-padded string
  };
  const char* word;   // "port", "block", "mlid", ...
  const char* field;  // the record's field (IBA name): its place and ComponentMask bit
  Value value = Value::Number;
  uint64_t max = 0xff;
};

struct SaKind {
  const char* word;  // "nodes", "ports", ...
  const mad::AttrDef* record;
  // The attributes the record carries and where (bytes from its start).
  const mad::AttrDef* carried[2] = {nullptr, nullptr};
  size_t at[2] = {0, 0};
  // ComponentMask bit of the record's LID (its first 16 bits): the record
  // is about a node, which lid, guid and name select; -1: it is not.
  int lid_bit = -1;
  std::span<const SaFilter> filters = {};  // its other filter words
  bool get = false;                        // one attribute by Get (ClassPortInfo), not a table
  // PortInfoRecords: one GetTable per bit, the ports whose CapabilityMask
  // has it (the SA matches the mask bit by bit); none: one GetTable.
  std::span<const uint32_t> cap_bits = {};
};

std::span<const SaKind> sa_kinds();
// The kind the word abbreviates, or nullptr.
const SaKind* find_sa_kind(std::string_view word);
// The kind's filter called word (exact), or nullptr.
const SaFilter* find_sa_filter(const SaKind& k, std::string_view word);

// The record's fields, then its attributes' (a key already given is not
// repeated: a PortInfoRecord's LID, not its PortInfo's); secrets
// (Fmt::Key) in clear only with show_keys.
void sa_record(const SaKind& k, std::span<const uint8_t> rec, int detail, view::Record& out,
               bool show_keys = false);

// Undoes what SAs are known to get wrong in a record, before filtering and
// printing: opensm (3.3) sends a P_KeyTableRecord's BlockNum in host (little
// endian) byte order, so block 1 arrives as 0x0100; saquery prints it
// unconverted and so shows 1. A BlockNum with a zero low byte and a
// non-zero high byte is taken for a swapped one (block 256 and up would
// need a PartitionCap above 8192, which no device has).
void sa_fix_record(const SaKind& k, std::span<uint8_t> rec);

// The LID a record is about (its first field), or 0 for paths.
uint16_t sa_record_lid(const SaKind& k, std::span<const uint8_t> rec);

// The bytes of attr that a record of type record carries (a NodeRecord's
// NodeInfo or NodeDescription, a PortInfoRecord's PortInfo, ...), as long
// as attr. Throws Error for an attribute the record does not carry, or a
// record too short for it.
std::span<const uint8_t> sa_carried(const mad::AttrDef& record, const mad::AttrDef& attr,
                                    std::span<const uint8_t> rec);

}  // namespace rdma::ib
