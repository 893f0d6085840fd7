// Alias GUIDs through the SA (IBA 15.2.5.18, python-rdma's set_guid): the
// GUIDInfoRecord a SubnAdmSet or SubnAdmDelete of one GUID index carries,
// and its ComponentMask (LID, BlockNum and that GUID's bit, which opensm
// requires).
#pragma once

#include <cstdint>
#include <vector>

#include "lib/ib/client.h"

namespace rdma::ib {

// Entries per GUIDInfo block.
inline constexpr unsigned kGuidsPerBlock = 8;

struct AliasGuid {
  uint16_t lid = 0;
  unsigned index = 0;  // in the port's GUID table; 0 is the port GUID
  uint64_t guid = 0;   // a Delete's may be 0
};

// The record (kGuidInfoRecord.bytes) and its mask.
std::vector<uint8_t> alias_guid_record(const AliasGuid& g, uint64_t& mask);

// The GUID at g.index in a record the SA answered with.
uint64_t alias_guid_in(const std::vector<uint8_t>& record, unsigned index);

// What a change does to the GUID at g.index: SubnAdmSet puts g.guid there,
// SubnAdmDelete removes it.
enum class GuidChange { Set, Delete };

// The change sent to the SA (the local port's SM LID) with sm_key (0:
// none); the record it answers with. Throws MadError.
std::vector<uint8_t> change_alias_guid(MadClient& c, GuidChange how, const AliasGuid& g,
                                       uint64_t sm_key);

}  // namespace rdma::ib
