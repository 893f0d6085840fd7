// QP counter state changes of drivers/infiniband/core/counters.c. Each
// returns 0 or the kernel's negative errno.
#pragma once

#include <cstdint>

#include "lib/testing/kernel/policy.h"
#include "lib/testing/kernel/state.h"

namespace rdma::testkernel {

// rdma_counter_set_auto_mode(); sets the extack text on EBUSY.
int set_auto_mode(Device& d, uint32_t port, uint32_t mask, Extack* ext);
// rdma_counter_bind_qpn(): the QP joins an existing counter.
int bind_qpn(Device& d, uint32_t port, uint32_t qpn, uint32_t cntn);
// rdma_counter_bind_qpn_alloc(): a new counter for the QP, its id in *cntn.
int bind_qpn_alloc(Device& d, uint32_t port, uint32_t qpn, uint32_t* cntn);
// rdma_counter_unbind_qpn()
int unbind_qpn(Device& d, uint32_t port, uint32_t qpn, uint32_t cntn);
// rdma_counter_bind_qp_auto(): for a QP reaching its port.
int bind_qp_auto(Device& d, Qp& qp);

}  // namespace rdma::testkernel
