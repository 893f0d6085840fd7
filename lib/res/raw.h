// Raw driver data of an entry (-r, RDMA_NLDEV_ATTR_RES_RAW).
#pragma once

#include <cstdint>
#include <span>

#include "lib/view/record.h"

namespace rdma::res {

// "data 0004fffe 00000000 1c10 " in text (hex, 4-byte groups), a byte array
// in JSON ("data":[0,4,255,254,...]).
void append_raw(std::span<const uint8_t> data, view::Record& r);

}  // namespace rdma::res
