#include "lib/mad/umad_transport.h"

#include <arpa/inet.h>
#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "lib/error.h"
#include "lib/mad/access.h"
#include "lib/mad/umad_lib.h"
#include "lib/mad/vendor.h"

namespace rdma::mad {

namespace {

struct AgentSpec {
  uint8_t mgmt_class;
  uint8_t version;
  uint8_t rmpp_version;  // 1: the kernel runs RMPP and hands over whole tables
};
constexpr AgentSpec kAgents[] = {
    {kClassSmiLid, 1, 0}, {kClassSmiDr, 1, 0}, {kClassSa, 2, 1}, {kClassPerf, 1, 0}};

}  // namespace

UmadTransport::UmadTransport(const std::string& ca, int port)
    : name_(ca + "/" + std::to_string(port)) {
  if (umad_lib().init() < 0) throw Error("cannot initialise libibumad");
  std::vector<char> ca_name(ca.begin(), ca.end());
  ca_name.push_back('\0');
  port_id_ = umad_lib().open_port(ca_name.data(), port);
  if (port_id_ < 0)
    throw Error("cannot open the umad device of " + name_ + ": " + std::strerror(-port_id_) +
                " (is ib_umad loaded, and are you root?)");
  for (const AgentSpec& a : kAgents) {
    int id = umad_lib().register_agent(port_id_, a.mgmt_class, a.version, a.rmpp_version, nullptr);
    if (id < 0) {
      umad_lib().close_port(port_id_);
      throw Error("cannot register a MAD agent for class " + std::to_string(a.mgmt_class) + " on " +
                  name_);
    }
    agents_[a.mgmt_class] = id;
  }
}

// Closing the port with replies still on their way: the kernel's umad
// cancels a closed agent's sends, but under ibsim libumad2sim's reader
// thread hands a late reply to an agent queue that closing freed, and its
// exit handler (holding the lock that thread waits for) joins it: about 1
// run in 30 of `--deadline 0.02 fabric show` hung at exit (issue 40). So
// replies still due are read and dropped first, until none is due or
// kDrainMs passed: at most a tenth of a second more, and only on the paths
// that stop with MADs in flight (--deadline, an error).
void UmadTransport::drain() {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point end = Clock::now() + std::chrono::milliseconds(kDrainMs);
  for (;;) {
    const Clock::time_point now = Clock::now();
    while (!due_.empty() && due_.front() <= now) due_.pop_front();
    if (due_.empty() || now >= end) return;
    auto wait = std::chrono::ceil<std::chrono::milliseconds>(std::min(end, due_.back()) - now);
    try {
      if (!receive(static_cast<int>(wait.count()))) continue;
    } catch (const Error&) {
      return;  // nothing more can come
    }
  }
}

UmadTransport::~UmadTransport() {
  if (port_id_ >= 0) drain();
  for (auto& [cls, id] : agents_) umad_lib().unregister(port_id_, id);
  if (port_id_ >= 0) umad_lib().close_port(port_id_);
  umad_lib().done();
}

int UmadTransport::register_class(uint8_t mgmt_class, uint8_t version, uint32_t oui, long methods) {
  long mask[16 / sizeof(long)] = {};
  mask[0] = methods;
  int id;
  if (vendor_range2(mgmt_class)) {
    uint8_t o[3] = {static_cast<uint8_t>(oui >> 16), static_cast<uint8_t>(oui >> 8),
                    static_cast<uint8_t>(oui)};
    id = umad_lib().register_oui(port_id_, mgmt_class, 0, o, mask);
  } else {
    id = umad_lib().register_agent(port_id_, mgmt_class, version, 0, methods ? mask : nullptr);
  }
  if (id < 0)
    throw Error("cannot register a MAD agent for class " + std::to_string(mgmt_class) + " on " +
                name_ + (methods ? " to serve it (is another server of it running?)" : ""));
  return id;
}

// A server's agent takes the class's Gets; it sends its replies too.
void UmadTransport::serve(uint8_t mgmt_class, uint32_t oui) {
  if (agents_.count(mgmt_class))
    throw Error("class " + std::to_string(mgmt_class) + " is registered already on " + name_);
  agents_[mgmt_class] = register_class(mgmt_class, 1, oui, 1L << kGet);
}

void UmadTransport::send(const Mad& mad, const Address& to, int timeout_ms) {
  auto agent = agents_.find(mad.mgmt_class());
  if (agent == agents_.end()) {
    // A class only a few commands use (congestion control, 0x21; the vendor
    // classes): its agent is registered when its first MAD goes out, not at
    // every start.
    uint8_t version = static_cast<uint8_t>(mad.get(hdr::kClassVersion));
    int id = register_class(mad.mgmt_class(), version, vendor_oui(mad), 0);
    agent = agents_.emplace(mad.mgmt_class(), id).first;
  }
  std::vector<uint8_t> buf(umad_lib().size() + kMadBytes);
  std::memcpy(umad_lib().get_mad(buf.data()), mad.bytes.data(), kMadBytes);
  umad_lib().set_addr(buf.data(), to.lid, to.qp, 0, to.qkey);
  umad_lib().set_pkey(buf.data(), to.pkey_index);
  // The kernel times the reply out (and reports it); we retry ourselves.
  if (umad_lib().send(port_id_, agent->second, buf.data(), kMadBytes, timeout_ms, 0) < 0)
    throw Error("cannot send a MAD on " + name_ + ": " + std::strerror(errno));
  due_.push_back(std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms));
}

