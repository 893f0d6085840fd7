/* LD_PRELOAD shim: damages what NETLINK_RDMA sockets receive, to test that a
 * tool never crashes or hangs on a bad kernel reply (issue 15).
 *
 * Every datagram read with recvmsg/recvfrom/recv from a NETLINK_RDMA socket
 * gets 1-3 damages: a flipped bit, a zeroed byte or a byte overwritten with
 * a random value, at random offsets; one datagram in four is also truncated
 * to a random shorter length. NLCORRUPT_SEED=N (default 1) seeds the
 * generator, so a run is repeatable; NLCORRUPT_LOG=FILE appends one line per
 * damaged datagram. MSG_PEEK reads are left alone.
 *
 * Build: gcc -shared -fPIC -O2 -o nlcorrupt.so nlcorrupt.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <linux/netlink.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>

#ifndef NETLINK_RDMA
#define NETLINK_RDMA 20
#endif

static uint64_t state;
static int seeded;
static FILE *logf;

static uint32_t rnd(void) {
    if (!seeded) {
        const char *s = getenv("NLCORRUPT_SEED");
        state = 0x9e3779b97f4a7c15ull ^ (s ? strtoull(s, NULL, 0) : 1);
        const char *l = getenv("NLCORRUPT_LOG");
        if (l) logf = fopen(l, "a");
        seeded = 1;
    }
    /* xorshift64* */
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return (uint32_t)((state * 0x2545f4914f6cdd1dull) >> 32);
}

static int is_rdma_netlink(int fd) {
    int v;
    socklen_t len = sizeof v;
    if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &v, &len) < 0 || v != AF_NETLINK) return 0;
    len = sizeof v;
    return getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &v, &len) == 0 && v == NETLINK_RDMA;
}

/* Damages n bytes spread over iov; returns the new length. */
static size_t damage(const struct iovec *iov, size_t iovlen, size_t n) {
    if (n == 0) return 0;
    int ops = 1 + rnd() % 3;
    for (int i = 0; i < ops; i++) {
        size_t at = rnd() % n, seg = 0;
        while (seg < iovlen && at >= iov[seg].iov_len) at -= iov[seg++].iov_len;
        if (seg == iovlen) break;
        uint8_t *b = (uint8_t *)iov[seg].iov_base + at;
        uint8_t before = *b;
        switch (rnd() % 3) {
        case 0: *b ^= (uint8_t)(1u << (rnd() % 8)); break;
        case 1: *b = 0; break;
        default: *b = (uint8_t)rnd(); break;
        }
        if (logf) fprintf(logf, "byte %zu: %02x -> %02x\n", (size_t)(b - (uint8_t *)iov[0].iov_base), before, *b);
    }
    if (rnd() % 4 == 0) {
        size_t cut = rnd() % n;
        if (logf) fprintf(logf, "truncated %zu -> %zu\n", n, cut);
        n = cut;
    }
    if (logf) fflush(logf);
    return n;
}

ssize_t recvmsg(int fd, struct msghdr *msg, int flags) {
    static ssize_t (*real)(int, struct msghdr *, int);
    if (!real) real = (ssize_t(*)(int, struct msghdr *, int))dlsym(RTLD_NEXT, "recvmsg");
    ssize_t n = real(fd, msg, flags);
    if (n <= 0 || (flags & MSG_PEEK) || !is_rdma_netlink(fd)) return n;
    size_t cap = 0;
    for (size_t i = 0; i < msg->msg_iovlen; i++) cap += msg->msg_iov[i].iov_len;
    size_t len = (size_t)n < cap ? (size_t)n : cap;
    size_t cut = damage(msg->msg_iov, msg->msg_iovlen, len);
    return cut < len ? (ssize_t)cut : n;
}

ssize_t recvfrom(int fd, void *buf, size_t cap, int flags, struct sockaddr *from, socklen_t *fromlen) {
    static ssize_t (*real)(int, void *, size_t, int, struct sockaddr *, socklen_t *);
    if (!real)
        real = (ssize_t(*)(int, void *, size_t, int, struct sockaddr *, socklen_t *))dlsym(RTLD_NEXT, "recvfrom");
    ssize_t n = real(fd, buf, cap, flags, from, fromlen);
    if (n <= 0 || (flags & MSG_PEEK) || !is_rdma_netlink(fd)) return n;
    size_t len = (size_t)n < cap ? (size_t)n : cap;
    struct iovec iov = {buf, cap};
    size_t cut = damage(&iov, 1, len);
    return cut < len ? (ssize_t)cut : n;
}

ssize_t recv(int fd, void *buf, size_t cap, int flags) {
    return recvfrom(fd, buf, cap, flags, NULL, NULL);
}
