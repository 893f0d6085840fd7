// `rdma resource show frmr_pools` and `rdma resource set frmr_pools` (Linux
// 7.0's FRMR pools; older kernels refuse the commands).
#pragma once

#include "rdma/command.h"

namespace rdma {

// After "show frmr_pools": [dev DEV] [FILTER VALUE]...
void res_show_frmr(Ctx& c);
// After "set": frmr_pools dev DEV { aging SECONDS | pinned KEY N }.
void res_set(Ctx& c);

}  // namespace rdma
