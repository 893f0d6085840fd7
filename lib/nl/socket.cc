#include "lib/nl/socket.h"

#include <fcntl.h>
#include <libmnl/libmnl.h>
#include <linux/netlink.h>
#include <poll.h>
#include <sched.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "lib/error.h"

namespace rdma::nl {

namespace {
std::string errno_text() {
  return std::strerror(errno);
}
}  // namespace

Socket::Socket() {
  sock_ = mnl_socket_open(NETLINK_RDMA);
  if (!sock_) {
    if (errno == EPROTONOSUPPORT || errno == EAFNOSUPPORT)
      throw Error("the kernel has no RDMA netlink support (NETLINK_RDMA); load ib_core");
    throw Error("cannot open the RDMA netlink socket: " + errno_text());
  }
  int on = 1;
  // Best effort: old kernels lack them and still work.
  mnl_socket_setsockopt(sock_, NETLINK_CAP_ACK, &on, sizeof on);
  mnl_socket_setsockopt(sock_, NETLINK_EXT_ACK, &on, sizeof on);
  if (mnl_socket_bind(sock_, 0, MNL_SOCKET_AUTOPID) < 0) {
    std::string msg = errno_text();
    mnl_socket_close(sock_);
    throw Error("cannot bind the RDMA netlink socket: " + msg);
  }
}

Socket::~Socket() {
  mnl_socket_close(sock_);
}

void Socket::send(const uint8_t* data, size_t len) {
  if (mnl_socket_sendto(sock_, data, len) < 0)
    throw Error("cannot send to the kernel: " + errno_text());
}

size_t Socket::recv(uint8_t* buf, size_t cap, int timeout_ms) {
  const int fd = mnl_socket_get_fd(sock_);
  // One receive a datagram, of the size Session asks for (session.cc says
  // which and why: the kernel sizes later dump parts by the largest receive
  // it has seen). Asked for that much, every datagram fits, so no peek at
  // its length is needed first (a system call a datagram). One that did not
  // fit would be cut by the kernel and lost: an Error, never a silently
  // short reply.
  const size_t want = cap;
  for (;;) {
    sockaddr_nl addr{};
    iovec iov{buf, want};
    msghdr msg{};
    msg.msg_name = &addr;
    msg.msg_namelen = sizeof addr;
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    // Not waiting: the reply is nearly always queued by the time the
    // request is sent (doit) or the previous part is read (dump), so the
    // poll for the deadline is made only when nothing is there yet.
    ssize_t n = ::recvmsg(fd, &msg, MSG_DONTWAIT | MSG_TRUNC);
    if (n >= 0) {
      if (static_cast<size_t>(n) > want || (msg.msg_flags & MSG_TRUNC))
        throw Error("kernel reply larger than the receive buffer");
      if (msg.msg_namelen != sizeof addr)
        throw Error("cannot receive from the kernel: " + std::string(std::strerror(EINVAL)));
      return static_cast<size_t>(n);
    }
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK)
      throw Error("cannot receive from the kernel: " + errno_text());
    // The kernel may never send the rest of a reply (a damaged message that
    // ended a dump, a lost datagram): every wait has a deadline.
    pollfd p{fd, POLLIN, 0};
    int rc = poll(&p, 1, timeout_ms);
    if (rc == 0) return 0;
    if (rc < 0 && errno != EINTR) throw Error("cannot wait for the kernel: " + errno_text());
  }
}

uint32_t Socket::port_id() const {
  return mnl_socket_get_portid(sock_);
}

void Socket::join_group(unsigned group) {
  int g = static_cast<int>(group);
  if (mnl_socket_setsockopt(sock_, NETLINK_ADD_MEMBERSHIP, &g, sizeof g) < 0)
    throw Error("cannot join RDMA netlink group " + std::to_string(group) + ": " + errno_text());
}

void enter_netns(const std::string& name) {
  if (name.empty() || name.find('/') != std::string::npos || name == "." || name == "..")
    throw Error("invalid network namespace name \"" + name + "\"");
  std::string path = "/run/netns/" + name;
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw Error("cannot open network namespace \"" + name + "\": " + errno_text());
  int rc = setns(fd, CLONE_NEWNET);
  int saved = errno;
  close(fd);
  if (rc < 0) {
    errno = saved;
    throw Error("cannot enter network namespace \"" + name + "\": " + errno_text());
  }
}

}  // namespace rdma::nl
