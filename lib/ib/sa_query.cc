#include "lib/ib/sa_query.h"

#include <strings.h>

#include <algorithm>

#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/mad/format.h"
#include "lib/mad/mad.h"
#include "lib/view/number.h"

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

uint8_t take_sa_selector(std::string& word) {
  static constexpr char kOps[] = {'>', '<', '='};  // selectors 0, 1, 2
  for (uint8_t i = 0; i < 3; ++i)
    if (!word.empty() && word[0] == kOps[i]) {
      word.erase(0, 1);
      return i;
    }
  return 2;
}

void path_example(const mad::LocalPort& local, std::span<const mad::Target> ends,
                  const PathFilter& pf, std::vector<uint8_t>& example, uint64_t& mask) {
  const mad::AttrDef& pr = mad::kPathRecord;
  if (example.size() < pr.bytes) example.resize(pr.bytes);
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
  auto selected = [&](const std::optional<SaSelected>& v, const char* sel, const char* field) {
    if (!v) return;
    set(sel, v->selector);
    if (v->selector != 3) set(field, v->value);
  };
  selected(pf.mtu, "MTUSelector", "MTU");
  selected(pf.rate, "RateSelector", "Rate");
  selected(pf.lifetime, "PacketLifeTimeSelector", "PacketLifeTime");
}

bool SaQuery::paths() const {
  return kind->record == &mad::kPathRecord;
}

void SaQuery::add(const SaFilter& f, const SaFilterValue& v) {
  put_sa_filter(*kind, f, v, example, mask);
  filters.push_back(&f);
}

void SaQuery::add(const SaFieldMatch& m) {
  fields.push_back(m);
  if (mad::component_bit(*kind->record, m.field->name) < 0) return;
  std::span<uint8_t> at = std::span(example).subspan(m.at, m.attr->bytes);
  if (m.number) {
    mad::set_field(*m.attr, at, m.field->name, *m.number);
  } else if (m.field->fmt == mad::Fmt::Gid) {
    std::ranges::copy(m.gid, bytes_of(*m.field, at).begin());
  } else {
    return;  // an enumeration by name: checked in the records only
  }
  mask |= mad::component_mask(*kind->record, {m.field->name});
}

void SaQuery::ask_cap_bit(uint32_t bit) {
  cap_bit = bit;
  bitwise = true;
  std::span<uint8_t> pi = std::span(example).subspan(kind->at[0], mad::kPortInfo.bytes);
  mad::set_field(mad::kPortInfo, pi, "CapabilityMask", bit);
  mask |= mad::component_mask(*kind->record, {"CapabilityMask"});
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
  if (cap_bit && rec.size() >= kind->at[0] + mad::kPortInfo.bytes &&
      !(mad::get_field(mad::kPortInfo, rec.subspan(kind->at[0]), "CapabilityMask") & *cap_bit))
    return false;
  for (const SaFieldMatch& m : fields)
    if (!sa_field_matches(m, rec)) return false;
  return std::all_of(filters.begin(), filters.end(),
                     [&](const SaFilter* f) { return sa_filter_matches(*kind, *f, rec, example); });
}

SaFieldMatch sa_field_match(const SaKind& k, const std::string& key, const std::string& value) {
  SaFieldMatch m;
  std::vector<std::string> keys;
  auto look = [&](const mad::AttrDef& a, size_t at) {
    for (const mad::FieldDef& f : a.fields) {
      if (f.level == mad::kHidden || f.count != 1) continue;
      keys.push_back(f.label);
      if (!m.field && key == f.label) m.attr = &a, m.at = at, m.field = &f;
    }
  };
  look(*k.record, 0);
  for (int i = 0; i < 2 && k.carried[i]; ++i) look(*k.carried[i], k.at[i]);
  if (!m.field) {
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    std::string all;
    for (const std::string& x : keys) all += (all.empty() ? "" : ", ") + x;
    throw UsageError("unknown " + std::string(k.word) + " field \"" + key + "\" (" + all + ")");
  }
  const mad::FieldDef& f = *m.field;
  auto bad = [&](const std::string& why) {
    return UsageError("invalid " + key + " \"" + value + "\" (" + why + ")");
  };
  switch (f.fmt) {
    case mad::Fmt::Gid:
      m.gid = mad::parse_gid(value);
      return m;
    case mad::Fmt::Str:
    case mad::Fmt::Desc:
      if (value.size() > f.width / 8)
        throw bad("at most " + std::to_string(f.width / 8) + " bytes");
      m.text = value;
      return m;
    default:
      break;
  }
  uint64_t max = f.width >= 64 ? ~uint64_t{0} : (uint64_t{1} << f.width) - 1;
  if (std::optional<uint64_t> v = view::parse_number(value, {.max = max, .c_bases = true})) {
    m.number = *v;
  } else if (f.fmt == mad::Fmt::Uint || f.fmt == mad::Fmt::Hex || f.fmt == mad::Fmt::Guid ||
             f.fmt == mad::Fmt::Key) {
    throw bad("a number up to " + std::to_string(max));
  } else {
    m.text = value;  // an enumeration's printed name
  }
  return m;
}

bool sa_field_matches(const SaFieldMatch& m, std::span<const uint8_t> rec) {
  if (rec.size() < m.at + m.attr->bytes) return false;
  std::span<const uint8_t> a = rec.subspan(m.at, m.attr->bytes);
  const mad::FieldDef& f = *m.field;
  if (f.fmt == mad::Fmt::Gid) return std::ranges::equal(bytes_of(f, a), m.gid);
  if (f.fmt == mad::Fmt::Str || f.fmt == mad::Fmt::Desc)
    return mad::c_string(bytes_of(f, a)) == m.text;
  uint64_t v = mad::get_field(*m.attr, a, f.name);
  if (m.number) return v == *m.number;
  return strcasecmp(mad::value_text(f.fmt, v, f.width).c_str(), m.text.c_str()) == 0;
}

std::optional<uint16_t> named_node_lid(const std::vector<std::vector<uint8_t>>& records,
                                       const std::string& name, const NodeNameMap& map) {
  for (const auto& bytes : records) {
    NodeRecord r = NodeRecord::from(bytes);
    if (map.name(r.info.node_guid, r.description) == name || r.description == name) return r.lid;
  }
  return std::nullopt;
}

bool sa_needs_sm_key(const mad::AttrDef& rec, uint64_t sm_key, const mad::Failure& f) {
  return &rec == &mad::kPKeyTableRecord && !sm_key && f.kind == mad::Failure::Kind::Status &&
         f.status == mad::kSaStatusReqInvalid;
}

}  // namespace rdma::ib
