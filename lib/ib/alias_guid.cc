#include "lib/ib/alias_guid.h"

#include <string>

#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/mad/bits.h"
#include "lib/mad/sa.h"

namespace rdma::ib {

namespace {

// GUIDInfo's entry i of the block the record carries.
unsigned entry_bit(unsigned index) {
  return mad::kTableRecordBlock * 8 + index % kGuidsPerBlock * 64;
}

}  // namespace

std::vector<uint8_t> alias_guid_record(const AliasGuid& g, uint64_t& mask) {
  const mad::AttrDef& rec = mad::kGuidInfoRecord;
  std::vector<uint8_t> r(rec.bytes);
  mad::set_field(rec, r, "LID", g.lid);
  mad::set_field(rec, r, "BlockNum", g.index / kGuidsPerBlock);
  if (g.index / kGuidsPerBlock > 0xff) throw Error("GUID index " + std::to_string(g.index));
  mad::set_bits(r, entry_bit(g.index), 64, g.guid);
  std::string guid_bit = "GUID" + std::to_string(g.index % kGuidsPerBlock);
  mask = mad::component_mask(rec, {"LID", "BlockNum"}) | uint64_t{1}
                                                             << mad::component_bit(rec, guid_bit);
  return r;
}

uint64_t alias_guid_in(const std::vector<uint8_t>& record, unsigned index) {
  if (record.size() < mad::kGuidInfoRecord.bytes) throw Error("truncated GuidInfoRecord");
  return mad::get_bits(record, entry_bit(index), 64);
}

std::vector<uint8_t> change_alias_guid(MadClient& c, GuidChange how, const AliasGuid& g,
                                       uint64_t sm_key) {
  uint64_t mask = 0;
  std::vector<uint8_t> rec = alias_guid_record(g, mask);
  return mad::modify_record(c.engine(), c.sm_lid(),
                            how == GuidChange::Set ? uint8_t{mad::kSet} : mad::kSaDelete,
                            mad::kGuidInfoRecord, mask, rec, sm_key);
}

}  // namespace rdma::ib
