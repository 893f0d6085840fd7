// Subnet administration records (IBA vol 1, 15.2.5): each record's own
// fields; the attribute it carries (NodeInfo, PortInfo, ...) follows at the
// byte offset attrs.h gives, decoded with that attribute's table.
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

}  // namespace

const AttrDef kNodeRecord{"NodeRecord", 0x0011, kClassSa, 112, kNodeRecordFields};
const AttrDef kPortInfoRecord{"PortInfoRecord", 0x0012, kClassSa, 72, kPortInfoRecordFields};
const AttrDef kSwitchInfoRecord{"SwitchInfoRecord", 0x0014, kClassSa, 24, kSwitchInfoRecordFields};
const AttrDef kLftRecord{"LinearForwardingTableRecord", 0x0015, kClassSa, 72, kLftRecordFields};
const AttrDef kSmInfoRecord{"SMInfoRecord", 0x0018, kClassSa, 32, kSmInfoRecordFields};
const AttrDef kLinkRecord{"LinkRecord", 0x0020, kClassSa, 8, kLinkRecordFields};
const AttrDef kPathRecord{"PathRecord", 0x0035, kClassSa, 64, kPathRecordFields};

}  // namespace rdma::mad
