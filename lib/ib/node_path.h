// A node's directed route (the hops from the local port), as the model
// keeps it: 16 bytes, inline up to 15 hops (lib/mad/small_bytes.h), one a
// node where a std::vector was 24 bytes and a heap block of 32.
#pragma once

#include "lib/mad/small_bytes.h"

namespace rdma::ib {

using NodePath = mad::SmallBytes;

}  // namespace rdma::ib
