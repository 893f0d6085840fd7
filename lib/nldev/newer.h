// nldev attributes newer than lib/nl/nldev.h knows (that header's owner
// was busy elsewhere when these came; they belong there, and move there
// with the next change to it).
#pragma once

namespace rdma::nldev {

// RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_MAX (u64, inside a RES_SUMMARY_ENTRY):
// the device's limit for the entry's kind (max_qp, max_cq, max_mr, max_pd,
// max_srq), after FRMR_POOL_KEY_KERNEL_VENDOR_KEY in the kernel's uapi enum
// (rdma for-next 5911f6d6e7cc, 2026). Absent for kinds without a limit
// (cm_id, ctx) and on older kernels.
inline constexpr int kAttrResSummaryEntryMax = 118;

}  // namespace rdma::nldev
