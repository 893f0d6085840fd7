// `rdma resource show [DEV]`: per device, how many objects of each kind.
#pragma once

#include <libmnl/libmnl.h>

#include "lib/view/record.h"

namespace rdma::res {

// "0: rxe0: pd 7 cq 5 ... " from one RES_GET reply, with every name the
// kernel sends, in its order; "qp 5/16384" where the kernel sends the
// limit, and JSON "qp": 5, "qp-max": 16384 (iproute2's layout). Throws Error
// for a malformed reply.
void summary_record(const nlmsghdr* nlh, view::Record& r);

}  // namespace rdma::res
