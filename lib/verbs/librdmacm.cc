// The real connection of `rdma bw`: librdmacm.so.1 and libibverbs.so.1
// through dlopen (the other commands never map them), as perftest's -R
// connects: rdma_cm resolves the address and route and exchanges the
// connection, the buffer's address and key travel in its private data.
// Posting and polling are libibverbs' inline calls (the context's ops), so
// only the setup calls are looked up.
#include <arpa/inet.h>
#include <infiniband/ib.h>
#include <infiniband/sa.h>
#include <netinet/in.h>
#include <poll.h>
#include <rdma/rdma_cma.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "lib/dl/dl.h"
#include "lib/error.h"
#include "lib/verbs/cm.h"
#include "lib/verbs/cm_api.h"

namespace rdma::verbs {

namespace {

// The libraries' functions, looked up once.
struct Lib {
  rdma_event_channel* (*create_event_channel)();
  void (*destroy_event_channel)(rdma_event_channel*);
  int (*create_id)(rdma_event_channel*, rdma_cm_id**, void*, rdma_port_space);
  int (*destroy_id)(rdma_cm_id*);
  int (*bind_addr)(rdma_cm_id*, sockaddr*);
  int (*resolve_addr)(rdma_cm_id*, sockaddr*, sockaddr*, int);
  int (*resolve_route)(rdma_cm_id*, int);
  int (*create_qp)(rdma_cm_id*, ibv_pd*, ibv_qp_init_attr*);
  void (*destroy_qp)(rdma_cm_id*);
  int (*connect)(rdma_cm_id*, rdma_conn_param*);
  int (*listen)(rdma_cm_id*, int);
  int (*accept)(rdma_cm_id*, rdma_conn_param*);
  int (*reject)(rdma_cm_id*, const void*, uint8_t);
  int (*disconnect)(rdma_cm_id*);
  int (*set_option)(rdma_cm_id*, int, int, void*, size_t);
  int (*get_cm_event)(rdma_event_channel*, rdma_cm_event**);
  int (*ack_cm_event)(rdma_cm_event*);
  const char* (*event_str)(rdma_cm_event_type);
  ibv_pd* (*alloc_pd)(ibv_context*);
  int (*dealloc_pd)(ibv_pd*);
  ibv_mr* (*reg_mr)(ibv_pd*, void*, size_t, int);
  int (*dereg_mr)(ibv_mr*);
  ibv_cq* (*create_cq)(ibv_context*, int, void*, ibv_comp_channel*, int);
  int (*destroy_cq)(ibv_cq*);
  const char* (*wc_status_str)(ibv_wc_status);
};

Lib load() {
  std::string why;
  void* v = dl::open("libibverbs.so.1", &why);
  if (!v) throw Error("cannot load libibverbs (install libibverbs1): " + why);
  void* h = dl::open("librdmacm.so.1", &why);
  if (!h) throw Error("cannot load librdmacm (install librdmacm1): " + why);
  Lib x{};
  const char* cm = "librdmacm.so.1";
  dl::bind(h, cm, "rdma_create_event_channel", x.create_event_channel);
  dl::bind(h, cm, "rdma_destroy_event_channel", x.destroy_event_channel);
  dl::bind(h, cm, "rdma_create_id", x.create_id);
  dl::bind(h, cm, "rdma_destroy_id", x.destroy_id);
  dl::bind(h, cm, "rdma_bind_addr", x.bind_addr);
  dl::bind(h, cm, "rdma_resolve_addr", x.resolve_addr);
  dl::bind(h, cm, "rdma_resolve_route", x.resolve_route);
  dl::bind(h, cm, "rdma_create_qp", x.create_qp);
  dl::bind(h, cm, "rdma_destroy_qp", x.destroy_qp);
  dl::bind(h, cm, "rdma_connect", x.connect);
  dl::bind(h, cm, "rdma_listen", x.listen);
  dl::bind(h, cm, "rdma_accept", x.accept);
  dl::bind(h, cm, "rdma_reject", x.reject);
  dl::bind(h, cm, "rdma_disconnect", x.disconnect);
  dl::bind(h, cm, "rdma_set_option", x.set_option);
  dl::bind(h, cm, "rdma_get_cm_event", x.get_cm_event);
  dl::bind(h, cm, "rdma_ack_cm_event", x.ack_cm_event);
  dl::bind(h, cm, "rdma_event_str", x.event_str);
  const char* vb = "libibverbs.so.1";
  dl::bind(v, vb, "ibv_alloc_pd", x.alloc_pd);
  dl::bind(v, vb, "ibv_dealloc_pd", x.dealloc_pd);
  dl::bind(v, vb, "ibv_reg_mr", x.reg_mr);
  dl::bind(v, vb, "ibv_dereg_mr", x.dereg_mr);
  dl::bind(v, vb, "ibv_create_cq", x.create_cq);
  dl::bind(v, vb, "ibv_destroy_cq", x.destroy_cq);
  dl::bind(v, vb, "ibv_wc_status_str", x.wc_status_str);
  return x;
}

// The real seam: each call forwarded to the loaded libraries.
class RealApi : public CmApi {
 public:
  explicit RealApi(Lib l) : l_(l) {}
  rdma_event_channel* create_event_channel() override { return l_.create_event_channel(); }
  void destroy_event_channel(rdma_event_channel* c) override { l_.destroy_event_channel(c); }
  int create_id(rdma_event_channel* c, rdma_cm_id** id, void* ctx, rdma_port_space ps) override {
    return l_.create_id(c, id, ctx, ps);
  }
  int destroy_id(rdma_cm_id* id) override { return l_.destroy_id(id); }
  int bind_addr(rdma_cm_id* id, sockaddr* a) override { return l_.bind_addr(id, a); }
  int resolve_addr(rdma_cm_id* id, sockaddr* s, sockaddr* d, int ms) override {
    return l_.resolve_addr(id, s, d, ms);
  }
  int resolve_route(rdma_cm_id* id, int ms) override { return l_.resolve_route(id, ms); }
  int create_qp(rdma_cm_id* id, ibv_pd* pd, ibv_qp_init_attr* a) override {
    return l_.create_qp(id, pd, a);
  }
  void destroy_qp(rdma_cm_id* id) override { l_.destroy_qp(id); }
  int connect(rdma_cm_id* id, rdma_conn_param* p) override { return l_.connect(id, p); }
  int listen(rdma_cm_id* id, int backlog) override { return l_.listen(id, backlog); }
  int accept(rdma_cm_id* id, rdma_conn_param* p) override { return l_.accept(id, p); }
  int reject(rdma_cm_id* id, const void* d, uint8_t n) override { return l_.reject(id, d, n); }
  int disconnect(rdma_cm_id* id) override { return l_.disconnect(id); }
  int set_option(rdma_cm_id* id, int level, int name, void* v, size_t n) override {
    return l_.set_option(id, level, name, v, n);
  }
  int get_cm_event(rdma_event_channel* c, rdma_cm_event** e) override {
    return l_.get_cm_event(c, e);
  }
  int ack_cm_event(rdma_cm_event* e) override { return l_.ack_cm_event(e); }
  const char* event_str(rdma_cm_event_type t) override { return l_.event_str(t); }
  ibv_pd* alloc_pd(ibv_context* c) override { return l_.alloc_pd(c); }
  int dealloc_pd(ibv_pd* pd) override { return l_.dealloc_pd(pd); }
  ibv_mr* reg_mr(ibv_pd* pd, void* a, size_t n, int acc) override {
    return l_.reg_mr(pd, a, n, acc);
  }
  int dereg_mr(ibv_mr* mr) override { return l_.dereg_mr(mr); }
  ibv_cq* create_cq(ibv_context* c, int n, void* ctx, ibv_comp_channel* ch, int v) override {
    return l_.create_cq(c, n, ctx, ch, v);
  }
  int destroy_cq(ibv_cq* cq) override { return l_.destroy_cq(cq); }
  const char* wc_status_str(ibv_wc_status s) override { return l_.wc_status_str(s); }
  int post_send(ibv_qp* qp, ibv_send_wr* wr, ibv_send_wr** bad) override {
    return ibv_post_send(qp, wr, bad);
  }
  int post_recv(ibv_qp* qp, ibv_recv_wr* wr, ibv_recv_wr** bad) override {
    return ibv_post_recv(qp, wr, bad);
  }
  int poll_cq(ibv_cq* cq, int n, ibv_wc* wc) override { return ibv_poll_cq(cq, n, wc); }

