// The libibverbs seam: what the verbs views ask of a device (its attributes,
// its ports, its GID table) as a small interface, with the real library
// (libibverbs.cc, loaded with dlopen on first use so that commands without
// verbs never load it or its providers) and a fake for tests (fake.h).
// The values are libibverbs' own structs, so the views read exactly what
// ibv_devinfo reads.
#pragma once

#include <infiniband/verbs.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rdma::verbs {

// One valid GID table entry (ibv_gid_entry) with its netdev by name.
struct Gid {
  uint32_t port = 0;
  uint32_t index = 0;
  uint8_t raw[16] = {};
  uint32_t type = IBV_GID_TYPE_IB;  // enum ibv_gid_type
  std::string netdev;               // empty: none (InfiniBand)
};

// One asynchronous event of a device (ibv_get_async_event): only device and
// port events come, since the tool creates no QP, CQ or SRQ.
struct AsyncEvent {
  int type = 0;       // enum ibv_event_type
  uint32_t port = 0;  // the port of a port event, else 0
};

// IBV_EVENT_DEVICE_SPEED_CHANGE (rdma-core 62, after IBV_EVENT_WQ_FATAL):
// Debian 12's header lacks it.
inline constexpr int kEventDeviceSpeedChange = IBV_EVENT_WQ_FATAL + 1;

// "PORT_ACTIVE", "PORT_ERR", ... (ibv_event_type_str's words without the
// prose); "EVENT_N" for a number the tool does not know.
std::string async_event_name(int type);
// Whether the event names a port (element.port_num is set).
bool is_port_event(int type);

// An opened device. Queries throw Error (one line naming device and call).
class Device {
 public:
  virtual ~Device() = default;
  virtual ibv_transport_type transport() const = 0;
  // sysfs board_id, empty when the driver has none (ibv_devinfo prints it).
  virtual std::string board_id() const = 0;
  // Completion vectors of the opened context (ibv_devinfo prints them).
  virtual int num_comp_vectors() const = 0;
  virtual ibv_device_attr_ex query_device() = 0;
  virtual ibv_port_attr query_port(uint8_t port) = 0;
  // The port's effective speed in units of 100 Mb/s (ibv_query_port_speed,
  // rdma-core 62 and Linux 6.19: e.g. a VF's share of a LAG, which width x
  // lane speed cannot express). nullopt where libibverbs lacks the call
  // (Debian 12's rdma-core 44) or the kernel or device does not report it.
  virtual std::optional<uint64_t> query_port_speed(uint8_t port) = 0;
  // The valid entries of every port's GID table, in port and index order.
  virtual std::vector<Gid> gids() = 0;
  // The context's async event fd (made non-blocking), for poll(); -1 when
  // there is none to wait on (the fake: call next_async_event anyway).
  virtual int async_fd() = 0;
  // The next queued async event, acknowledged, or nullopt when none is
  // queued now (never waits).
  virtual std::optional<AsyncEvent> next_async_event() = 0;
};

class Verbs {
 public:
  virtual ~Verbs() = default;
  // Opens the device of this kernel name; throws Error saying why it cannot
  // (no uverbs device, no provider, no permission).
  virtual std::unique_ptr<Device> open(const std::string& name) = 0;
};

// How the front end gets its Verbs: the real library or a fake.
using Factory = std::function<std::unique_ptr<Verbs>()>;

// libibverbs.so.1, loaded now (dlopen); throws Error when it cannot be.
std::unique_ptr<Verbs> open_libibverbs();

}  // namespace rdma::verbs
