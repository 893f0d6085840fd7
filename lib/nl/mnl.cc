// The socket half of lib/nl/mnl.h.
#include "lib/nl/mnl.h"

#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <new>

struct mnl_socket {
  int fd;
  sockaddr_nl addr;  // as bound: the port ID the kernel gave
};

mnl_socket* mnl_socket_open(int bus) {
  // CLOEXEC: the static front end execs the dynamic build for the MAD and
  // verbs commands (lib/dl), which must not inherit the socket.
  int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, bus);
  if (fd < 0) return nullptr;
  auto* nl = new (std::nothrow) mnl_socket{fd, {}};
  if (!nl) {
    close(fd);
    errno = ENOMEM;
  }
  return nl;
}

int mnl_socket_bind(mnl_socket* nl, unsigned int groups, pid_t pid) {
  nl->addr = {};
  nl->addr.nl_family = AF_NETLINK;
  nl->addr.nl_groups = groups;
  nl->addr.nl_pid = static_cast<uint32_t>(pid);
  if (bind(nl->fd, reinterpret_cast<sockaddr*>(&nl->addr), sizeof nl->addr) < 0) return -1;
  socklen_t len = sizeof nl->addr;
  if (getsockname(nl->fd, reinterpret_cast<sockaddr*>(&nl->addr), &len) < 0) return -1;
  if (len != sizeof nl->addr || nl->addr.nl_family != AF_NETLINK) {
    errno = EINVAL;
    return -1;
  }
  return 0;
}

int mnl_socket_close(mnl_socket* nl) {
  int rc = close(nl->fd);
  delete nl;
  return rc;
}

int mnl_socket_get_fd(const mnl_socket* nl) {
  return nl->fd;
}

unsigned int mnl_socket_get_portid(const mnl_socket* nl) {
  return nl->addr.nl_pid;
}

ssize_t mnl_socket_sendto(const mnl_socket* nl, const void* buf, size_t len) {
  sockaddr_nl kernel{};
  kernel.nl_family = AF_NETLINK;
  return sendto(nl->fd, buf, len, 0, reinterpret_cast<const sockaddr*>(&kernel), sizeof kernel);
}

ssize_t mnl_socket_recvfrom(const mnl_socket* nl, void* buf, size_t len) {
  sockaddr_nl from{};
  iovec iov{buf, len};
  msghdr msg{};
  msg.msg_name = &from;
  msg.msg_namelen = sizeof from;
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  ssize_t n = recvmsg(nl->fd, &msg, 0);
  if (n < 0) return n;
  if (msg.msg_flags & MSG_TRUNC) {
    errno = ENOSPC;
    return -1;
  }
  if (msg.msg_namelen != sizeof from) {
    errno = EINVAL;
    return -1;
  }
  return n;
}

int mnl_socket_setsockopt(const mnl_socket* nl, int type, void* buf, socklen_t len) {
  return setsockopt(nl->fd, SOL_NETLINK, type, buf, len);
}