 private:
  Lib l_;
};

std::string err_text(int e) {
  return std::strerror(e);
}

// The private data: the client's Hello, the server's buffer. Big-endian
// 32-bit words after a magic that tells another program's request apart.
constexpr uint32_t kMagic = 0x52425731;  // "RBW1"
struct HelloWire {
  uint32_t magic, size, iterations, lat_size;
};
struct BufferWire {
  uint32_t magic, rkey, addr_hi, addr_lo;
};

constexpr uint32_t kSendDepth = 256;
constexpr uint32_t kRecvDepth = 16;
constexpr uint32_t kInline = 64;

std::string address_text(const sockaddr* sa) {
  char buf[INET6_ADDRSTRLEN] = "?";
  if (sa->sa_family == AF_INET)
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(sa)->sin_addr, buf, sizeof buf);
  else if (sa->sa_family == AF_INET6)
    inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(sa)->sin6_addr, buf, sizeof buf);
  else if (sa->sa_family == AF_IB)  // the GID, written as IPv6 (ibaddr's form)
    inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_ib*>(sa)->sib_addr, buf, sizeof buf);
  return buf;
}

// A connect request the server does not take: rejected, and its id (which
// the request created, the server's to destroy once the event is acked)
// destroyed, else it lives, and holds the device, until the server exits.
void refuse(CmApi& api, rdma_cm_id* id) {
  api.reject(id, nullptr, 0);
  api.destroy_id(id);
}

