// The fill_* functions of nldev.c: attributes of one object, in the kernel's
// order. Each returns 0, -EMSGSIZE when the skb is full, or the driver's error.
#pragma once

#include <cerrno>
#include <cstdint>
#include <string>

#include "lib/nl/nldev.h"
#include "lib/nldev/newer.h"
#include "lib/testing/kernel/skb.h"
#include "lib/testing/kernel/state.h"

namespace rdma::testkernel {

// What a fill function returns when the message is full (as nldev.c).
inline constexpr int kEmsg = -EMSGSIZE;

int fill_nldev_handle(Skb& skb, const Device& dev);
int fill_dev_info(Skb& skb, const Device& dev, KernelVersion v);
int fill_port_info(Skb& skb, const Device& dev, uint32_t port);
// with_max: the kernel sends RES_SUMMARY_ENTRY_MAX (KernelVersion::kNext).
int fill_res_info(Skb& skb, const Device& dev, bool show_details, bool with_max);
int fill_driver(Skb& skb, const DriverAttrs& attrs);

// Resource entries (res_fill_func_t). `port` is the PORT_INDEX filter (0:
// none); -EAGAIN skips an entry of another port.
int fill_res_qp_entry(Skb& skb, bool net_admin, const Device& dev, const Qp& qp, uint32_t port);
int fill_res_cm_id_entry(Skb& skb, bool net_admin, const Device& dev, const CmId& id,
                         uint32_t port);
int fill_res_cq_entry(Skb& skb, bool net_admin, const Device& dev, const Cq& cq, uint32_t port);
int fill_res_mr_entry(Skb& skb, bool net_admin, const Device& dev, const Mr& mr, uint32_t port);
int fill_res_pd_entry(Skb& skb, bool net_admin, const Device& dev, const Pd& pd, uint32_t port);
int fill_res_ctx_entry(Skb& skb, bool net_admin, const Device& dev, const Ctx& ctx, uint32_t port);
int fill_res_srq_entry(Skb& skb, bool net_admin, const Device& dev, const Srq& srq, uint32_t port);
int fill_res_counter_entry(Skb& skb, bool net_admin, const Device& dev, const StatCounter& c,
                           uint32_t port);
int fill_stat_mr_entry(Skb& skb, bool net_admin, const Device& dev, const Mr& mr, uint32_t port);
// The _raw variants: the driver's RES_RAW blob, -EINVAL without the op.
int fill_res_raw_entry(Skb& skb, bool has_op, const ResBase& res);

// rdma_nl_stat_hwcounter_entry()
int fill_hwcounter_entry(Skb& skb, const std::string& name, uint64_t value);

}  // namespace rdma::testkernel
