// Payload types of nldev attributes, to reject malformed kernel replies.
#pragma once

namespace rdma::nl {

enum class AttrType { Unknown, U8, U32, U64, String, Nested, Binary };

// Attribute ids below this are known (Linux 6.12 defines up to 103; 104,
// STAT_OPCOUNTER_ENABLED, came with 6.15; 105-117, the FRMR pools, with 7.0).
inline constexpr int kAttrTableSize = 118;

// Unknown for ids the tool does not know (newer kernels): those are ignored.
AttrType attr_type(int id);
const char* attr_name(int id);

}  // namespace rdma::nl