// One event channel and the events read from it, each waited for with a
// bound (poll on its fd) so that no step hangs.
class Channel {
 public:
  explicit Channel(CmApi& api) : api_(api), ch_(api.create_event_channel()) {
    if (!ch_)
      throw Error("cannot open an rdma_cm event channel: " + err_text(errno) +
                  " (is rdma_ucm loaded?)");
  }
  ~Channel() { api_.destroy_event_channel(ch_); }
  Channel(const Channel&) = delete;
  Channel& operator=(const Channel&) = delete;
  rdma_event_channel* get() const { return ch_; }
  CmApi& api() const { return api_; }
  // The next event, or nullptr after timeout_ms (-1: no bound).
  rdma_cm_event* next(int timeout_ms) {
    pollfd p{ch_->fd, POLLIN, 0};
    int n;
    do n = ::poll(&p, 1, timeout_ms);
    while (n < 0 && errno == EINTR);
    if (n < 0) throw Error("cannot wait for an rdma_cm event: " + err_text(errno));
    if (n == 0) return nullptr;
    rdma_cm_event* e = nullptr;
    if (api_.get_cm_event(ch_, &e)) throw Error("rdma_get_cm_event failed: " + err_text(errno));
    return e;
  }

 private:
  CmApi& api_;
  rdma_event_channel* ch_;
};

// The verbs objects of one side: PD, CQ, buffer and its MR, the QP (on
// the cm id).
class RealConnection : public Connection {
 public:
  RealConnection(std::unique_ptr<Channel> ch, rdma_cm_id* id, const Hello& h)
      : ch_(std::move(ch)), id_(id), hello_(h) {}
  ~RealConnection() override {
    if (connected_) api().disconnect(id_);
    if (qp_) api().destroy_qp(id_);
    if (mr_) api().dereg_mr(mr_);
    if (cq_) api().destroy_cq(cq_);
    if (pd_) api().dealloc_pd(pd_);
    std::free(buf_);
    api().destroy_id(id_);
    // The listening id (server) after the connection's own.
    for (rdma_cm_id* l : listen_ids_) api().destroy_id(l);
  }

