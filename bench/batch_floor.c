/* batch_floor: the floor of a batch file. It sends the netlink requests a
 * batch sends (REQUESTS: one message a line in hex, as the "> " lines of
 * RDMA_NETLINK_TRACE print them) over one socket, opened once with CAP_ACK
 * and EXT_ACK as `rdma` opens it, and reads every reply datagram up to the
 * request's NLMSG_DONE or ack without decoding or printing anything: what
 * the kernel and the system calls cost, and no user-space work beyond that.
 * usage: batch_floor REQUESTS [RECV_BUFFER_BYTES] */
#include <libmnl/libmnl.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s REQUESTS [RECV_BUFFER_BYTES]\n", argv[0]);
    return 2;
  }
  size_t cap = argc > 2 ? (size_t)atol(argv[2]) : 65536;
  FILE* f = fopen(argv[1], "r");
  if (!f) {
    perror(argv[1]);
    return 2;
  }
  /* All requests in memory first, as a batch file is read line by line
   * but costs nothing next to the kernel's work. */
  size_t nreq = 0, used = 0, size = 1 << 16;
  unsigned char* reqs = malloc(size);
  size_t* offs = malloc(sizeof(size_t) * (1 << 16));
  char line[8192];
  while (fgets(line, sizeof line, f) && nreq < (1 << 16)) {
    size_t n = strcspn(line, "\r\n") / 2;
    if (used + n > size) reqs = realloc(reqs, size = 2 * (used + n));
    offs[nreq++] = used;
    for (size_t i = 0; i < n; ++i)
      reqs[used++] = (unsigned char)(hexval(line[2 * i]) << 4 | hexval(line[2 * i + 1]));
  }
  fclose(f);

  struct mnl_socket* nl = mnl_socket_open(NETLINK_RDMA);
  int on = 1;
  if (!nl) {
    perror("netlink");
    return 1;
  }
  mnl_socket_setsockopt(nl, NETLINK_CAP_ACK, &on, sizeof on);
  mnl_socket_setsockopt(nl, NETLINK_EXT_ACK, &on, sizeof on);
  if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
    perror("netlink bind");
    return 1;
  }
  unsigned char* buf = malloc(cap);
  unsigned seq = (unsigned)time(NULL);
  for (size_t r = 0; r < nreq; ++r) {
    struct nlmsghdr* nlh = (struct nlmsghdr*)(reqs + offs[r]);
    nlh->nlmsg_seq = ++seq;
    if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
      perror("send");
      return 1;
    }
    for (int done = 0; !done;) {
      ssize_t n = mnl_socket_recvfrom(nl, buf, cap);
      if (n <= 0) {
        perror("recv");
        return 1;
      }
      int len = (int)n;
      for (struct nlmsghdr* m = (struct nlmsghdr*)buf; mnl_nlmsg_ok(m, len);
           m = mnl_nlmsg_next(m, &len))
        if (m->nlmsg_seq == seq && (m->nlmsg_type == NLMSG_DONE || m->nlmsg_type == NLMSG_ERROR))
          done = 1;
    }
  }
  mnl_socket_close(nl);
  return 0;
}
