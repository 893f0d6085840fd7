// The character devices of an RDMA device (RDMA_NLDEV_CMD_GET_CHARDEV):
// which /dev node a program opens for verbs (uverbs), for MADs of a port
// (umad) and for the port's SM flag (issm). libibverbs and libibumad ask
// the same question; iproute2 never shows the answer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "lib/nl/session.h"
#include "lib/view/record.h"

namespace rdma::nldev {

struct Chardev {
  std::string type;   // the kernel client: "uverbs", "umad", "issm"
  uint32_t port = 0;  // 0: the device's own (uverbs)
  std::string name;   // the kernel's device name: uverbs0, umad1, issm1
  uint32_t major = 0, minor = 0;
  uint64_t abi = 0;  // the client's ABI version
};

// The per-device types (port 0) and per-port types, in the order shown.
inline constexpr const char* kDeviceChardevTypes[] = {"uverbs"};
inline constexpr const char* kPortChardevTypes[] = {"umad", "issm"};

// Asks for the character device of `type` on device `index` (port 0: the
// device's own). nullopt when there is none: the kernel answers EOPNOTSUPP
// (no such client loaded, or it does not serve this device) or EINVAL (the
// client refuses this device or port, e.g. umad on an iWARP port). The
// kernel may load the client's module on demand (request_module), as it does
// for libibverbs. Other errors and damaged replies throw.
std::optional<Chardev> get_chardev(nl::Session& s, uint32_t index, uint32_t port, const char* type);

// "dev rxe0 type uverbs name uverbs0 chardev 231:192 abi 6" ("link rxe0/1"
// for a port's).
void chardev_record(const std::string& dev, const Chardev& c, view::Record& r);

}  // namespace rdma::nldev
