// The real verbs: libibverbs.so.1 through dlopen. Linking it would load it
// (and, at the first device list, its providers) into every command; only
// the verbs views pay for it here. The library's inline wrappers
// (ibv_query_device_ex, ibv_query_port, ibv_query_gid_table) would bind
// symbols at link time, so their logic is repeated on the looked-up entry
// points: the context's extended ops first, the plain call when the
// provider lacks them.
#include <fcntl.h>
#include <net/if.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>

#include "lib/dl/dl.h"
#include "lib/error.h"
#include "lib/verbs/verbs.h"

namespace rdma::verbs {

namespace {

struct Lib {
  ibv_device** (*get_device_list)(int*);
  void (*free_device_list)(ibv_device**);
  ibv_context* (*open_device)(ibv_device*);
  int (*close_device)(ibv_context*);
  int (*query_device)(ibv_context*, ibv_device_attr*);
  int (*query_port)(ibv_context*, uint8_t, _compat_ibv_port_attr*);
  ssize_t (*query_gid_table)(ibv_context*, ibv_gid_entry*, size_t, uint32_t, size_t);
  int (*query_gid_ex)(ibv_context*, uint32_t, uint32_t, ibv_gid_entry*, uint32_t, size_t);
  // rdma-core 62+; nullptr in older libraries (Debian 12 has 44).
  int (*query_port_speed)(ibv_context*, uint8_t, uint64_t*);
  int (*get_async_event)(ibv_context*, ibv_async_event*);
  void (*ack_async_event)(ibv_async_event*);
};

// Every function below is in rdma-core 32 and newer.
template <typename Fn>
void bind(void* h, const char* name, Fn& fn) {
  dl::bind(h, "libibverbs.so.1", name, fn, "rdma-core 32 or newer needed");
}

// Loaded once and kept: providers stay mapped until exit anyway.
const Lib& lib() {
  static Lib l = [] {
    std::string why;
    void* h = dl::open("libibverbs.so.1", &why);
    if (!h) throw Error("cannot load libibverbs (install libibverbs1): " + why);
    Lib x{};
    bind(h, "ibv_get_device_list", x.get_device_list);
    bind(h, "ibv_free_device_list", x.free_device_list);
    bind(h, "ibv_open_device", x.open_device);
    bind(h, "ibv_close_device", x.close_device);
    bind(h, "ibv_query_device", x.query_device);
    bind(h, "ibv_query_port", x.query_port);
    bind(h, "_ibv_query_gid_table", x.query_gid_table);
    bind(h, "_ibv_query_gid_ex", x.query_gid_ex);
    bind(h, "ibv_get_async_event", x.get_async_event);
    bind(h, "ibv_ack_async_event", x.ack_async_event);
    x.query_port_speed =
        reinterpret_cast<decltype(x.query_port_speed)>(dl::sym(h, "ibv_query_port_speed"));
    return x;
  }();
  return l;
}

std::string err_text(int e) {
  return std::strerror(e);
}

class RealDevice : public Device {
 public:
  RealDevice(std::string name, ibv_context* ctx, ibv_transport_type t, std::string ibdev_path)
      : name_(std::move(name)), ctx_(ctx), transport_(t), path_(std::move(ibdev_path)) {}
  ~RealDevice() override { lib().close_device(ctx_); }

  ibv_transport_type transport() const override { return transport_; }

  std::string board_id() const override {
    std::ifstream f(path_ + "/board_id");
    std::string s;
    std::getline(f, s);
    return s;
  }

  int num_comp_vectors() const override { return ctx_->num_comp_vectors; }

  ibv_device_attr_ex query_device() override {
    ibv_device_attr_ex a{};
    int ret = ENOSYS;
    if (verbs_context* v = verbs_get_ctx_op(ctx_, query_device_ex))
      ret = v->query_device_ex(ctx_, nullptr, &a, sizeof a);
    if (ret == EOPNOTSUPP || ret == ENOSYS) {
      a = ibv_device_attr_ex{};
      ret = lib().query_device(ctx_, &a.orig_attr);
      if (ret < 0) ret = errno;  // old providers return -1 and set errno
    }
    if (ret) throw Error(name_ + ": ibv_query_device_ex failed: " + err_text(ret));
    return a;
  }

  ibv_port_attr query_port(uint8_t port) override {
    ibv_port_attr a{};
    int ret;
    if (verbs_context* v = verbs_get_ctx_op(ctx_, query_port))
      ret = v->query_port(ctx_, port, &a, sizeof a);
    else
      ret = lib().query_port(ctx_, port, reinterpret_cast<_compat_ibv_port_attr*>(&a));
    if (ret)
      throw Error(name_ + "/" + std::to_string(port) +
                  ": ibv_query_port failed: " + err_text(ret < 0 ? errno : ret));
    return a;
  }

  std::optional<uint64_t> query_port_speed(uint8_t port) override {
    if (!lib().query_port_speed) return std::nullopt;
    uint64_t speed = 0;
    int ret = lib().query_port_speed(ctx_, port, &speed);
    if (ret == 0) return speed;
    int e = ret < 0 ? (errno && ret == -1 ? errno : -ret) : ret;
    // Kernels before 6.19 and devices without it (EPROTONOSUPPORT is what
    // NCCL meets on most hosts).
    if (e == EOPNOTSUPP || e == EPROTONOSUPPORT || e == ENOSYS || e == EINVAL) return std::nullopt;
    throw Error(name_ + "/" + std::to_string(port) +
                ": ibv_query_port_speed failed: " + err_text(e));
  }