  void set_listeners(std::vector<rdma_cm_id*> l) { listen_ids_ = std::move(l); }
  CmApi& api() const { return ch_->api(); }

  // PD, CQ, a buffer for the larger of the two message sizes, the QP.
  void setup() {
    ibv_context* ctx = id_->verbs;
    if (!ctx) throw Error("rdma_cm gave no device for " + peer());
    pd_ = api().alloc_pd(ctx);
    if (!pd_) throw Error(where() + ": ibv_alloc_pd failed: " + err_text(errno));
    cq_ = api().create_cq(ctx, kSendDepth + kRecvDepth, nullptr, nullptr, 0);
    if (!cq_) throw Error(where() + ": ibv_create_cq failed: " + err_text(errno));
    size_t len = std::max<size_t>({hello_.size, hello_.lat_size, 64});
    if (posix_memalign(&buf_, 4096, len))
      throw Error("cannot allocate " + std::to_string(len) + " bytes for the buffer");
    std::memset(buf_, 0, len);
    mr_ = api().reg_mr(pd_, buf_, len, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
    if (!mr_)
      throw Error(where() + ": ibv_reg_mr of " + std::to_string(len) +
                  " bytes failed: " + err_text(errno));
    ibv_qp_init_attr a{};
    a.send_cq = cq_;
    a.recv_cq = cq_;
    a.qp_type = IBV_QPT_RC;
    a.sq_sig_all = 0;
    a.cap.max_send_wr = kSendDepth;
    a.cap.max_recv_wr = kRecvDepth;
    a.cap.max_send_sge = 1;
    a.cap.max_recv_sge = 1;
    a.cap.max_inline_data = kInline;
    if (api().create_qp(id_, pd_, &a)) {
      // A device without inline data (or as much of it)
      a.cap.max_inline_data = 0;
      if (api().create_qp(id_, pd_, &a))
        throw Error(where() + ": rdma_create_qp failed: " + err_text(errno));
    }
    inline_ = a.cap.max_inline_data;
    qp_ = id_->qp;
  }

  // The remote buffer the writes go to (from the server's private data).
  void set_remote(uint64_t addr, uint32_t rkey) {
    raddr_ = addr;
    rkey_ = rkey;
  }
  BufferWire buffer_wire() const {
    uint64_t a = reinterpret_cast<uintptr_t>(buf_);
    return {htonl(kMagic), htonl(mr_->rkey), htonl(static_cast<uint32_t>(a >> 32)),
            htonl(static_cast<uint32_t>(a))};
  }
  void set_connected() { connected_ = true; }
  rdma_cm_id* id() const { return id_; }
  Channel& channel() { return *ch_; }

  std::string device() const override { return ibv_get_device_name_safe(); }
  uint32_t port() const override { return id_->port_num; }
  std::string peer() const override { return address_text(rdma_get_peer_addr(id_)); }
  Hello hello() const override { return hello_; }
  uint32_t send_depth() const override { return kSendDepth; }

  void post_write(uint32_t size, bool signaled, uint64_t id) override {
    post(IBV_WR_RDMA_WRITE, size, signaled, id);
  }
  void post_send(uint32_t size, bool signaled, uint64_t id) override {
    post(IBV_WR_SEND, size, signaled, id);
  }
  void post_recv(uint32_t size, uint64_t id) override {
    ibv_sge sge{reinterpret_cast<uintptr_t>(buf_), size, mr_->lkey};
    ibv_recv_wr wr{};
    wr.wr_id = id;
    wr.sg_list = &sge;
    wr.num_sge = 1;
    ibv_recv_wr* bad = nullptr;
    if (int e = api().post_recv(qp_, &wr, &bad))
      throw Error(where() + ": ibv_post_recv failed: " + err_text(e));
  }

  size_t poll(Completion* out, size_t max) override {
    ibv_wc wc[16];
    int n = api().poll_cq(cq_, static_cast<int>(std::min<size_t>(max, 16)), wc);
    if (n < 0) throw Error(where() + ": ibv_poll_cq failed");
    for (int i = 0; i < n; ++i) {
      if (wc[i].status != IBV_WC_SUCCESS)
        throw Error(
            where() + ": a work request failed: " + api().wc_status_str(wc[i].status) +
            (wc[i].status == IBV_WC_RETRY_EXC_ERR || wc[i].status == IBV_WC_RNR_RETRY_EXC_ERR
                 ? " (the peer stopped answering)"
                 : ""));
      out[i].id = wc[i].wr_id;
      out[i].op = wc[i].opcode == IBV_WC_RDMA_WRITE ? Op::Write
                  : wc[i].opcode == IBV_WC_RECV     ? Op::Recv
                                                    : Op::Send;
    }
    return static_cast<size_t>(n);
  }

  bool peer_gone() override {
    if (gone_) return true;
    while (rdma_cm_event* e = ch_->next(0)) {
      rdma_cm_event_type t = e->event;
      rdma_cm_id* id = e->id;
      api().ack_cm_event(e);
      if (t == RDMA_CM_EVENT_CONNECT_REQUEST) refuse(api(), id);  // another client: one at a time
      if (t == RDMA_CM_EVENT_DISCONNECTED || t == RDMA_CM_EVENT_DEVICE_REMOVAL ||
          t == RDMA_CM_EVENT_TIMEWAIT_EXIT) {
        gone_ = true;
      }
    }
    return gone_;
  }

  std::string where() const { return id_->verbs ? device() + "/" + std::to_string(port()) : "?"; }

 private:
  std::string ibv_get_device_name_safe() const {
    return id_->verbs && id_->verbs->device ? id_->verbs->device->name : "";
  }
  void post(ibv_wr_opcode op, uint32_t size, bool signaled, uint64_t id) {
    ibv_sge sge{reinterpret_cast<uintptr_t>(buf_), size, mr_->lkey};
    ibv_send_wr wr{};
    wr.wr_id = id;
    wr.sg_list = &sge;
    wr.num_sge = 1;
    wr.opcode = op;
    wr.send_flags = (signaled ? IBV_SEND_SIGNALED : 0) | (size <= inline_ ? IBV_SEND_INLINE : 0);
    if (op == IBV_WR_RDMA_WRITE) {
      wr.wr.rdma.remote_addr = raddr_;
      wr.wr.rdma.rkey = rkey_;
    }
    ibv_send_wr* bad = nullptr;
    if (int e = api().post_send(qp_, &wr, &bad))
      throw Error(where() + ": ibv_post_send failed: " + err_text(e));
  }

  std::unique_ptr<Channel> ch_;
  rdma_cm_id* id_;
  std::vector<rdma_cm_id*> listen_ids_;
  Hello hello_;
  ibv_pd* pd_ = nullptr;
  ibv_cq* cq_ = nullptr;
  ibv_mr* mr_ = nullptr;
  ibv_qp* qp_ = nullptr;
  void* buf_ = nullptr;
  uint32_t inline_ = 0;
  uint64_t raddr_ = 0;
  uint32_t rkey_ = 0;
  bool connected_ = false;
  bool gone_ = false;
};

// Waits for the event that ends a step of id; anything else is the error
// the step met, in words.
struct Event {
  rdma_cm_event_type type;
  int status;
  std::vector<uint8_t> data;  // the private data
  rdma_cm_id* id;             // a CONNECT_REQUEST's: a new id, the caller's to destroy
};

Event wait_event(Channel& ch, int timeout_ms, const std::string& what) {
  rdma_cm_event* e = ch.next(timeout_ms);
  if (!e)
    throw Error(what + ": no answer in " + std::to_string(timeout_ms / 1000) + " s (timed out)");
  Event out{e->event, e->status, {}, e->id};
  const auto* p = static_cast<const uint8_t*>(e->param.conn.private_data);
  if (p) out.data.assign(p, p + e->param.conn.private_data_len);
  ch.api().ack_cm_event(e);
  return out;
}

std::string event_words(CmApi& api, const Event& e) {
  const char* w = e.type == RDMA_CM_EVENT_ADDR_ERROR       ? "address resolution failed"
                  : e.type == RDMA_CM_EVENT_ROUTE_ERROR    ? "route resolution failed"
                  : e.type == RDMA_CM_EVENT_UNREACHABLE    ? "the peer is unreachable"
                  : e.type == RDMA_CM_EVENT_CONNECT_ERROR  ? "connection error"
                  : e.type == RDMA_CM_EVENT_DEVICE_REMOVAL ? "the device was removed"
                                                           : api.event_str(e.type);
  return w +
         (e.status ? " (" + err_text(e.status < 0 ? -e.status : e.status) + ")" : std::string());
}

bool parse_address(const std::string& text, uint16_t port, sockaddr_storage& out) {
  std::memset(&out, 0, sizeof out);
  auto* v4 = reinterpret_cast<sockaddr_in*>(&out);
  auto* v6 = reinterpret_cast<sockaddr_in6*>(&out);
  if (inet_pton(AF_INET, text.c_str(), &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(port);
    return true;
  }
  if (inet_pton(AF_INET6, text.c_str(), &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(port);
    return true;
  }
  return false;
}

rdma_conn_param conn_param(const void* data, uint8_t len) {
  rdma_conn_param p{};
  p.private_data = data;
  p.private_data_len = len;
  p.responder_resources = 1;
  p.initiator_depth = 1;
  p.retry_count = 7;
  p.rnr_retry_count = 7;  // infinite: a pong may come before the next receive
  return p;
}

// The server's listening ids, destroyed with it unless a connection took
// them over.
struct Listeners {
  CmApi& api_;
  std::vector<rdma_cm_id*> ids;
  explicit Listeners(CmApi& api) : api_(api) {}
  Listeners(const Listeners&) = delete;
  Listeners& operator=(const Listeners&) = delete;
  ~Listeners() {
    for (rdma_cm_id* i : ids) api_.destroy_id(i);
  }
  // A listener on the any address of family: IPv4's, IPv6's (IPv6 only),
  // or for InfiniBand clients (AF_IB) the port's service ID in rdma_cm's
  // InfiniBand port space, any GID; 0, or the errno that stopped it.
  int listen(Channel& ch, int family, uint16_t port) {
    rdma_cm_id* id = nullptr;
    if (api_.create_id(ch.get(), &id, nullptr, family == AF_IB ? RDMA_PS_IB : RDMA_PS_TCP))
      return errno;
    sockaddr_storage any{};
    if (family == AF_INET6) {
      auto* v6 = reinterpret_cast<sockaddr_in6*>(&any);
      v6->sin6_family = AF_INET6;
      v6->sin6_port = htons(port);
      int one = 1;
      api_.set_option(id, RDMA_OPTION_ID, RDMA_OPTION_ID_AFONLY, &one, sizeof one);
    } else if (family == AF_IB) {
      auto* ib = reinterpret_cast<sockaddr_ib*>(&any);
      ib->sib_family = AF_IB;
      ib->sib_sid = htobe64(RDMA_IB_PS_IB | port);
      ib->sib_sid_mask = htobe64(~uint64_t{0});
    } else {
      auto* v4 = reinterpret_cast<sockaddr_in*>(&any);
      v4->sin_family = AF_INET;
      v4->sin_port = htons(port);
    }
    if (api_.bind_addr(id, reinterpret_cast<sockaddr*>(&any)) || api_.listen(id, 1)) {
      int e = errno;
      api_.destroy_id(id);
      return e;
    }
    ids.push_back(id);
    return 0;
  }
};

class RealCm : public Cm {
 public:
  explicit RealCm(CmApi& api) : api_(api) {}
  std::unique_ptr<Connection> connect(const ConnectTo& to, const Hello& hello,
                                      int timeout_ms) override {
    // An IP address, or an InfiniBand target's GIDs and P_Key (AF_IB) and
    // the server's service ID in the InfiniBand port space.
    sockaddr_storage src{}, dst{};
    if (to.ib) {
      if (to.ib->record.size() != sizeof(ibv_path_record))
        throw Error("internal: a PathRecord of " + std::to_string(to.ib->record.size()) + " bytes");
      auto* s = reinterpret_cast<sockaddr_ib*>(&src);
      auto* d = reinterpret_cast<sockaddr_ib*>(&dst);
      s->sib_family = d->sib_family = AF_IB;
      s->sib_pkey = d->sib_pkey = htons(to.ib->pkey);
      std::memcpy(&s->sib_addr, to.ib->sgid.data(), sizeof s->sib_addr);
      std::memcpy(&d->sib_addr, to.ib->dgid.data(), sizeof d->sib_addr);
      d->sib_sid = htobe64(RDMA_IB_PS_IB | to.port);
      d->sib_sid_mask = htobe64(~uint64_t{0});
    } else if (!parse_address(to.address, to.port, dst)) {
      throw Error("\"" + to.address + "\" is not an IPv4 or IPv6 address");
    }
    const std::string target = to.ib ? to.ib->text : to.address;
    auto ch = std::make_unique<Channel>(api_);
    rdma_cm_id* id = nullptr;
    if (api_.create_id(ch->get(), &id, nullptr, to.ib ? RDMA_PS_IB : RDMA_PS_TCP))
      throw Error("rdma_create_id failed: " + err_text(errno));
    Channel& c = *ch;
    auto conn = std::make_unique<RealConnection>(std::move(ch), id, hello);
    const std::string there = target + " port " + std::to_string(to.port);
    if (api_.resolve_addr(id, to.ib ? reinterpret_cast<sockaddr*>(&src) : nullptr,
                          reinterpret_cast<sockaddr*>(&dst), timeout_ms))
      throw Error("no RDMA device has a route to " + target + ": " + err_text(errno));
    Event e = wait_event(c, timeout_ms + 1000, "resolving " + target);
    if (e.type != RDMA_CM_EVENT_ADDR_RESOLVED)
      throw Error("no RDMA device has a route to " + target + ": " + event_words(api_, e));
    if ((!to.dev.empty() && conn->device() != to.dev) ||
        (to.dev_port && conn->port() != to.dev_port))
      throw Error(target + " is reached through " + conn->where() + ", not " + to.dev +
                  (to.dev_port ? "/" + std::to_string(to.dev_port) : "") +
                  " (rdma_cm picks the device by the route to the address)");
    if (to.ib) {
      // The path the SA gave, both ways, instead of rdma_cm asking for one
      // (its ROUTE_RESOLVED follows).
      ibv_path_data path{};
      path.flags = IBV_PATH_FLAG_GMP | IBV_PATH_FLAG_PRIMARY | IBV_PATH_FLAG_BIDIRECTIONAL;
      std::memcpy(&path.path, to.ib->record.data(), sizeof path.path);
      if (api_.set_option(id, RDMA_OPTION_IB, RDMA_OPTION_IB_PATH, &path, sizeof path))
        throw Error("cannot give rdma_cm the path to " + target + ": " + err_text(errno));
    } else if (api_.resolve_route(id, timeout_ms)) {
      throw Error("cannot resolve the route to " + target + ": " + err_text(errno));
    }
    e = wait_event(c, timeout_ms + 1000, "resolving the route to " + target);
    if (e.type != RDMA_CM_EVENT_ROUTE_RESOLVED)
      throw Error("no route to " + target + ": " + event_words(api_, e));
    conn->setup();
    HelloWire w{htonl(kMagic), htonl(hello.size), htonl(hello.iterations), htonl(hello.lat_size)};
    rdma_conn_param p = conn_param(&w, sizeof w);
    if (api_.connect(id, &p)) throw Error("cannot connect to " + there + ": " + err_text(errno));
    e = wait_event(c, timeout_ms + 1000, "connecting to " + there);
    if (e.type == RDMA_CM_EVENT_REJECTED)
      throw Error(there + " refused the connection: no `rdma bw server` listening there?");
    if (e.type != RDMA_CM_EVENT_ESTABLISHED)
      throw Error("cannot connect to " + there + ": " + event_words(api_, e));
    conn->set_connected();
    BufferWire b{};
    if (e.data.size() < sizeof b) throw Error(there + " is not an `rdma bw server`");
    std::memcpy(&b, e.data.data(), sizeof b);
    if (ntohl(b.magic) != kMagic) throw Error(there + " is not an `rdma bw server`");
    conn->set_remote((uint64_t{ntohl(b.addr_hi)} << 32) | ntohl(b.addr_lo), ntohl(b.rkey));
    return conn;
  }

  std::unique_ptr<Connection> accept(const ListenOn& on, int wait_ms, int timeout_ms) override {
    auto ch = std::make_unique<Channel>(api_);
    Listeners l(api_);
    // IPv4's any, and IPv6's (IPv6 only) where IPv6 is on: one listener for
    // both families would do on RoCE, but siw's IPv6 listener takes no IPv4
    // connection.
    if (int e = l.listen(*ch, AF_INET, on.port))
      throw Error("cannot listen on port " + std::to_string(on.port) + ": " + err_text(e));
    l.listen(*ch, AF_INET6, on.port);
    // InfiniBand clients (AF_IB) where the host has a port for them; no
    // error where it has none (RoCE, iWARP).
    l.listen(*ch, AF_IB, on.port);
    for (;;) {
      rdma_cm_event* ev = ch->next(wait_ms);
      if (!ev) {
        throw Error("no client connected in " + std::to_string(wait_ms / 1000) + " s");
      }
      if (ev->event != RDMA_CM_EVENT_CONNECT_REQUEST) {
        api_.ack_cm_event(ev);
        continue;
      }
      rdma_cm_id* id = ev->id;
      HelloWire w{};
      bool ours = ev->param.conn.private_data && ev->param.conn.private_data_len >= sizeof w;
      if (ours) std::memcpy(&w, ev->param.conn.private_data, sizeof w);
      api_.ack_cm_event(ev);
      std::string dev = id->verbs && id->verbs->device ? id->verbs->device->name : "";
      Hello h{ntohl(w.size), ntohl(w.iterations), ntohl(w.lat_size)};
      // Another program's request, or one on another device: refused, the
      // server waits on.
      if (!ours || ntohl(w.magic) != kMagic || h.size == 0 || h.size > (1u << 30) ||
          h.lat_size == 0 || h.lat_size > 4096 || (!on.dev.empty() && dev != on.dev) ||
          (on.dev_port && id->port_num != on.dev_port)) {
        refuse(api_, id);
        continue;
      }
      auto conn = std::make_unique<RealConnection>(std::move(ch), id, h);
      conn->set_listeners(std::move(l.ids));
      l.ids.clear();
      conn->setup();
      conn->post_recv(h.lat_size, 0);
      BufferWire b = conn->buffer_wire();
      rdma_conn_param p = conn_param(&b, sizeof b);
      if (api_.accept(id, &p))
        throw Error(conn->where() + ": rdma_accept failed: " + err_text(errno));
      for (;;) {
        Event e = wait_event(conn->channel(), timeout_ms,
                             "accepting " + conn->peer() + " on " + conn->where());
        if (e.type == RDMA_CM_EVENT_ESTABLISHED) break;
        if (e.type == RDMA_CM_EVENT_CONNECT_REQUEST) {
          refuse(api_, e.id);  // a second client, during the first's handshake
          continue;
        }
        throw Error("accepting " + conn->peer() + " on " + conn->where() + ": " +
                    event_words(api_, e));
      }
      conn->set_connected();
      return conn;
    }
  }

 private:
  CmApi& api_;
};

}  // namespace

std::unique_ptr<Cm> make_cm(CmApi& api) {
  return std::make_unique<RealCm>(api);
}

std::unique_ptr<Cm> open_librdmacm() {
  // Loaded once a process; the seam lives as long.
  static RealApi api(load());
  return make_cm(api);
}

}  // namespace rdma::verbs
