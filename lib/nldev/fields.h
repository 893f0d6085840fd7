// What each nldev view shows: one field list per view, rendered by the
// shared text and JSON printers (lib/view).
#pragma once

#include <span>

#include "lib/nldev/spec.h"

namespace rdma::nldev {

extern const std::span<const FieldSpec> kDevFields;
extern const std::span<const FieldSpec> kLinkFields;  // after "link DEV/PORT"
extern const std::span<const FieldSpec> kSysFields;

}  // namespace rdma::nldev
