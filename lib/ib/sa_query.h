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

// A PathRecord query's components besides its ends (MTU and rate exactly:
// their selectors say "equal").
struct PathFilter {
  std::optional<uint16_t> pkey;
  std::optional<uint8_t> sl, mtu, rate;
};

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
  std::vector<uint8_t> example;
  uint64_t mask = 0;
  std::vector<mad::Target> ends;  // PathRecords
  PathFilter path;                // PathRecords
  uint64_t sm_key = 0;

  bool paths() const;
  // Filter f with its value (put_sa_filter).
  void add(const SaFilter& f, const SaFilterValue& v);
  // Completes example and mask once the local port is known: the LID, the
  // subnet prefix of port GUID filters.
  void complete(uint64_t gid_prefix);
  // Whether rec, a record the SA returned (fixed by sa_fix_record), answers
  // the question: the SA may ignore a component it does not index. lids:
  // those the GUID or description selected (node_record_lids), if asked.
  bool answers(std::span<const uint8_t> rec, const std::optional<std::set<uint16_t>>& lids) const;
};

// The PathRecord example and ComponentMask for the paths between ends:
// none, all paths; one, from the local port to it; two, from the first to
// the second. An end is a LID (SLID/DLID), a GID or a port GUID (a GID of
// the local subnet); not a directed route (Error).
void path_example(const mad::LocalPort& local, std::span<const mad::Target> ends,
                  const PathFilter& pf, std::vector<uint8_t>& example, uint64_t& mask);

// Whether a GetTable of records of type rec, asked without an SM_Key
// (sm_key 0), failed as f because the SA answers that table only to a
// trusted requester, one that gives it: opensm's P_Key tables (IBA
// 15.4.1), refused with status ERR_REQ_INVALID.
bool sa_needs_sm_key(const mad::AttrDef& rec, uint64_t sm_key, const mad::Failure& f);

}  // namespace rdma::ib
