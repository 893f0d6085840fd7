// Verbs for unit tests: devices described by plain structs, and a record of
// what was opened.
#pragma once

#include <map>
#include <stdexcept>

#include "lib/error.h"
#include "lib/verbs/verbs.h"

namespace rdma::verbs {

struct FakeDeviceSpec {
  ibv_transport_type transport = IBV_TRANSPORT_IB;
  std::string board_id;
  int num_comp_vectors = 1;
  ibv_device_attr_ex attr{};
  std::vector<ibv_port_attr> ports;  // ports[0] is port 1
  std::vector<Gid> gids;
  // ibv_query_port_speed's answer per port (100 Mb/s units); a port not
  // here has none, as with Debian 12's libibverbs.
  std::map<uint8_t, uint64_t> port_speeds;
  // Async events, delivered in order by next_async_event().
  std::vector<AsyncEvent> async_events;
  std::string open_error;  // non-empty: open() throws Error(open_error)
};

// A device with one active port of the given link layer
// (IBV_LINK_LAYER_INFINIBAND or _ETHERNET), everything else zero.
inline FakeDeviceSpec one_port_device(uint8_t link_layer) {
  FakeDeviceSpec s;
  s.attr.orig_attr.phys_port_cnt = 1;
  ibv_port_attr p{};
  p.state = IBV_PORT_ACTIVE;
  p.link_layer = link_layer;
  s.ports.push_back(p);
  return s;
}

class FakeDevice : public Device {
 public:
  explicit FakeDevice(const FakeDeviceSpec& s) : s_(s) {}
  ibv_transport_type transport() const override { return s_.transport; }
  std::string board_id() const override { return s_.board_id; }
  int num_comp_vectors() const override { return s_.num_comp_vectors; }
  ibv_device_attr_ex query_device() override { return s_.attr; }
  ibv_port_attr query_port(uint8_t port) override {
    if (port < 1 || port > s_.ports.size()) throw Error("fake: no port " + std::to_string(port));
    return s_.ports[port - 1];
  }
  std::optional<uint64_t> query_port_speed(uint8_t port) override {
    auto it = s_.port_speeds.find(port);
    if (it == s_.port_speeds.end()) return std::nullopt;
    return it->second;
  }
  std::vector<Gid> gids() override { return s_.gids; }
  int async_fd() override { return -1; }
  std::optional<AsyncEvent> next_async_event() override {
    if (next_event_ == s_.async_events.size()) return std::nullopt;
    return s_.async_events[next_event_++];
  }

 private:
  FakeDeviceSpec s_;
  size_t next_event_ = 0;
};

class FakeVerbs : public Verbs {
 public:
  // log: where opened names also go, for tests whose factory makes a new
  // FakeVerbs per command (and so loses `opened`).
  explicit FakeVerbs(std::map<std::string, FakeDeviceSpec> devs,
                     std::vector<std::string>* log = nullptr)
      : devs_(std::move(devs)), log_(log) {}
  std::unique_ptr<Device> open(const std::string& name) override {
    opened.push_back(name);
    if (log_) log_->push_back(name);
    auto it = devs_.find(name);
    if (it == devs_.end()) throw Error("device \"" + name + "\" has no verbs interface");
    if (!it->second.open_error.empty()) throw Error(it->second.open_error);
    return std::make_unique<FakeDevice>(it->second);
  }
  std::vector<std::string> opened;

 private:
  std::map<std::string, FakeDeviceSpec> devs_;
  std::vector<std::string>* log_;
};

}  // namespace rdma::verbs
