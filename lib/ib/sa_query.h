// The question side of the SA's tables (IBA 15.2.5, 15.4): the example
// record and ComponentMask of a GetTable built from named components — a
// record type's filters (sa_records.h), a node's LID, a PathRecord between
// two ends — the NodeRecords a GUID or a name selects, and the filters
// checked again in every record an SA returns (one may ignore a component
// it does not index).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "lib/ib/node_name_map.h"
#include "lib/ib/sa_records.h"
#include "lib/ib/smp.h"
#include "lib/mad/local_port.h"
#include "lib/mad/result.h"
#include "lib/mad/target.h"

namespace rdma::ib {

// A filter's value as the caller parsed it: number for Number (and the
// port GUID of Guid), gid for Gid, name for Name.
struct SaFilterValue {
  uint64_t number = 0;
  std::array<uint8_t, 16> gid{};
  std::string name;
};

// Puts filter f's value into example, a record of kind k, and its
// ComponentMask bit into mask. A port GUID's GID prefix is put_sa_prefix's.
// Throws UsageError for a name longer than its field (a word the user typed).
void put_sa_filter(const SaKind& k, const SaFilter& f, const SaFilterValue& v,
                   std::span<uint8_t> example, uint64_t& mask);

// The subnet prefix of a port GUID filter's GID (nothing for other filters):
// known once the local port is.
void put_sa_prefix(const SaKind& k, const SaFilter& f, std::span<uint8_t> example, uint64_t prefix);

// The LID of a record about a node (k.lid_bit >= 0) into example and mask.
void put_sa_lid(const SaKind& k, std::span<uint8_t> example, uint64_t& mask, uint16_t lid);

// Filter f's component of rec equals example's (a port GUID: the GID's
// interface ID).
bool sa_filter_matches(const SaKind& k, const SaFilter& f, std::span<const uint8_t> rec,
                       std::span<const uint8_t> example);

// A NodeRecord: the LID, the NodeInfo and the description it carries.
struct NodeRecord {
  uint16_t lid = 0;
  NodeInfo info;
  std::string description;
  // Throws Error for a record too short.
  static NodeRecord from(std::span<const uint8_t> rec);
};

// The LIDs of the NodeRecords whose node or port GUID is guid and whose
// description is name, each when given.
std::set<uint16_t> node_record_lids(const std::vector<std::vector<uint8_t>>& records,
                                    std::optional<uint64_t> guid,
                                    const std::optional<std::string>& name);

// A value with its selector (IBA 15.2.5.16): 0 greater than, 1 less than,
// 2 exactly, 3 the largest available (value unused).
struct SaSelected {
  uint8_t selector = 2;
  uint8_t value = 0;
};

// The selector a value word starts with, taken off it: ">" greater than,
// "<" less than, "=" or none exactly.
uint8_t take_sa_selector(std::string& word);

// A PathRecord query's selector pairs (its other components are the paths
// kind's SaFilters).
struct PathFilter {
  std::optional<SaSelected> mtu, rate, lifetime;
};

// ibtool's any-field selection: a field the record prints (its key), in
// the record or in an attribute it carries (at bytes from its start), and
// the value asked: number (numbers and enumerations given as numbers), gid
// (Gid fields), text (Str and Desc fields; for enumerations the printed
// name, "ACTIVE").
struct SaFieldMatch {
  const mad::AttrDef* attr = nullptr;
  size_t at = 0;
  const mad::FieldDef* field = nullptr;
  std::optional<uint64_t> number;
  std::array<uint8_t, 16> gid{};
  std::string text;
};

// The match KEY=VALUE asks of kind k's records; Throws UsageError naming
// the keys k's records print for a key none has (or a table's), and for a
// value the field cannot hold.
SaFieldMatch sa_field_match(const SaKind& k, const std::string& key, const std::string& value);

// Whether rec (a record of kind k) has the value m asks.
bool sa_field_matches(const SaFieldMatch& m, std::span<const uint8_t> rec);

// A question to one of the SA's tables as the user put it: the record type;
// for records about a node, which nodes (a LID, or the NodeRecords a GUID
// or a description select); the type's filters, their values in example
// and their ComponentMask bits in mask; for PathRecords the ends and the
// PathFilter; the SM_Key to send (0: none).
struct SaQuery {
  explicit SaQuery(const SaKind& k) : kind(&k), example(k.record->bytes, 0) {}
  const SaKind* kind;
  std::optional<uint16_t> lid;
  std::optional<uint64_t> guid;
  std::optional<std::string> name;
  std::vector<const SaFilter*> filters;
  std::vector<SaFieldMatch> fields;  // KEY=VALUE words
  std::optional<uint32_t> cap_bit;   // one of kind->cap_bits, asked
  bool bitwise = false;              // the SA compares bit by bit (cap_bit)
  std::vector<uint8_t> example;
  uint64_t mask = 0;
  std::vector<mad::Target> ends;  // PathRecords
  PathFilter path;                // PathRecords
  uint64_t sm_key = 0;

  bool paths() const;
  // Filter f with its value (put_sa_filter).
  void add(const SaFilter& f, const SaFilterValue& v);
  // A KEY=VALUE match, sent as a component when the field is one (the SA
  // selects), always checked in the records (answers).
  void add(const SaFieldMatch& m);
  // Asks for the PortInfoRecords whose CapabilityMask has bit (the SA
  // matches it bit by bit: bitwise).
  void ask_cap_bit(uint32_t bit);
  // Completes example and mask once the local port is known: the LID, the
  // subnet prefix of port GUID filters.
  void complete(uint64_t gid_prefix);
  // Whether rec, a record the SA returned (fixed by sa_fix_record), answers
  // the question: the SA may ignore a component it does not index. lids:
  // those the GUID or description selected (node_record_lids), if asked.
  bool answers(std::span<const uint8_t> rec, const std::optional<std::set<uint16_t>>& lids) const;
};

// Adds to example (a PathRecord's bytes, its filters in already) and mask
// the paths between ends: none, all paths; one, from the local port to it;
// two, from the first to the second. An end is a LID (SLID/DLID), a GID or
// a port GUID (a GID of the local subnet); not a directed route or a name
// (Error: named_node_lid resolves names first).
void path_example(const mad::LocalPort& local, std::span<const mad::Target> ends,
                  const PathFilter& pf, std::vector<uint8_t>& example, uint64_t& mask);

// The LID of the first NodeRecord (saquery's choice) whose node is called
// name, by its description or the name map's name for its GUID; nullopt
// when none is.
std::optional<uint16_t> named_node_lid(const std::vector<std::vector<uint8_t>>& records,
                                       const std::string& name, const NodeNameMap& map);

// Whether a GetTable of records of type rec, asked without an SM_Key
// (sm_key 0), failed as f because the SA answers that table only to a
// trusted requester, one that gives it: opensm's P_Key tables (IBA
// 15.4.1), refused with status ERR_REQ_INVALID.
bool sa_needs_sm_key(const mad::AttrDef& rec, uint64_t sm_key, const mad::Failure& f);

}  // namespace rdma::ib
