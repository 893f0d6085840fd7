// A fake librdmacm and libibverbs under `rdma bw`'s connection logic
// (lib/verbs/librdmacm.cc, through lib/verbs/cm_api.h): the events a test
// scripts come out of the event channel in order (its fd a real pipe, as
// the logic polls it), and every call that matters is recorded: which ids
// were rejected and destroyed, the addresses resolved, the options set,
// the private data sent. The verbs objects are plain structs; no work
// request runs (lib/testing/fake_connection.h runs the loops).
#pragma once

#include <sys/socket.h>

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "lib/verbs/cm_api.h"

namespace rdma::verbs {

class FakeRdmaCm : public CmApi {
 public:
  FakeRdmaCm();
  ~FakeRdmaCm() override;
  FakeRdmaCm(const FakeRdmaCm&) = delete;
  FakeRdmaCm& operator=(const FakeRdmaCm&) = delete;

  // The id a connect request brings, from peer (an IPv4 address), on
  // device dev's port.
  rdma_cm_id* request_id(const std::string& dev, uint8_t port, const std::string& peer);
  // An event to come out of the channel; id nullptr: the id create_id
  // made last (a client's own).
  void queue(rdma_cm_event_type type, rdma_cm_id* id = nullptr, std::vector<uint8_t> data = {},
             int status = 0);
  // The device resolve_addr binds a client's id to.
  std::string client_dev = "fake0";
  uint8_t client_port = 1;

  // What happened.
  struct Option {
    int level, name;
    std::vector<uint8_t> value;
    rdma_cm_id* id;
  };
  std::vector<rdma_port_space> created;  // create_id's port spaces, in order
  std::vector<sockaddr_storage> bound;   // bind_addr's addresses
  std::vector<rdma_cm_id*> listening, rejected, destroyed, accepted;
  std::vector<Option> options;
  bool resolved = false;  // resolve_addr was called
  sockaddr_storage resolve_src{}, resolve_dst{};
  bool src_given = false;
  int route_resolutions = 0;  // resolve_route calls
  std::vector<uint8_t> connect_data;
  uint64_t acked = 0, delivered = 0;
  // Ids made (created and requested) not destroyed yet.
  std::set<rdma_cm_id*> live() const;

  rdma_event_channel* create_event_channel() override;
  void destroy_event_channel(rdma_event_channel*) override;
  int create_id(rdma_event_channel*, rdma_cm_id**, void*, rdma_port_space) override;
  int destroy_id(rdma_cm_id*) override;
  int bind_addr(rdma_cm_id*, sockaddr*) override;
  int resolve_addr(rdma_cm_id*, sockaddr*, sockaddr*, int) override;
  int resolve_route(rdma_cm_id*, int) override;
  int create_qp(rdma_cm_id*, ibv_pd*, ibv_qp_init_attr*) override;
  void destroy_qp(rdma_cm_id*) override {}
  int connect(rdma_cm_id*, rdma_conn_param*) override;
  int listen(rdma_cm_id*, int) override;
  int accept(rdma_cm_id*, rdma_conn_param*) override;
  int reject(rdma_cm_id*, const void*, uint8_t) override;
  int disconnect(rdma_cm_id*) override { return 0; }
  int set_option(rdma_cm_id*, int, int, void*, size_t) override;
  int get_cm_event(rdma_event_channel*, rdma_cm_event**) override;
  int ack_cm_event(rdma_cm_event*) override;
  const char* event_str(rdma_cm_event_type) override { return "fake event"; }
  ibv_pd* alloc_pd(ibv_context*) override { return &pd_; }
  int dealloc_pd(ibv_pd*) override { return 0; }
  ibv_mr* reg_mr(ibv_pd*, void*, size_t, int) override { return &mr_; }
  int dereg_mr(ibv_mr*) override { return 0; }
  ibv_cq* create_cq(ibv_context*, int, void*, ibv_comp_channel*, int) override { return &cq_; }
  int destroy_cq(ibv_cq*) override { return 0; }
  const char* wc_status_str(ibv_wc_status) override { return "fake status"; }
  int post_send(ibv_qp*, ibv_send_wr*, ibv_send_wr**) override { return 0; }
  int post_recv(ibv_qp*, ibv_recv_wr*, ibv_recv_wr**) override { return 0; }
  int poll_cq(ibv_cq*, int, ibv_wc*) override { return 0; }

 private:
  struct Device {
    ibv_device dev{};
    ibv_context ctx{};
  };
  // An event given out and the private data it points at, until acked.
  struct Held {
    std::unique_ptr<rdma_cm_event> ev;
    std::vector<uint8_t> data;
  };
  struct Pending {
    rdma_cm_event_type type;
    rdma_cm_id* id;
    std::vector<uint8_t> data;
    int status;
  };
  ibv_context* device(const std::string& name);

  int pipe_[2] = {-1, -1};
  rdma_event_channel channel_{};
  std::deque<Pending> pending_;
  std::vector<std::unique_ptr<rdma_cm_id>> ids_;
  std::vector<std::unique_ptr<Device>> devices_;
  std::set<rdma_cm_id*> destroyed_set_;
  std::map<rdma_cm_event*, Held> held_;
  rdma_cm_id* last_created_ = nullptr;
  ibv_pd pd_{};
  ibv_mr mr_{};
  ibv_cq cq_{};
  ibv_qp qp_{};
};

}  // namespace rdma::verbs
