/* res_floor: the floor for `rdma res show qp`: one RES_QP_GET dump per
 * device index 0..N-1, every datagram read and discarded. */
#include <libmnl/libmnl.h>
#include <rdma/rdma_netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv) {
  int ndev = argc > 1 ? atoi(argv[1]) : 1;
  struct mnl_socket *nl = mnl_socket_open(NETLINK_RDMA);
  if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
    perror("netlink");
    return 1;
  }
  static char buf[65536];
  for (int dev = 0; dev < ndev; ++dev) {
    struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
    nlh->nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_RES_QP_GET);
    nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
    nlh->nlmsg_seq = (unsigned)time(NULL) + dev;
    mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, dev);
    if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) return 1;
    for (;;) {
      ssize_t n = mnl_socket_recvfrom(nl, buf, sizeof buf);
      if (n <= 0) return 1;
      struct nlmsghdr *last = (struct nlmsghdr *)buf;
      int len = (int)n, done = 0;
      for (; mnl_nlmsg_ok(last, len); last = mnl_nlmsg_next(last, &len))
        if (last->nlmsg_type == NLMSG_DONE || last->nlmsg_type == NLMSG_ERROR) done = 1;
      if (done) break;
    }
  }
  mnl_socket_close(nl);
  return 0;
}
