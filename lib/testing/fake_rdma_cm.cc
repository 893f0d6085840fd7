#include "lib/testing/fake_rdma_cm.h"

#include <arpa/inet.h>
#include <infiniband/ib.h>
#include <netinet/in.h>
#include <unistd.h>

#include <cstring>

#include "lib/error.h"

namespace rdma::verbs {

namespace {

// An address copied as long as its family's (the caller's may be no
// longer).
sockaddr_storage copy_address(const sockaddr* a) {
  sockaddr_storage s{};
  size_t n = a->sa_family == AF_INET    ? sizeof(sockaddr_in)
             : a->sa_family == AF_INET6 ? sizeof(sockaddr_in6)
             : a->sa_family == AF_IB    ? sizeof(sockaddr_ib)
                                        : sizeof(sockaddr);
  std::memcpy(&s, a, n);
  return s;
}

}  // namespace

FakeRdmaCm::FakeRdmaCm() {
  if (::pipe(pipe_) != 0) throw Error("fake rdma_cm: no pipe");
  channel_.fd = pipe_[0];
  mr_.rkey = 0x1234;
  mr_.lkey = 0x5678;
}

FakeRdmaCm::~FakeRdmaCm() {
  ::close(pipe_[0]);
  ::close(pipe_[1]);
}

ibv_context* FakeRdmaCm::device(const std::string& name) {
  for (auto& d : devices_)
    if (name == d->dev.name) return &d->ctx;
  auto d = std::make_unique<Device>();
  std::strncpy(d->dev.name, name.c_str(), sizeof d->dev.name - 1);
  d->ctx.device = &d->dev;
  devices_.push_back(std::move(d));
  return &devices_.back()->ctx;
}

rdma_cm_id* FakeRdmaCm::request_id(const std::string& dev, uint8_t port, const std::string& peer) {
  ids_.push_back(std::make_unique<rdma_cm_id>());
  rdma_cm_id* id = ids_.back().get();
  id->verbs = device(dev);
  id->port_num = port;
  auto* a = reinterpret_cast<sockaddr_in*>(&id->route.addr.dst_addr);
  a->sin_family = AF_INET;
  inet_pton(AF_INET, peer.c_str(), &a->sin_addr);
  return id;
}

void FakeRdmaCm::queue(rdma_cm_event_type type, rdma_cm_id* id, std::vector<uint8_t> data,
                       int status) {
  pending_.push_back({type, id, std::move(data), status});
  char b = 1;
  if (::write(pipe_[1], &b, 1) != 1) throw Error("fake rdma_cm: pipe full");
}

std::set<rdma_cm_id*> FakeRdmaCm::live() const {
  std::set<rdma_cm_id*> out;
  for (const auto& id : ids_)
    if (!destroyed_set_.count(id.get())) out.insert(id.get());
  return out;
}

rdma_event_channel* FakeRdmaCm::create_event_channel() {
  return &channel_;
}

void FakeRdmaCm::destroy_event_channel(rdma_event_channel*) {}

int FakeRdmaCm::create_id(rdma_event_channel* ch, rdma_cm_id** id, void*, rdma_port_space ps) {
  ids_.push_back(std::make_unique<rdma_cm_id>());
  rdma_cm_id* x = ids_.back().get();
  x->channel = ch;
  x->ps = ps;
  created.push_back(ps);
  last_created_ = x;
  *id = x;
  return 0;
}

int FakeRdmaCm::destroy_id(rdma_cm_id* id) {
  if (!destroyed_set_.insert(id).second) throw Error("fake rdma_cm: an id destroyed twice");
  destroyed.push_back(id);
  return 0;
}

int FakeRdmaCm::bind_addr(rdma_cm_id* id, sockaddr* a) {
  sockaddr_storage s = copy_address(a);
  bound.push_back(s);
  std::memcpy(&id->route.addr.src_storage, &s, sizeof s);
  return 0;
}

int FakeRdmaCm::resolve_addr(rdma_cm_id* id, sockaddr* src, sockaddr* dst, int) {
  resolved = true;
  src_given = src != nullptr;
  if (src) resolve_src = copy_address(src);
  resolve_dst = copy_address(dst);
  std::memcpy(&id->route.addr.dst_storage, &resolve_dst, sizeof resolve_dst);
  id->verbs = device(client_dev);
  id->port_num = client_port;
  return 0;
}

int FakeRdmaCm::resolve_route(rdma_cm_id*, int) {
  ++route_resolutions;
  return 0;
}

int FakeRdmaCm::create_qp(rdma_cm_id* id, ibv_pd*, ibv_qp_init_attr*) {
  id->qp = &qp_;
  return 0;
}

int FakeRdmaCm::connect(rdma_cm_id*, rdma_conn_param* p) {
  const auto* d = static_cast<const uint8_t*>(p->private_data);
  connect_data.assign(d, d + p->private_data_len);
  return 0;
}

int FakeRdmaCm::listen(rdma_cm_id* id, int) {
  listening.push_back(id);
  return 0;
}

int FakeRdmaCm::accept(rdma_cm_id* id, rdma_conn_param*) {
  accepted.push_back(id);
  return 0;
}

int FakeRdmaCm::reject(rdma_cm_id* id, const void*, uint8_t) {
  rejected.push_back(id);
  return 0;
}

int FakeRdmaCm::set_option(rdma_cm_id* id, int level, int name, void* v, size_t n) {
  const auto* b = static_cast<const uint8_t*>(v);
  options.push_back({level, name, std::vector<uint8_t>(b, b + n), id});
  return 0;
}

int FakeRdmaCm::get_cm_event(rdma_event_channel*, rdma_cm_event** e) {
  char b;
  if (pending_.empty() || ::read(pipe_[0], &b, 1) != 1) {
    errno = EAGAIN;
    return -1;
  }
  Pending p = std::move(pending_.front());
  pending_.pop_front();
  Held h{std::make_unique<rdma_cm_event>(), std::move(p.data)};
  rdma_cm_event* ev = h.ev.get();
  ev->event = p.type;
  ev->status = p.status;
  ev->id = p.id ? p.id : last_created_;
  if (p.type == RDMA_CM_EVENT_CONNECT_REQUEST && !listening.empty())
    ev->listen_id = listening.front();
  if (!h.data.empty()) {
    ev->param.conn.private_data = h.data.data();
    ev->param.conn.private_data_len = static_cast<uint8_t>(h.data.size());
  }
  held_.emplace(ev, std::move(h));
  ++delivered;
  *e = ev;
  return 0;
}

int FakeRdmaCm::ack_cm_event(rdma_cm_event* e) {
  if (!held_.erase(e)) throw Error("fake rdma_cm: an event acked twice");
  ++acked;
  return 0;
}

}  // namespace rdma::verbs
