#include "lib/mad/sa.h"

#include <algorithm>

#include "lib/error.h"
#include "lib/mad/mad.h"

namespace rdma::mad {

namespace {

constexpr size_t kSaHeaderBytes = 20;  // SM_Key .. ComponentMask, counted in PayloadLength

[[noreturn]] void not_adding_up(const AttrDef& rec, const std::string& why) {
  throw Error("the SA's " + std::string(rec.name) + " table does not add up: " + why);
}

std::string bytes_text(size_t n) {
  return std::to_string(n) + (n == 1 ? " byte" : " bytes");
}

// The RMPP header of a transfer as the kernel hands it over: the first
// segment's (IBA 13.6.2.1). Version 0 is no RMPP header at all beyond the
// Active flag: opensm leaves the rest to the kernel, and under ibsim
// (umad2sim) no kernel fills it in.
void check_rmpp_header(std::span<const uint8_t> reply, const AttrDef& rec) {
  auto get = [&](const FieldDef& f) { return get_bits(reply, f.bit, f.width); };
  uint64_t version = get(hdr::kRmppVersion);
  if (version == 0) return;
  if (version != 1) not_adding_up(rec, "RMPP version " + std::to_string(version));
  if (uint64_t type = get(hdr::kRmppType); type != kRmppData)
    not_adding_up(rec, "RMPP type " + std::to_string(type) + ", not DATA");
  if (uint64_t status = get(hdr::kRmppStatus))
    not_adding_up(rec, "RMPP status " + std::to_string(status));
  // The kernel put the segments together in order from the first; another
  // number here is a segment out of its place.
  if (uint64_t segment = get(hdr::kRmppSegment); segment != 1)
    not_adding_up(rec, "it begins with RMPP segment " + std::to_string(segment) + ", not 1");
  if (!(get(hdr::kRmppFlags) & kRmppFirst))
    not_adding_up(rec, "its first RMPP segment is not marked first");
}

}  // namespace

SaTable split_table(std::span<const uint8_t> reply, const AttrDef& rec) {
  size_t start = data_offset(kClassSa);
  if (reply.size() < start)
    throw Error("malformed " + std::string(rec.name) + " table: " + std::to_string(reply.size()) +
                " bytes");
  auto get = [&](const FieldDef& f) { return get_bits(reply, f.bit, f.width); };
  size_t stride = get(hdr::kAttrOffset) * 8;
  size_t have = reply.size() - start;
  std::span<const uint8_t> data = reply.subspan(start);
  uint64_t flags = get(hdr::kRmppFlags);
  bool active = flags & kRmppActive, last = flags & kRmppLast;
  if (active) check_rmpp_header(reply, rec);
  // One whole MAD: what umad gives of a reply no RMPP put together, its
  // end padding or the first segment of more; any other length is the
  // transfer's own (the kernel's reassembly, or umad2sim's copy).
  bool one_mad = reply.size() == kMadBytes;
  // PayloadLength counts the transfer in its first segment (0: not said).
  uint64_t paylen = get(hdr::kRmppPayload);
  bool counted = active && (flags & kRmppFirst) && paylen != 0;
  size_t announced = have;
  if (counted) {
    if (paylen < kSaHeaderBytes)
      not_adding_up(rec, "RMPP PayloadLength " + std::to_string(paylen) +
                             " is shorter than the SA header (20 bytes)");
    announced = paylen - kSaHeaderBytes;
  }
  SaTable t;
  if (stride == 0) {  // no record: nothing may follow but a MAD's padding
    bool records = counted ? announced != 0
                           : std::any_of(data.begin(), data.end(), [](uint8_t b) { return b; });
    if (records)
      not_adding_up(rec, "AttributeOffset 0 (no records) before " +
                             bytes_text(counted ? announced : have) + " of records");
    return t;
  }
  if (stride < rec.bytes)
    throw Error("malformed " + std::string(rec.name) + " table: records of " +
                std::to_string(stride) + " bytes, need " + std::to_string(rec.bytes));
  std::string whole = " (records of " + bytes_text(stride) + ")";
  if (counted) {
    if (announced % stride)
      not_adding_up(rec, "its RMPP header announces " + bytes_text(announced) +
                             ", not a whole number of records" + whole);
    // Less than announced is the first MAD alone (a transport without
    // RMPP: a warning below) or a transfer cut short; more, padding of a
    // single MAD or a transfer the kernel's length does not match.
    bool first_alone = one_mad && !last && have < announced;
    if (!first_alone && (have < announced || (have > announced && reply.size() > kMadBytes)))
      not_adding_up(rec, bytes_text(have) + " of records arrived, its RMPP header announced " +
                             std::to_string(announced));
  } else if (have % stride && !one_mad) {
    not_adding_up(rec, "it ends inside a record: " + bytes_text(have) + " of records" + whole);
  }
  size_t count = std::min(announced, have) / stride;
  for (size_t i = 0; i < count; ++i) {
    auto r = data.subspan(i * stride, stride);
    t.records.emplace_back(r.begin(), r.end());
  }
  if (announced > have) t.missing = announced / stride - count;
  // A transfer with more segments to come, of which this is all there is:
  // the next record begun and not ended.
  t.cut = !counted && active && !last && have % stride;
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
                  std::span<const uint8_t> example, uint64_t sm_key, bool bitwise) {
  // IBA 1.2.1 errata: AttributeModifier bit 31 asks for the enhanced
  // (bitwise) compare of mask components such as CapabilityMask.
  Mad q = make_gmp(kClassSa, kSaGetTable, rec, bitwise ? 1u << 31 : 0);
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
