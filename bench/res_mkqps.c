/* res_mkqps: holds N QPs on an RDMA device for `rdma res show qp` benchmarks.
 * usage: res_mkqps DEV N  -- creates N RC QPs (one PD, one CQ, tiny queues),
 * prints "ready N" and sleeps until killed. */
#include <infiniband/verbs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s DEV N\n", argv[0]);
    return 2;
  }
  int n = atoi(argv[2]);
  struct ibv_device **list = ibv_get_device_list(NULL);
  struct ibv_context *ctx = NULL;
  for (int i = 0; list && list[i]; ++i)
    if (!strcmp(ibv_get_device_name(list[i]), argv[1])) ctx = ibv_open_device(list[i]);
  if (!ctx) {
    fprintf(stderr, "cannot open %s\n", argv[1]);
    return 1;
  }
  struct ibv_pd *pd = ibv_alloc_pd(ctx);
  struct ibv_cq *cq = ibv_create_cq(ctx, 1, NULL, NULL, 0);
  if (!pd || !cq) {
    fprintf(stderr, "pd/cq failed\n");
    return 1;
  }
  int made = 0;
  for (; made < n; ++made) {
    struct ibv_qp_init_attr a = {0};
    a.send_cq = cq;
    a.recv_cq = cq;
    a.qp_type = IBV_QPT_RC;
    a.cap.max_send_wr = 1;
    a.cap.max_recv_wr = 1;
    a.cap.max_send_sge = 1;
    a.cap.max_recv_sge = 1;
    if (!ibv_create_qp(pd, &a)) break;
  }
  printf("ready %d\n", made);
  fflush(stdout);
  for (;;) pause();
}
