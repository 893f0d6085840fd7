// A key of the engine's destinations ("d" and a route's ports, "l" and a
// DLID, "G" and a GUID): 16 bytes, inline up to 15 (lib/mad/small_bytes.h),
// where a std::string was 32.
#pragma once

#include "lib/mad/small_bytes.h"

namespace rdma::mad {

using ShortKey = SmallBytes;

}  // namespace rdma::mad
