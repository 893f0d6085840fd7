#include "lib/ibtest/attrs_extra.h"

namespace rdma::ibtest {

namespace {

using mad::FieldDef;
using mad::Fmt;

constexpr FieldDef kLftFields[] = {{"Port", "port", 0, 8, Fmt::Uint, mad::kShow, 64}};
constexpr FieldDef kNodeRecordFields[] = {{"LID", "lid", 0, 16}};
constexpr FieldDef kPortInfoRecordFields[] = {
    {"EndportLID", "lid", 0, 16}, {"PortNum", "port", 16, 8}, {"Options", "options", 24, 8}};
constexpr FieldDef kSwitchInfoRecordFields[] = {{"LID", "lid", 0, 16}};
constexpr FieldDef kLftRecordFields[] = {{"LID", "lid", 0, 16},
                                         {"BlockNum", "block", 16, 16},
                                         {"Port", "port", 64, 8, Fmt::Uint, mad::kShow, 64}};
constexpr FieldDef kSmInfoRecordFields[] = {{"LID", "lid", 0, 16}};
constexpr FieldDef kLinkRecordFields[] = {{"FromLID", "from_lid", 0, 16},
                                          {"FromPort", "from_port", 16, 8},
                                          {"ToPort", "to_port", 24, 8},
                                          {"ToLID", "to_lid", 32, 16}};

}  // namespace

const mad::AttrDef kLinearForwardingTable{"LinearForwardingTable", 0x0019, mad::kClassSmiLid, 64,
                                          kLftFields};
const mad::AttrDef kNodeRecord{"NodeRecord", 0x0011, mad::kClassSa, 112, kNodeRecordFields};
const mad::AttrDef kPortInfoRecord{"PortInfoRecord", 0x0012, mad::kClassSa, 72,
                                   kPortInfoRecordFields};
const mad::AttrDef kSwitchInfoRecord{"SwitchInfoRecord", 0x0014, mad::kClassSa, 24,
                                     kSwitchInfoRecordFields};
const mad::AttrDef kLftRecord{"LinearForwardingTableRecord", 0x0015, mad::kClassSa, 72,
                              kLftRecordFields};
const mad::AttrDef kSmInfoRecord{"SMInfoRecord", 0x0018, mad::kClassSa, 32, kSmInfoRecordFields};
const mad::AttrDef kLinkRecord{"LinkRecord", 0x0020, mad::kClassSa, 8, kLinkRecordFields};

}  // namespace rdma::ibtest
