// Subnet administration records (IBA vol 1, 15.2.5). Only what resolving a
// GUID or GID to a LID needs.
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

}  // namespace

const AttrDef kPathRecord{"PathRecord", 0x0035, kClassSa, 64, kPathRecordFields};

}  // namespace rdma::mad
