// SA records beyond those discovery reads (attrs.h): what `sa show mft`
// and `sa show inform` list, kept out of attrs.h, which most of the tree
// includes.
#pragma once

#include <cstddef>

#include "lib/mad/field.h"

namespace rdma::mad {

// MulticastForwardingTableRecord (15.2.5.8): LID, Position, BlockNum; one
// MulticastForwardingTable block (32 port masks) at kTableRecordBlock.
extern const AttrDef kMftRecord;
// InformInfo (13.4.8.3): a subscription to traps or notices, as the SA
// keeps it; InformInfoRecord (15.2.5.12): the subscriber's GID and its
// InformInfo at kInformInfoRecordInformInfo.
extern const AttrDef kInformInfo;
extern const AttrDef kInformInfoRecord;
inline constexpr size_t kInformInfoRecordInformInfo = 24;

}  // namespace rdma::mad
