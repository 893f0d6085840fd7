#include "lib/ib/sa_query.h"

#include <algorithm>

#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/mad/format.h"
#include "lib/mad/mad.h"

namespace rdma::ib {

namespace {

const mad::FieldDef& field_of(const SaKind& k, const SaFilter& f) {
  const mad::FieldDef* d = mad::find_field(*k.record, f.field);
  if (!d) throw Error(std::string("internal: ") + k.record->name + " has no field " + f.field);
  return *d;
}

// The bytes of a field that is a whole number of bytes (GIDs, names).
std::span<uint8_t> bytes_of(const mad::FieldDef& d, std::span<uint8_t> rec) {
  return rec.subspan(d.bit / 8, d.width / 8);
}
std::span<const uint8_t> bytes_of(const mad::FieldDef& d, std::span<const uint8_t> rec) {
  return rec.subspan(d.bit / 8, d.width / 8);
}

void put_gid(const mad::AttrDef& a, const char* field, std::span<uint8_t> example,
             const std::array<uint8_t, 16>& gid) {
  std::ranges::copy(gid, bytes_of(*mad::find_field(a, field), example).begin());
}

}  // namespace

void put_sa_filter(const SaKind& k, const SaFilter& f, const SaFilterValue& v,
                   std::span<uint8_t> example, uint64_t& mask) {
  using V = SaFilter::Value;
  const mad::FieldDef& d = field_of(k, f);
  std::span<uint8_t> at = bytes_of(d, example);
  switch (f.value) {
    case V::Number:
      mad::set_field(*k.record, example, f.field, v.number);
      break;
    case V::Gid:
      std::ranges::copy(v.gid, at.begin());
      break;
    case V::Guid: {
      std::array<uint8_t, 16> gid = mad::make_gid(0, v.number);
      std::copy(gid.begin() + 8, gid.end(), at.begin() + 8);
      break;
    }
    case V::Name:
      if (v.name.size() > at.size())
        throw UsageError("invalid " + std::string(f.word) + " \"" + v.name + "\" (at most " +
                         std::to_string(at.size()) + " bytes)");
      std::ranges::copy(v.name, at.begin());
      break;
  }
  mask |= mad::component_mask(*k.record, {f.field});
}

void put_sa_prefix(const SaKind& k, const SaFilter& f, std::span<uint8_t> example,
                   uint64_t prefix) {
  if (f.value != SaFilter::Value::Guid) return;
  std::array<uint8_t, 16> gid = mad::make_gid(prefix, 0);
  std::copy(gid.begin(), gid.begin() + 8, bytes_of(field_of(k, f), example).begin());
}

void put_sa_lid(const SaKind& k, std::span<uint8_t> example, uint64_t& mask, uint16_t lid) {
  mad::set_field(*k.record, example, k.record->fields[0].name, lid);
  mask |= uint64_t{1} << k.lid_bit;
}

bool sa_filter_matches(const SaKind& k, const SaFilter& f, std::span<const uint8_t> rec,
                       std::span<const uint8_t> example) {
  const mad::FieldDef& d = field_of(k, f);
  if (d.width <= 64)
    return mad::get_field(*k.record, rec, f.field) == mad::get_field(*k.record, example, f.field);
  std::span<const uint8_t> a = bytes_of(d, rec), b = bytes_of(d, example);
  if (f.value == SaFilter::Value::Guid) a = a.subspan(8), b = b.subspan(8);  // the interface ID
  return std::ranges::equal(a, b);
}

NodeRecord NodeRecord::from(std::span<const uint8_t> rec) {
  if (rec.size() < mad::kNodeRecord.bytes)
    throw Error("truncated NodeRecord: " + std::to_string(rec.size()) + " bytes, expected " +
                std::to_string(mad::kNodeRecord.bytes));
  NodeRecord r;
  r.lid = static_cast<uint16_t>(mad::get_field(mad::kNodeRecord, rec, "LID"));
  r.info = NodeInfo::from(rec.subspan(mad::kNodeRecordNodeInfo, mad::kNodeInfo.bytes));
  r.description = mad::c_string(rec.subspan(mad::kNodeRecordNodeDesc, mad::kNodeDescription.bytes));
  return r;
}

std::set<uint16_t> node_record_lids(const std::vector<std::vector<uint8_t>>& records,
                                    std::optional<uint64_t> guid,
                                    const std::optional<std::string>& name) {
  std::set<uint16_t> lids;
  for (const auto& bytes : records) {
    NodeRecord r = NodeRecord::from(bytes);
    if (guid && *guid != r.info.node_guid && *guid != r.info.port_guid) continue;
    if (name && *name != r.description) continue;
    lids.insert(r.lid);
  }
  return lids;
}

void path_example(const mad::LocalPort& local, std::span<const mad::Target> ends,
                  const PathFilter& pf, std::vector<uint8_t>& example, uint64_t& mask) {
  const mad::AttrDef& pr = mad::kPathRecord;
  example.assign(pr.bytes, 0);
  mask = 0;
  auto set = [&](const char* field, uint64_t v) {
    mad::set_field(pr, example, field, v);
    mask |= mad::component_mask(pr, {field});
  };
  auto end = [&](const mad::Target& t, bool src) {
    switch (t.kind) {
      case mad::Target::Kind::Lid:
        return set(src ? "SLID" : "DLID", t.lid);
      case mad::Target::Kind::Dr:
        throw Error("a path runs between LIDs or GIDs; \"" + t.text + "\" is a directed route");
      case mad::Target::Kind::Name:
        throw Error("a path runs between LIDs or GIDs; give " + t.text + "'s lid or guid");
      case mad::Target::Kind::Gid:
      case mad::Target::Kind::Guid:
        break;
    }
    const char* field = src ? "SGID" : "DGID";
    put_gid(pr, field, example,
            t.kind == mad::Target::Kind::Gid ? t.gid : mad::make_gid(local.gid_prefix, t.guid));
    mask |= mad::component_mask(pr, {field});
  };
  if (ends.size() == 1) {
    mad::Target self;
    self.kind = mad::Target::Kind::Guid;
    self.guid = local.port_guid;
    end(self, true);
  } else if (ends.size() == 2) {
    end(ends[0], true);
  }
  if (!ends.empty()) end(ends.back(), false);
  if (pf.pkey) set("P_Key", *pf.pkey);
  if (pf.sl) set("SL", *pf.sl);
  if (pf.mtu) set("MTUSelector", 2), set("MTU", *pf.mtu);
  if (pf.rate) set("RateSelector", 2), set("Rate", *pf.rate);
}

bool SaQuery::paths() const {
  return kind->record == &mad::kPathRecord;
}

void SaQuery::add(const SaFilter& f, const SaFilterValue& v) {
  put_sa_filter(*kind, f, v, example, mask);
  filters.push_back(&f);
}

void SaQuery::complete(uint64_t gid_prefix) {
  if (lid) put_sa_lid(*kind, example, mask, *lid);
  for (const SaFilter* f : filters) put_sa_prefix(*kind, *f, example, gid_prefix);
}

bool SaQuery::answers(std::span<const uint8_t> rec,
                      const std::optional<std::set<uint16_t>>& lids) const {
  uint16_t l = sa_record_lid(*kind, rec);
  if (lid && l != *lid) return false;
  if (lids && !lids->count(l)) return false;
  return std::all_of(filters.begin(), filters.end(),
                     [&](const SaFilter* f) { return sa_filter_matches(*kind, *f, rec, example); });
}

bool sa_needs_sm_key(const mad::AttrDef& rec, uint64_t sm_key, const mad::Failure& f) {
  return &rec == &mad::kPKeyTableRecord && !sm_key && f.kind == mad::Failure::Kind::Status &&
         f.status == mad::kSaStatusReqInvalid;
}

}  // namespace rdma::ib
