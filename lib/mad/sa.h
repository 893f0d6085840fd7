// Subnet administration queries (IBA 15.4): a GetTable for one record type,
// filtered by the ComponentMask, and the records of its reply — one MAD, or
// the whole RMPP transfer as the kernel reassembles it for an agent
// registered with RMPP (umad_transport.cc).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "lib/mad/engine.h"
#include "lib/mad/field.h"

namespace rdma::mad {

// SubnAdmDelete (15.2.2): remove what the record names (alias GUIDs,
// services); answered with kSaDelete | 0x80. A Set is kSet, answered by
// GetResp.
inline constexpr uint8_t kSaDelete = 0x15;
// The SA's status (high byte): the ComponentMask lacks what the method needs.
inline constexpr uint16_t kSaStatusInsufficientComponents = 6 << 8;

struct SaTable {
  std::vector<std::vector<uint8_t>> records;  // each the record's bytes
  // Records the SA said it sent (PayloadLength) but the reply lacks: an SA
  // or transport without RMPP gave only the first MAD.
  size_t missing = 0;
  // The reply ends inside a record and its RMPP header neither counts the
  // transfer nor marks it last (umad2sim under ibsim passes the first MAD
  // of an RMPP transfer so): records are missing, how many is unknown.
  bool cut = false;
};

// The records of a GetTableResp of rec (its AttributeOffset is the stride).
// Throws Error for a reply too short for its header, and for a table that
// does not add up: an RMPP header not a first DATA segment's, a length
// other than its PayloadLength announced, records that are not whole, or
// AttributeOffset 0 before records. The first MAD alone of a longer
// transfer (no RMPP on the way) is no error: missing or cut says so.
SaTable split_table(std::span<const uint8_t> reply, const AttrDef& rec);

// The warning for a table cut short, without "warning: ": the missing
// count when it is known; "" for a whole table.
std::string cut_warning(const SaTable& t, const AttrDef& rec);

// Every record of type rec whose components selected by mask equal those
// of example (a record's bytes, rec.bytes long), from the SA at sa_lid.
// Throws MadError (timeout, bad status) or Error.
// sm_key: the SA's SM_Key, which makes the query trusted (opensm answers
// P_KeyTableRecords only then); 0: untrusted. bitwise: a record matches a
// mask component (PortInfo's CapabilityMask) that has every bit example's
// has, not only an equal one (the enhanced compare, saquery -s's).
SaTable get_table(Engine& e, uint16_t sa_lid, const AttrDef& rec, uint64_t mask,
                  std::span<const uint8_t> example, uint64_t sm_key = 0, bool bitwise = false);

// One record written (SubnAdmSet, method kSet) or removed (SubnAdmDelete,
// kSaDelete) at the SA at sa_lid, the components mask selects taken from
// record (rec.bytes long): the record the SA answers with. Throws MadError
// (timeout, the SA's refusal) or Error.
std::vector<uint8_t> modify_record(Engine& e, uint16_t sa_lid, uint8_t method, const AttrDef& rec,
                                   uint64_t mask, std::span<const uint8_t> record,
                                   uint64_t sm_key = 0);

// One attribute by Get from the SA at sa_lid (its ClassPortInfo): the
// reply's data, a.bytes long. Throws MadError or Error.
std::vector<uint8_t> get_one(Engine& e, uint16_t sa_lid, const AttrDef& a);

}  // namespace rdma::mad