std::optional<Received> UmadTransport::receive(int timeout_ms) {
  return receive_on(timeout_ms, nullptr);
}

std::optional<Request> UmadTransport::receive_request(int timeout_ms) {
  Request r;
  std::optional<Received> got = receive_on(timeout_ms, &r.pkey_index);
  if (!got) return std::nullopt;
  r.mad = std::move(*got);
  return r;
}

std::optional<Received> UmadTransport::receive_on(int timeout_ms, uint16_t* pkey_index) {
  pollfd p{umad_lib().get_fd(port_id_), POLLIN, 0};
  int n = poll(&p, 1, timeout_ms);
  if (n < 0 && errno != EINTR)
    throw Error("cannot poll the umad device: " + std::string(std::strerror(errno)));
  if (n <= 0) return std::nullopt;
  std::vector<uint8_t> buf(umad_lib().size() + kMadBytes);
  int len = kMadBytes;
  int rc = umad_lib().recv(port_id_, buf.data(), &len, 0);
  if (rc == -ENOSPC && len > static_cast<int>(kMadBytes)) {
    // A reassembled RMPP transfer: len is its size; it waits for a buffer
    // that holds it.
    buf.assign(umad_lib().size() + len, 0);
    rc = umad_lib().recv(port_id_, buf.data(), &len, 0);
  }
  if (rc < 0) {
    if (rc == -ETIMEDOUT || rc == -EWOULDBLOCK) return std::nullopt;
    throw Error("cannot receive a MAD on " + name_ + ": " + std::strerror(-rc));
  }
  if (!due_.empty()) due_.pop_front();
  Received r;
  const uint8_t* m = static_cast<const uint8_t*>(umad_lib().get_mad(buf.data()));
  size_t got = len < 0 ? 0 : std::min<size_t>(len, buf.size() - umad_lib().size());
  r.bytes.assign(m, m + got);
  r.status = umad_lib().status(buf.data());
  const ib_mad_addr_t* from = umad_lib().get_mad_addr(buf.data());
  r.slid = ntohs(from->lid);
  // ib_user_mad_hdr keeps pkey_index in host order, as umad_set_pkey sets it.
  if (pkey_index) *pkey_index = from->pkey_index;
  return r;
}

}  // namespace rdma::mad

namespace rdma::mad {

Access umad_access() {
  return {find_local_port,
          [](const LocalPort& l) -> std::unique_ptr<Transport> {
            return std::make_unique<UmadTransport>(l.ca, l.port);
          },
          read_devices};
}

}  // namespace rdma::mad
