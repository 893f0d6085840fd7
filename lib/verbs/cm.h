// The connection seam of `rdma bw`: one RC queue pair connected to a peer
// through rdma_cm (librdmacm, loaded with dlopen by the command that needs
// it, as libibverbs is), each side with one registered buffer, and the few
// work requests the measurement loops post (lib/bw). The real one is
// librdmacm.cc; the fake (lib/testing/fake_connection.h) runs the loops on a
// clock of its own.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rdma::verbs {

// What the client asks of the server in the connect request's private
// data: the server sizes its buffer and counts the pings by it.
struct Hello {
  uint32_t size = 0;        // bytes of each RDMA write
  uint32_t iterations = 0;  // writes, and ping-pongs
  uint32_t lat_size = 0;    // bytes of each ping and pong
};

enum class Op : uint8_t { Write, Send, Recv };

// One successful completion (a failed one is an Error from poll()).
struct Completion {
  uint64_t id = 0;  // the id the request was posted with
  Op op = Op::Send;
};

class Connection {
 public:
  virtual ~Connection() = default;
  // The local device and port the connection runs on ("rxe0", 1).
  virtual std::string device() const = 0;
  virtual uint32_t port() const = 0;
  // The peer's IP address as text (an InfiniBand peer's: its GID).
  virtual std::string peer() const = 0;
  // The client's request (both sides know it once connected).
  virtual Hello hello() const = 0;
  // Work requests the send queue holds.
  virtual uint32_t send_depth() const = 0;
  // An RDMA write of size bytes of the local buffer to the peer's buffer;
  // unsignaled ones complete silently (RC: with the next signaled one).
  virtual void post_write(uint32_t size, bool signaled, uint64_t id) = 0;
  virtual void post_send(uint32_t size, bool signaled, uint64_t id) = 0;
  virtual void post_recv(uint32_t size, uint64_t id) = 0;
  // The completions queued now, up to max (never waits); a failed one
  // throws Error naming its status.
  virtual size_t poll(Completion* out, size_t max) = 0;
  // Whether the peer has disconnected (never waits).
  virtual bool peer_gone() = 0;
};

// An InfiniBand target's path (`rdma bw client lid 4`, lib/ib/cm_path.h):
// the PathRecord as the SA sent it (libibverbs' ibv_path_record is its
// layout), the GIDs and P_Key the AF_IB addresses are made of, and the
// target as the user gave it, for messages.
struct IbPath {
  std::vector<uint8_t> record;
  std::array<uint8_t, 16> sgid{}, dgid{};
  uint16_t pkey = 0;
  std::string text;
};

// Where a client connects: an IP address (v4 or v6), or with ib an
// InfiniBand target over its path (AF_IB, the server's InfiniBand port
// space), and the rdma_cm port; dev (and dev_port, 0: any), when set, the
// device the route must go through.
struct ConnectTo {
  std::string address;
  std::optional<IbPath> ib;
  uint16_t port = 0;
  std::string dev;
  uint32_t dev_port = 0;
};

// What a server listens on: every address of the host and, for InfiniBand
// clients, the port's service ID in rdma_cm's InfiniBand port space
// (RDMA_PS_IB), the port; dev
// (and dev_port, 0: any), when set, the only device it accepts a client on.
struct ListenOn {
  uint16_t port = 0;
  std::string dev;
  uint32_t dev_port = 0;
};

class Cm {
 public:
  virtual ~Cm() = default;
  // Resolves the address and route, connects, and returns the connection;
  // every step waits at most timeout_ms. Error: no device has a route to
  // the address, nothing listens there, a timeout.
  virtual std::unique_ptr<Connection> connect(const ConnectTo& to, const Hello& hello,
                                              int timeout_ms) = 0;
  // Waits for one client (wait_ms; -1: as long as it takes), accepts it with
  // a buffer of the size its Hello asks for and one receive of lat_size
  // posted; the handshake after the request waits at most timeout_ms.
  virtual std::unique_ptr<Connection> accept(const ListenOn& on, int wait_ms, int timeout_ms) = 0;
};

// librdmacm.so.1 and libibverbs.so.1, loaded now; Error when they cannot be.
std::unique_ptr<Cm> open_librdmacm();

}  // namespace rdma::verbs
