// The librdmacm and libibverbs calls `rdma bw`'s connection makes: the
// seam between the connection's logic (librdmacm.cc: the handshake, what
// goes into each call, what each event means) and the libraries. The real
// one forwards to librdmacm.so.1 and libibverbs.so.1 (loaded with dlopen);
// the fake (lib/testing/fake_rdma_cm.h) plays the events a test scripts
// and records the calls.
#pragma once

#include <rdma/rdma_cma.h>

#include <cstddef>
#include <cstdint>
#include <memory>

#include "lib/verbs/cm.h"

namespace rdma::verbs {

class CmApi {
 public:
  virtual ~CmApi() = default;
  virtual rdma_event_channel* create_event_channel() = 0;
  virtual void destroy_event_channel(rdma_event_channel*) = 0;
  virtual int create_id(rdma_event_channel*, rdma_cm_id**, void*, rdma_port_space) = 0;
  virtual int destroy_id(rdma_cm_id*) = 0;
  virtual int bind_addr(rdma_cm_id*, sockaddr*) = 0;
  virtual int resolve_addr(rdma_cm_id*, sockaddr*, sockaddr*, int) = 0;
  virtual int resolve_route(rdma_cm_id*, int) = 0;
  virtual int create_qp(rdma_cm_id*, ibv_pd*, ibv_qp_init_attr*) = 0;
  virtual void destroy_qp(rdma_cm_id*) = 0;
  virtual int connect(rdma_cm_id*, rdma_conn_param*) = 0;
  virtual int listen(rdma_cm_id*, int) = 0;
  virtual int accept(rdma_cm_id*, rdma_conn_param*) = 0;
  virtual int reject(rdma_cm_id*, const void*, uint8_t) = 0;
  virtual int disconnect(rdma_cm_id*) = 0;
  virtual int set_option(rdma_cm_id*, int, int, void*, size_t) = 0;
  virtual int get_cm_event(rdma_event_channel*, rdma_cm_event**) = 0;
  virtual int ack_cm_event(rdma_cm_event*) = 0;
  virtual const char* event_str(rdma_cm_event_type) = 0;
  virtual ibv_pd* alloc_pd(ibv_context*) = 0;
  virtual int dealloc_pd(ibv_pd*) = 0;
  virtual ibv_mr* reg_mr(ibv_pd*, void*, size_t, int) = 0;
  virtual int dereg_mr(ibv_mr*) = 0;
  virtual ibv_cq* create_cq(ibv_context*, int, void*, ibv_comp_channel*, int) = 0;
  virtual int destroy_cq(ibv_cq*) = 0;
  virtual const char* wc_status_str(ibv_wc_status) = 0;
  // libibverbs' inline data path (the device's ops).
  virtual int post_send(ibv_qp*, ibv_send_wr*, ibv_send_wr**) = 0;
  virtual int post_recv(ibv_qp*, ibv_recv_wr*, ibv_recv_wr**) = 0;
  virtual int poll_cq(ibv_cq*, int, ibv_wc*) = 0;
};

// The connection logic over api (which must outlive it).
std::unique_ptr<Cm> make_cm(CmApi& api);

}  // namespace rdma::verbs