  int async_fd() override {
    if (!nonblocking_) {
      int flags = fcntl(ctx_->async_fd, F_GETFL);
      if (flags < 0 || fcntl(ctx_->async_fd, F_SETFL, flags | O_NONBLOCK) < 0)
        throw Error(name_ + ": cannot make the async event fd non-blocking: " + err_text(errno));
      nonblocking_ = true;
    }
    return ctx_->async_fd;
  }

  std::optional<AsyncEvent> next_async_event() override {
    async_fd();
    ibv_async_event e{};
    if (lib().get_async_event(ctx_, &e) != 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return std::nullopt;
      throw Error(name_ + ": ibv_get_async_event failed: " + err_text(errno));
    }
    AsyncEvent out;
    out.type = e.event_type;
    if (is_port_event(e.event_type)) out.port = static_cast<uint32_t>(e.element.port_num);
    lib().ack_async_event(&e);
    return out;
  }

  std::vector<Gid> gids() override {
    ibv_device_attr_ex d = query_device();
    std::vector<std::pair<uint8_t, int>> lens;  // port, gid_tbl_len
    size_t total = 0;
    for (unsigned p = 1; p <= d.orig_attr.phys_port_cnt; ++p) {
      int len = query_port(static_cast<uint8_t>(p)).gid_tbl_len;
      lens.emplace_back(static_cast<uint8_t>(p), len);
      total += static_cast<size_t>(std::max(len, 0));
    }
    std::vector<ibv_gid_entry> e(total);
    ssize_t n =
        total ? lib().query_gid_table(ctx_, e.data(), e.size(), 0, sizeof(ibv_gid_entry)) : 0;
    if (n < 0) {
      // Kernels without the GID table method: entry by entry; an empty
      // entry answers ENODATA.
      e.clear();
      for (auto [port, len] : lens) {
        for (int i = 0; i < len; ++i) {
          ibv_gid_entry g{};
          int ret = lib().query_gid_ex(ctx_, port, static_cast<uint32_t>(i), &g, 0, sizeof g);
          if (ret == 0)
            e.push_back(g);
          else if (ret != ENODATA)
            throw Error(name_ + "/" + std::to_string(port) +
                        ": ibv_query_gid_ex failed: " + err_text(ret));
        }
      }
      n = static_cast<ssize_t>(e.size());
    }
    std::vector<Gid> out;
    for (ssize_t i = 0; i < n; ++i) {
      Gid g;
      g.port = e[i].port_num;
      g.index = e[i].gid_index;
      std::memcpy(g.raw, e[i].gid.raw, sizeof g.raw);
      g.type = e[i].gid_type;
      char buf[IF_NAMESIZE] = {};
      if (e[i].ndev_ifindex && if_indextoname(e[i].ndev_ifindex, buf)) g.netdev = buf;
      out.push_back(std::move(g));
    }
    std::sort(out.begin(), out.end(), [](const Gid& a, const Gid& b) {
      return a.port != b.port ? a.port < b.port : a.index < b.index;
    });
    return out;
  }

 private:
  std::string name_;
  ibv_context* ctx_;
  ibv_transport_type transport_;
  std::string path_;
  bool nonblocking_ = false;
};

class RealVerbs : public Verbs {
 public:
  std::unique_ptr<Device> open(const std::string& name) override {
    const Lib& l = lib();
    int n = 0;
    ibv_device** list = l.get_device_list(&n);
    if (!list)
      throw Error("cannot list verbs devices: " + err_text(errno) + " (is ib_uverbs loaded?)");
    ibv_device* dev = nullptr;
    for (int i = 0; i < n; ++i)
      if (name == list[i]->name) dev = list[i];
    if (!dev) {
      l.free_device_list(list);
      throw Error("device \"" + name +
                  "\" has no verbs interface: no uverbs device or no libibverbs provider for "
                  "its driver (is ib_uverbs loaded and ibverbs-providers installed?)");
    }
    ibv_transport_type t = dev->transport_type;
    std::string uverbs = dev->dev_name, path = dev->ibdev_path;
    errno = 0;
    ibv_context* ctx = l.open_device(dev);
    int e = errno;
    l.free_device_list(list);
    if (!ctx) {
      // libibverbs tries other paths after the character device, so errno
      // is often the last try's ENOENT: opening it here names the cause
      // (EACCES for a user without access).
      std::string cdev = "/dev/infiniband/" + uverbs;
      int fd = ::open(cdev.c_str(), O_RDWR | O_CLOEXEC);
      if (fd < 0)
        e = errno;
      else
        ::close(fd);
      throw Error("cannot open verbs device \"" + name + "\" (" + cdev +
                  "): " + err_text(e ? e : EIO));
    }
    return std::make_unique<RealDevice>(name, ctx, t, path);
  }
};

}  // namespace

std::unique_ptr<Verbs> open_libibverbs() {
  lib();  // fail here, once, when the library cannot be loaded
  return std::make_unique<RealVerbs>();
}

}  // namespace rdma::verbs
