#include "lib/mad/sa.h"

#include <algorithm>

#include "lib/error.h"
#include "lib/mad/mad.h"

namespace rdma::mad {

namespace {

constexpr size_t kSaHeaderBytes = 20;  // SM_Key .. ComponentMask, counted in PayloadLength

}  // namespace

SaTable split_table(std::span<const uint8_t> reply, const AttrDef& rec) {
  size_t start = data_offset(kClassSa);
  if (reply.size() < start)
    throw Error("malformed " + std::string(rec.name) + " table: " + std::to_string(reply.size()) +
                " bytes");
  auto get = [&](const FieldDef& f) { return get_bits(reply, f.bit, f.width); };
  size_t stride = get(hdr::kAttrOffset) * 8;
  size_t have = reply.size() - start;
  size_t announced = have;
  uint64_t flags = get(hdr::kRmppFlags);
  bool counted = (flags & kRmppActive) && (flags & kRmppFirst);
  if (counted) {
    uint64_t len = get(hdr::kRmppPayload);
    announced = len > kSaHeaderBytes ? len - kSaHeaderBytes : 0;
  }
  SaTable t;
  if (stride == 0) return t;  // no record
  if (stride < rec.bytes)
    throw Error("malformed " + std::string(rec.name) + " table: records of " +
                std::to_string(stride) + " bytes, need " + std::to_string(rec.bytes));
  size_t count = std::min(announced, have) / stride;
  for (size_t i = 0; i < count; ++i) {
    auto r = reply.subspan(start + i * stride, stride);
    t.records.emplace_back(r.begin(), r.end());
  }
  if (announced > have) t.missing = announced / stride - count;
  // A transfer with more segments to come, of which this is all there is:
  // the next record begun and not ended.
  t.cut = !counted && (flags & kRmppActive) && !(flags & kRmppLast) && have % stride;
  return t;
}

std::string cut_warning(const SaTable& t, const AttrDef& rec) {
  std::string table = "the SA's " + std::string(rec.name) + " table";
  if (t.missing)
    return table + " lacks " + std::to_string(t.missing) + " of its records (no RMPP?)";
  if (t.cut)
    return table + " is cut short after " + std::to_string(t.records.size()) +
           (t.records.size() == 1 ? " record" : " records") +
           ": an unknown number of its records is missing (no RMPP?)";
  return "";
}

SaTable get_table(Engine& e, uint16_t sa_lid, const AttrDef& rec, uint64_t mask,
                  std::span<const uint8_t> example, uint64_t sm_key) {
  Mad q = make_gmp(kClassSa, kSaGetTable, rec, 0);
  q.set(hdr::kCompMask, mask);
  q.set(hdr::kSmKey, sm_key);
  std::copy_n(example.begin(), std::min<size_t>(example.size(), q.data().size()), q.data().begin());
  std::vector<uint8_t> whole;
  std::optional<Failure> failure;
  e.submit({q, gsi_address(sa_lid),
            std::string(rec.name) + " table from the SA at lid " + std::to_string(sa_lid),
            [&](const Mad*, const Failure* f) {
              if (f) failure = *f;
            },
            &whole});
  e.run();
  if (failure) {
    // An SA answers an empty table with "no records" too.
    if (failure->kind == Failure::Kind::Status && (failure->status >> 8) == kSaNoRecords) return {};
    throw MadError(*failure);
  }
  return split_table(whole, rec);
}

std::vector<uint8_t> modify_record(Engine& e, uint16_t sa_lid, uint8_t method, const AttrDef& rec,
                                   uint64_t mask, std::span<const uint8_t> record,
                                   uint64_t sm_key) {
  Mad q = make_gmp(kClassSa, method, rec, 0);
  q.set(hdr::kCompMask, mask);
  q.set(hdr::kSmKey, sm_key);
  std::copy_n(record.begin(), std::min<size_t>(record.size(), q.data().size()), q.data().begin());
  std::string what = std::string(rec.name) + (method == kSaDelete ? " Delete" : " Set") +
                     " at the SA at lid " + std::to_string(sa_lid);
  Mad r = e.call(q, gsi_address(sa_lid), what);
  return {r.data().begin(), r.data().begin() + rec.bytes};
}

std::vector<uint8_t> get_one(Engine& e, uint16_t sa_lid, const AttrDef& a) {
  Mad q = make_gmp(kClassSa, kGet, a, 0);
  std::vector<uint8_t> out;
  std::optional<Failure> failure;
  e.submit({q, gsi_address(sa_lid),
            std::string(a.name) + " from the SA at lid " + std::to_string(sa_lid),
            [&](const Mad* r, const Failure* f) {
              if (f)
                failure = *f;
              else if (r)
                out.assign(r->data().begin(), r->data().begin() + a.bytes);
            }});
  e.run();
  if (failure) throw MadError(*failure);
  if (out.size() < a.bytes) throw Error("no " + std::string(a.name) + " from the SA");
  return out;
}

}  // namespace rdma::mad
