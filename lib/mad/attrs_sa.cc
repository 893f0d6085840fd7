// Subnet administration records (IBA vol 1, 15.2.5): each record's own
// fields; the attribute it carries (NodeInfo, PortInfo, ...) follows at the
// byte offset attrs.h gives, decoded with that attribute's table.
#include "lib/mad/attrs_sa.h"

#include <string>

#include "lib/error.h"
#include "lib/mad/attrs.h"

namespace rdma::mad {

namespace {

constexpr FieldDef kPathRecordFields[] = {
    {"ServiceID", "service_id", 0, 64, Fmt::Hex, kDetail},
    {"DGID", "dgid", 64, 128, Fmt::Gid},
    {"SGID", "sgid", 192, 128, Fmt::Gid},
    {"DLID", "dlid", 320, 16},
    {"SLID", "slid", 336, 16},
    {"RawTraffic", "raw_traffic", 352, 1, Fmt::Uint, kDetail},
    {"FlowLabel", "flow_label", 356, 20, Fmt::Hex, kDetail},
    {"HopLimit", "hop_limit", 376, 8, Fmt::Uint, kDetail},
    {"TClass", "tclass", 384, 8, Fmt::Uint, kDetail},
    {"Reversible", "reversible", 392, 1, Fmt::Uint, kDetail},
    {"NumbPath", "numb_path", 393, 7, Fmt::Uint, kDetail},
    {"P_Key", "pkey", 400, 16, Fmt::Hex},
    {"QoSClass", "qos_class", 416, 12, Fmt::Uint, kDetail},
    {"SL", "sl", 428, 4},
    {"MTUSelector", "mtu_selector", 432, 2, Fmt::Uint, kDetail},
    {"MTU", "mtu", 434, 6, Fmt::Mtu},
    {"RateSelector", "rate_selector", 440, 2, Fmt::Uint, kDetail},
    {"Rate", "rate", 442, 6, Fmt::Uint, kDetail},
    {"PacketLifeTimeSelector", "packet_lifetime_selector", 448, 2, Fmt::Uint, kDetail},
    {"PacketLifeTime", "packet_lifetime", 450, 6, Fmt::Uint, kDetail},
    {"Preference", "preference", 456, 8, Fmt::Uint, kDetail},
};

constexpr FieldDef kNodeRecordFields[] = {{"LID", "lid", 0, 16}};
constexpr FieldDef kPortInfoRecordFields[] = {{"EndportLID", "lid", 0, 16},
                                              {"PortNum", "port", 16, 8},
                                              {"Options", "options", 24, 8, Fmt::Uint, kDetail}};
constexpr FieldDef kSwitchInfoRecordFields[] = {{"LID", "lid", 0, 16}};
constexpr FieldDef kLftRecordFields[] = {{"LID", "lid", 0, 16},
                                         {"BlockNum", "block", 16, 16},
                                         {"Port", "port", 64, 8, Fmt::Uint, kShow, 64}};
constexpr FieldDef kSmInfoRecordFields[] = {{"LID", "lid", 0, 16}};
constexpr FieldDef kLinkRecordFields[] = {{"FromLID", "from_lid", 0, 16},
                                          {"FromPort", "from_port", 16, 8},
                                          {"ToPort", "to_port", 24, 8},
                                          {"ToLID", "to_lid", 32, 16}};

// ServiceRecord (15.2.5.14). ServiceKey is a secret: -d only, and shown
// only with --show-keys, as saquery shows it only with --show_keys.
constexpr FieldDef kServiceRecordFields[] = {
    {"ServiceID", "service_id", 0, 64, Fmt::Hex},
    {"ServiceGID", "service_gid", 64, 128, Fmt::Gid},
    {"ServiceP_Key", "service_pkey", 192, 16, Fmt::Hex},
    {"ServiceLease", "service_lease", 224, 32, Fmt::Hex},
    {"ServiceKey", "service_key", 256, 64, Fmt::Key, kDetail, 2},
    {"ServiceName", "service_name", 384, 512, Fmt::Str},
    {"ServiceData8", "service_data8", 896, 8, Fmt::Hex, kDetail, 16},
    {"ServiceData16", "service_data16", 1024, 16, Fmt::Hex, kDetail, 8},
    {"ServiceData32", "service_data32", 1152, 32, Fmt::Hex, kDetail, 4},
    {"ServiceData64", "service_data64", 1280, 64, Fmt::Hex, kDetail, 2},
};

// MCMemberRecord (15.2.5.17): a group's parameters and one member port.
constexpr FieldDef kMcMemberRecordFields[] = {
    {"MGID", "mgid", 0, 128, Fmt::Gid},
    {"PortGID", "port_gid", 128, 128, Fmt::Gid},
    {"Q_Key", "qkey", 256, 32, Fmt::Hex},
    {"MLID", "mlid", 288, 16, Fmt::Hex},
    {"MTUSelector", "mtu_selector", 304, 2, Fmt::Uint, kDetail},
    {"MTU", "mtu", 306, 6, Fmt::Mtu},
    {"TClass", "tclass", 312, 8, Fmt::Uint, kDetail},
    {"P_Key", "pkey", 320, 16, Fmt::Hex},
    {"RateSelector", "rate_selector", 336, 2, Fmt::Uint, kDetail},
    {"Rate", "rate", 338, 6},
    {"PacketLifeTimeSelector", "packet_lifetime_selector", 344, 2, Fmt::Uint, kDetail},
    {"PacketLifeTime", "packet_lifetime", 346, 6, Fmt::Uint, kDetail},
    {"SL", "sl", 352, 4},
    {"FlowLabel", "flow_label", 356, 20, Fmt::Hex, kDetail},
    {"HopLimit", "hop_limit", 376, 8, Fmt::Uint, kDetail},
    {"Scope", "scope", 384, 4},
    {"JoinState", "join_state", 388, 4, Fmt::Hex},
    {"ProxyJoin", "proxy_join", 392, 1, Fmt::Uint, kDetail},
};

// Records of an SMP table block; the block follows at byte 8.
constexpr FieldDef kGuidInfoRecordFields[] = {{"LID", "lid", 0, 16}, {"BlockNum", "block", 16, 8}};
constexpr FieldDef kPKeyTableRecordFields[] = {
    {"LID", "lid", 0, 16}, {"BlockNum", "block", 16, 16}, {"PortNum", "port", 32, 8}};
constexpr FieldDef kSl2VlRecordFields[] = {{"LID", "lid", 0, 16},
                                           {"InputPortNum", "in_port", 16, 8},
                                           {"OutputPortNum", "out_port", 24, 8}};
constexpr FieldDef kVlArbRecordFields[] = {
    {"LID", "lid", 0, 16}, {"OutputPortNum", "port", 16, 8}, {"BlockNum", "block", 24, 8}};

// MulticastForwardingTableRecord: the block's 32 MLIDs' port masks of
// ports 16 x Position to 16 x Position + 15 follow at byte 8.
constexpr FieldDef kMftRecordFields[] = {
    {"LID", "lid", 0, 16}, {"Position", "position", 16, 4}, {"BlockNum", "block", 23, 9}};

// InformInfo: a subscription. IsGeneric 1: Type and TrapNumber name the
// trap; 0: DeviceID and VendorID (the same places).
constexpr FieldDef kInformInfoFields[] = {
    {"GID", "gid", 0, 128, Fmt::Gid},
    {"LIDRangeBegin", "lid_range_begin", 128, 16, Fmt::Hex},
    {"LIDRangeEnd", "lid_range_end", 144, 16, Fmt::Hex},
    {"IsGeneric", "is_generic", 176, 8},
    {"Subscribe", "subscribe", 184, 8},
    {"Type", "trap_type", 192, 16, Fmt::Hex},
    {"TrapNumber", "trap_number", 208, 16},
    {"QPN", "qpn", 224, 24, Fmt::Hex},
    {"RespTimeValue", "resp_time", 251, 5},
    {"ProducerType", "producer_type", 264, 24, Fmt::Hex},
};
constexpr FieldDef kInformInfoRecordFields[] = {
    {"SubscriberGID", "subscriber_gid", 0, 128, Fmt::Gid}, {"Enum", "enum", 128, 16}};

// ComponentMask bits: a record's components numbered in order (IBA
// 15.2.5), reserved ones and those of the attribute it carries counted.
struct Component {
  const AttrDef* rec;
  const char* field;
  int bit;
};

}  // namespace

const AttrDef kNodeRecord{"NodeRecord", 0x0011, kClassSa, 112, kNodeRecordFields};
const AttrDef kPortInfoRecord{"PortInfoRecord", 0x0012, kClassSa, 72, kPortInfoRecordFields};
const AttrDef kSwitchInfoRecord{"SwitchInfoRecord", 0x0014, kClassSa, 24, kSwitchInfoRecordFields};
const AttrDef kLftRecord{"LinearForwardingTableRecord", 0x0015, kClassSa, 72, kLftRecordFields};
const AttrDef kSmInfoRecord{"SMInfoRecord", 0x0018, kClassSa, 32, kSmInfoRecordFields};
const AttrDef kLinkRecord{"LinkRecord", 0x0020, kClassSa, 8, kLinkRecordFields};
const AttrDef kPathRecord{"PathRecord", 0x0035, kClassSa, 64, kPathRecordFields};
const AttrDef kServiceRecord{"ServiceRecord", 0x0031, kClassSa, 176, kServiceRecordFields};
const AttrDef kMcMemberRecord{"MCMemberRecord", 0x0038, kClassSa, 52, kMcMemberRecordFields};
const AttrDef kGuidInfoRecord{"GuidInfoRecord", 0x0030, kClassSa, 72, kGuidInfoRecordFields};
const AttrDef kPKeyTableRecord{"P_KeyTableRecord", 0x0033, kClassSa, 72, kPKeyTableRecordFields};
const AttrDef kSl2VlRecord{"SLtoVLMappingTableRecord", 0x0013, kClassSa, 16, kSl2VlRecordFields};
const AttrDef kVlArbRecord{"VLArbitrationTableRecord", 0x0036, kClassSa, 72, kVlArbRecordFields};
const AttrDef kMftRecord{"MulticastForwardingTableRecord", 0x0017, kClassSa, 72, kMftRecordFields};
const AttrDef kInformInfo{"InformInfo", 0x0003, kClassSa, 36, kInformInfoFields};
const AttrDef kInformInfoRecord{"InformInfoRecord", 0x00f3, kClassSa, 64, kInformInfoRecordFields};

namespace {

const Component kComponents[] = {
    // ServiceID is two components (its halves, IBA 1.2.1 15.2.5.16); a
    // query on it sets both.
    {&kPathRecord, "ServiceID", 0},
    {&kPathRecord, "ServiceID", 1},
    {&kPathRecord, "DGID", 2},
    {&kPathRecord, "SGID", 3},
    {&kPathRecord, "DLID", 4},
    {&kPathRecord, "SLID", 5},
    {&kPathRecord, "FlowLabel", 8},
    {&kPathRecord, "HopLimit", 9},
    {&kPathRecord, "TClass", 10},
    {&kPathRecord, "Reversible", 11},
    {&kPathRecord, "NumbPath", 12},
    {&kPathRecord, "P_Key", 13},
    {&kPathRecord, "QoSClass", 14},
    {&kPathRecord, "SL", 15},
    {&kPathRecord, "MTUSelector", 16},
    {&kPathRecord, "MTU", 17},
    {&kPathRecord, "RateSelector", 18},
    {&kPathRecord, "Rate", 19},
    {&kPathRecord, "PacketLifeTimeSelector", 20},
    {&kPathRecord, "PacketLifeTime", 21},
    {&kNodeRecord, "LID", 0},
    {&kNodeRecord, "NodeGUID", 7},  // NodeInfo's, in the record
    {&kPortInfoRecord, "EndportLID", 0},
    {&kPortInfoRecord, "PortNum", 1},
    {&kSwitchInfoRecord, "LID", 0},
    {&kLftRecord, "LID", 0},
    {&kLftRecord, "BlockNum", 1},
    {&kSmInfoRecord, "LID", 0},
    {&kLinkRecord, "FromLID", 0},
    {&kLinkRecord, "FromPort", 1},
    {&kServiceRecord, "ServiceID", 0},
    {&kServiceRecord, "ServiceGID", 1},
    {&kServiceRecord, "ServiceName", 6},
    {&kMcMemberRecord, "MGID", 0},
    {&kMcMemberRecord, "PortGID", 1},
    {&kMcMemberRecord, "MLID", 3},
    {&kGuidInfoRecord, "LID", 0},
    {&kGuidInfoRecord, "BlockNum", 1},
    // The GUIDs of the block (GUIDInfo at kTableRecordBlock), one bit each:
    // which a Set or Delete changes.
    {&kGuidInfoRecord, "GUID0", 4},
    {&kGuidInfoRecord, "GUID1", 5},
    {&kGuidInfoRecord, "GUID2", 6},
    {&kGuidInfoRecord, "GUID3", 7},
    {&kGuidInfoRecord, "GUID4", 8},
    {&kGuidInfoRecord, "GUID5", 9},
    {&kGuidInfoRecord, "GUID6", 10},
    {&kGuidInfoRecord, "GUID7", 11},
    {&kPKeyTableRecord, "LID", 0},
    {&kPKeyTableRecord, "BlockNum", 1},
    {&kPKeyTableRecord, "PortNum", 2},
    {&kSl2VlRecord, "LID", 0},
    {&kSl2VlRecord, "InputPortNum", 1},
    {&kSl2VlRecord, "OutputPortNum", 2},
    {&kMftRecord, "LID", 0},
    {&kMftRecord, "Position", 2},
    {&kMftRecord, "BlockNum", 4},
    {&kInformInfoRecord, "SubscriberGID", 0},
    {&kInformInfoRecord, "Enum", 1},
    // PortInfo's CapabilityMask, in the record: the SA matches it bit by
    // bit (the records with every bit asked set), as saquery -s asks.
    {&kPortInfoRecord, "CapabilityMask", 7},
    {&kVlArbRecord, "LID", 0},
    {&kVlArbRecord, "OutputPortNum", 1},
    {&kVlArbRecord, "BlockNum", 2},
};

}  // namespace

int component_bit(const AttrDef& rec, std::string_view name) {
  for (const Component& c : kComponents)
    if (c.rec == &rec && name == c.field) return c.bit;
  return -1;
}

uint64_t component_mask(const AttrDef& rec, std::initializer_list<std::string_view> names) {
  uint64_t mask = 0;
  for (std::string_view n : names) {
    uint64_t m = 0;  // every bit of the field (ServiceID has two)
    for (const Component& c : kComponents)
      if (c.rec == &rec && n == c.field) m |= uint64_t{1} << c.bit;
    if (!m)
      throw Error(std::string("internal: ") + rec.name + " has no component " + std::string(n));
    mask |= m;
  }
  return mask;
}

}  // namespace rdma::mad
