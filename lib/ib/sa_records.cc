#include "lib/ib/sa_records.h"

#include <set>
#include <string>

#include "lib/mad/attrs.h"
#include "lib/mad/bits.h"
#include "lib/mad/format.h"

namespace rdma::ib {

namespace {

const SaKind kKinds[] = {
    {"nodes",
     &mad::kNodeRecord,
     {&mad::kNodeInfo, &mad::kNodeDescription},
     {mad::kNodeRecordNodeInfo, mad::kNodeRecordNodeDesc},
     0,
     -1},
    {"ports", &mad::kPortInfoRecord, {&mad::kPortInfo}, {mad::kPortInfoRecordPortInfo}, 0, 1},
    {"links", &mad::kLinkRecord, {}, {}, 0, 1},
    {"paths", &mad::kPathRecord, {}, {}, -1, -1},
    {"switches",
     &mad::kSwitchInfoRecord,
     {&mad::kSwitchInfo},
     {mad::kSwitchInfoRecordSwitchInfo},
     0,
     -1},
    {"sm", &mad::kSmInfoRecord, {&mad::kSmInfo}, {mad::kSmInfoRecordSmInfo}, 0, -1},
    {"lft", &mad::kLftRecord, {}, {}, 0, -1},
};

}  // namespace

std::span<const SaKind> sa_kinds() {
  return kKinds;
}

const SaKind* find_sa_kind(std::string_view word) {
  if (word.empty()) return nullptr;
  for (const SaKind& k : kKinds)
    if (std::string_view(k.word).starts_with(word)) return &k;
  return nullptr;
}

void sa_record(const SaKind& k, std::span<const uint8_t> rec, int detail, view::Record& out) {
  mad::decode(*k.record, rec, detail, out);
  std::set<std::string> keys;
  for (const view::Field& f : out) keys.insert(f.key);
  view::Record more;
  for (int i = 0; i < 2 && k.carried[i]; ++i) {
    more.clear();
    const mad::AttrDef& a = *k.carried[i];
    if (rec.size() < k.at[i] + a.bytes) continue;
    mad::decode(a, rec.subspan(k.at[i], a.bytes), detail, more);
    for (const view::Field& f : more) {
      if (!f.key.empty() && !keys.insert(f.key).second) continue;
      out.next() = f;
    }
  }
}

uint16_t sa_record_lid(const SaKind& k, std::span<const uint8_t> rec) {
  if (k.lid_bit < 0 || rec.size() < 2) return 0;
  return static_cast<uint16_t>(mad::get_bits(rec, 0, 16));
}

}  // namespace rdma::ib
