#include "lib/ib/sa_records.h"

#include <set>
#include <string>
#include <utility>

#include "lib/error.h"
#include "lib/mad/attrs.h"
#include "lib/mad/attrs_sa.h"
#include "lib/mad/format.h"

namespace rdma::ib {

namespace {

using V = SaFilter::Value;

// Each record's filter words and the fields they select (their
// ComponentMask bits are attrs_sa.cc's). Port numbers go to 254 (255 is no
// port).
constexpr uint64_t kMaxPort = 254;
constexpr SaFilter kPortFilters[] = {{"port", "PortNum", V::Number, kMaxPort}};
constexpr SaFilter kLinkFilters[] = {{"port", "FromPort", V::Number, kMaxPort}};
constexpr SaFilter kLftFilters[] = {{"block", "BlockNum", V::Number, 0xffff}};
constexpr SaFilter kGuidFilters[] = {{"block", "BlockNum"}};
constexpr SaFilter kPKeyFilters[] = {{"port", "PortNum", V::Number, kMaxPort},
                                     {"block", "BlockNum", V::Number, 0x7ff}};
constexpr SaFilter kSl2VlFilters[] = {{"in_port", "InputPortNum", V::Number, kMaxPort},
                                      {"out_port", "OutputPortNum", V::Number, kMaxPort}};
constexpr SaFilter kVlArbFilters[] = {{"port", "OutputPortNum", V::Number, kMaxPort},
                                      {"block", "BlockNum", V::Number, 4}};
constexpr SaFilter kServiceFilters[] = {{"id", "ServiceID", V::Number, ~uint64_t{0}},
                                        {"guid", "ServiceGID", V::Guid},
                                        {"name", "ServiceName", V::Name}};
// PathRecord components besides the ends and the selector pairs (MTU,
// rate, packet lifetime: PathFilter).
constexpr SaFilter kPathFilters[] = {{"pkey", "P_Key", V::Number, 0xffff},
                                     {"sl", "SL", V::Number, 15},
                                     {"reversible", "Reversible", V::Number, 1},
                                     {"numb_path", "NumbPath", V::Number, 0x7f},
                                     {"qos_class", "QoSClass", V::Number, 0xfff},
                                     {"tclass", "TClass"},
                                     {"flow_label", "FlowLabel", V::Number, 0xfffff},
                                     {"hop_limit", "HopLimit"},
                                     {"service_id", "ServiceID", V::Number, ~uint64_t{0}}};
constexpr SaFilter kMftFilters[] = {{"position", "Position", V::Number, 15},
                                    {"block", "BlockNum", V::Number, 0x1ff}};
constexpr SaFilter kInformFilters[] = {{"gid", "SubscriberGID", V::Gid}};
// saquery -s: the ports whose CapabilityMask has IsSM, then IsSMdisabled.
constexpr uint32_t kSmPortBits[] = {1u << 1, 1u << 10};
constexpr SaFilter kMcastFilters[] = {
    {"mgid", "MGID", V::Gid}, {"guid", "PortGID", V::Guid}, {"mlid", "MLID", V::Number, 0xffff}};

const SaKind kKinds[] = {
    {"nodes",
     &mad::kNodeRecord,
     {&mad::kNodeInfo, &mad::kNodeDescription},
     {mad::kNodeRecordNodeInfo, mad::kNodeRecordNodeDesc},
     0},
    {"ports",
     &mad::kPortInfoRecord,
     {&mad::kPortInfo},
     {mad::kPortInfoRecordPortInfo},
     0,
     kPortFilters},
    {"links", &mad::kLinkRecord, {}, {}, 0, kLinkFilters},
    {"paths", &mad::kPathRecord, {}, {}, -1, kPathFilters},
    {"switches",
     &mad::kSwitchInfoRecord,
     {&mad::kSwitchInfo},
     {mad::kSwitchInfoRecordSwitchInfo},
     0},
    {"sm", &mad::kSmInfoRecord, {&mad::kSmInfo}, {mad::kSmInfoRecordSmInfo}, 0},
    {"smports",
     &mad::kPortInfoRecord,
     {&mad::kPortInfo},
     {mad::kPortInfoRecordPortInfo},
     0,
     kPortFilters,
     false,
     kSmPortBits},
    {"lft", &mad::kLftRecord, {}, {}, 0, kLftFilters},
    {"services", &mad::kServiceRecord, {}, {}, -1, kServiceFilters},
    {"mcast", &mad::kMcMemberRecord, {}, {}, -1, kMcastFilters},
    {"mft",
     &mad::kMftRecord,
     {&mad::kMulticastForwardingTable},
     {mad::kTableRecordBlock},
     0,
     kMftFilters},
    {"inform",
     &mad::kInformInfoRecord,
     {&mad::kInformInfo},
     {mad::kInformInfoRecordInformInfo},
     -1,
     kInformFilters},
    {"guids", &mad::kGuidInfoRecord, {&mad::kGuidInfo}, {mad::kTableRecordBlock}, 0, kGuidFilters},
    {"pkeys",
     &mad::kPKeyTableRecord,
     {&mad::kPKeyTable},
     {mad::kTableRecordBlock},
     0,
     kPKeyFilters},
    {"sl2vl", &mad::kSl2VlRecord, {&mad::kSl2VlTable}, {mad::kTableRecordBlock}, 0, kSl2VlFilters},
    {"vlarb", &mad::kVlArbRecord, {&mad::kVlArbTable}, {mad::kTableRecordBlock}, 0, kVlArbFilters},
    {"classportinfo", &mad::kClassPortInfo, {}, {}, -1, {}, true},
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

const SaFilter* find_sa_filter(const SaKind& k, std::string_view word) {
  for (const SaFilter& f : k.filters)
    if (word == f.word) return &f;
  return nullptr;
}

void sa_record(const SaKind& k, std::span<const uint8_t> rec, int detail, view::Record& out,
               bool show_keys) {
  mad::decode(*k.record, rec, detail, out, {.show_keys = show_keys});
  std::set<std::string> keys;
  for (const view::Field& f : out) keys.insert(f.key);
  view::Record more;
  for (int i = 0; i < 2 && k.carried[i]; ++i) {
    more.clear();
    const mad::AttrDef& a = *k.carried[i];
    if (rec.size() < k.at[i] + a.bytes) continue;
    mad::decode(a, rec.subspan(k.at[i], a.bytes), detail, more, {.show_keys = show_keys});
    for (const view::Field& f : more) {
      if (!f.key.empty() && !keys.insert(f.key).second) continue;
      out.next() = f;
    }
  }
}

void sa_fix_record(const SaKind& k, std::span<uint8_t> rec) {
  if (k.record == &mad::kPKeyTableRecord && rec.size() >= 4 && rec[3] == 0 && rec[2] != 0)
    std::swap(rec[2], rec[3]);
}

uint16_t sa_record_lid(const SaKind& k, std::span<const uint8_t> rec) {
  if (k.lid_bit < 0 || rec.size() < 2) return 0;
  return static_cast<uint16_t>(mad::get_field(*k.record, rec, k.record->fields[0].name));
}

std::span<const uint8_t> sa_carried(const mad::AttrDef& record, const mad::AttrDef& attr,
                                    std::span<const uint8_t> rec) {
  for (const SaKind& k : kKinds) {
    if (k.record != &record) continue;
    for (size_t i = 0; i < 2; ++i)
      if (k.carried[i] == &attr) {
        if (rec.size() < k.at[i] + attr.bytes)
          throw Error(std::string(record.name) + " too short for its " + attr.name);
        return rec.subspan(k.at[i], attr.bytes);
      }
  }
  throw Error(std::string(record.name) + " carries no " + attr.name);
}

}  // namespace rdma::ib
