/* LD_PRELOAD shim: damages the MAD replies a umad client reads, to test that
 * a tool never crashes, never hangs and never believes a reply that is not
 * its request's (issue 26). The MAD counterpart of tests/vm/nlcorrupt.c.
 *
 * It wraps open, read, write and poll as libibumad calls them: a file under
 * /dev/infiniband/umad is a umad device; what write() sends there is a
 * request (its TID is remembered while it is in flight), what read() returns
 * there is a struct ib_user_mad (64 bytes) and the MAD. Under the simulator
 * it must come first in LD_PRELOAD, before libumad2sim.so:
 *     LD_PRELOAD="madfault.so libumad2sim.so"
 * libibumad's calls to read() resolve to the first preload that defines it
 * (ours), and ours passes them on with dlsym(RTLD_NEXT), which is
 * umad2sim's: so ours sees the umad buffers exactly as umad_recv and
 * umad_send do. The other order hands libibumad to umad2sim directly and
 * ours would see only umad2sim's socket to ibsim. (A preload defining
 * umad_recv would not do: the tool dlopen()s libibumad and looks its
 * functions up in that handle, past any preload.)
 *
 * Environment:
 *   MADFAULT_SEED=N      seeds the generator (default 1): a run repeats.
 *   MADFAULT_RATES=K=P,  the chance in percent (decimals allowed) that a
 *                        reply gets damage K; each kind is drawn on its own.
 *     status   a non-zero status          method   another method
 *     class    another management class   version  base or class version
 *     attr     another attribute id       mod      another modifier
 *     hops     a directed route's hop pointer, hop count or direction
 *     rmpp     an SA reply's RMPP header or AttributeOffset
 *     payload  1-3 bytes after the common header flipped, zeroed or random
 *     short    the reply cut short (a short read)
 *     drop     the reply lost
 *     dup      the reply given twice
 *     tid      the reply's TID moved to another request in flight
 *     header   every kind from status to hops;  all  every kind
 *   MADFAULT_LOG=FILE    appends one line per damage done.
 *   MADFAULT_SENT=FILE   at exit, appends the number of requests sent
 *                        (every try) when the process opened a umad device:
 *                        the suite's time bound for the run (fault.sh).
 *   MADFAULT_ROUTES="1,3 1,4"  only the replies of directed routes that
 *                        begin with one of these (a node and what is behind
 *                        it) are damaged; other replies pass untouched.
 *   MADFAULT_CLASS=C     only the replies of management class C (4: the PMAs'
 *                        PerfMgt) are damaged; other replies pass untouched.
 *   MADFAULT_AFTER=N     the first N replies pass untouched, the rates
 *                        apply from the next: a fabric that falls sick
 *                        part way through (fault.sh, the 30 s bound).
 * Only replies (the response bit set, umad status 0) are damaged; requests
 * pass untouched. Build: gcc -shared -fPIC -O2 -o madfault.so madfault.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

enum kind { STATUS, METHOD, CLASS, VERSION, ATTR, MOD, HOPS, RMPP, PAYLOAD, SHORT, DROP, DUP, TID, KINDS };
static const char *const names[KINDS] = {"status", "method", "class", "version", "attr", "mod", "hops",
                                         "rmpp",   "payload", "short", "drop",   "dup",  "tid"};

#define UMAD_HDR 64 /* struct ib_user_mad before the MAD: agent_id, status, ... */
#define MAD_MAX 256
#define MAX_FDS 16
#define MAX_FLIGHT 64
#define MAX_HELD 8

static double rates[KINDS];
static uint64_t state;
static int ready;
static FILE *logf;

/* umad file descriptors, the TIDs (low 32 bits) and classes of requests in
 * flight, replies held back to be read again (duplicates). */
static int umad_fds[MAX_FDS];
static int n_fds;
static struct {
    uint32_t tid;
    uint8_t mgmt_class;
} flight[MAX_FLIGHT];
static int n_flight;
static struct {
    int fd;
    size_t len;
    uint8_t buf[UMAD_HDR + MAD_MAX];
} held[MAX_HELD];
static int n_held;
static unsigned long sent;
#define MAX_ROUTES 8
static struct {
    uint8_t port[64];
    int hops;
} routes[MAX_ROUTES];
static int n_routes;
static unsigned long after, replies;
static int only_class = -1; /* MADFAULT_CLASS; -1: every class */

/* An exit that is not a crash: the requests sent, for the time bound.
 * Appended: `timeout`, run under the same preload, adds nothing. */
__attribute__((destructor)) static void report_sent(void) {
    const char *path = getenv("MADFAULT_SENT");
    FILE *f = path && n_fds ? fopen(path, "a") : NULL;
    if (!f) return;
    fprintf(f, "%lu\n", sent);
    fclose(f);
}

static void setup(void) {
    if (ready) return;
    ready = 1;
    const char *s = getenv("MADFAULT_SEED");
    state = 0x9e3779b97f4a7c15ull ^ (s ? strtoull(s, NULL, 0) : 1);
    const char *l = getenv("MADFAULT_LOG");
    if (l) logf = fopen(l, "a");
    const char *a = getenv("MADFAULT_AFTER");
    if (a) after = strtoul(a, NULL, 10);
    const char *cls = getenv("MADFAULT_CLASS");
    if (cls) only_class = (int)strtol(cls, NULL, 0);
    const char *routes_env = getenv("MADFAULT_ROUTES");
    for (const char *c = routes_env; c && *c && n_routes < MAX_ROUTES;) {
        char *end;
        unsigned long port = strtoul(c, &end, 10);
        if (end == c) break;
        if (routes[n_routes].hops < 64) routes[n_routes].port[routes[n_routes].hops++] = (uint8_t)port;
        if (*end == ',') {
            c = end + 1;
            continue;
        }
        n_routes++; /* a space or the end: the route is complete */
        c = *end ? end + 1 : end;
    }
    const char *r = getenv("MADFAULT_RATES");
    if (!r) return;
    char spec[512];
    snprintf(spec, sizeof spec, "%s", r);
    for (char *save = NULL, *tok = strtok_r(spec, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq) continue;
        *eq = 0;
        double p = strtod(eq + 1, NULL) / 100.0;
        for (int k = 0; k < KINDS; k++)
            if (!strcmp(tok, names[k]) || !strcmp(tok, "all") || (!strcmp(tok, "header") && k <= HOPS))
                rates[k] = p;
    }
}

static uint32_t rnd(void) {
    /* xorshift64* */
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return (uint32_t)((state * 0x2545f4914f6cdd1dull) >> 32);
}

static int chance(enum kind k) {
    return rates[k] > 0 && (double)rnd() / 4294967296.0 < rates[k];
}

static void note(const char *fmt, ...) {
    if (!logf) return;
    va_list a;
    va_start(a, fmt);
    vfprintf(logf, fmt, a);
    va_end(a);
    fputc('\n', logf);
    fflush(logf);
}

static int is_umad(int fd) {
    for (int i = 0; i < n_fds; i++)
        if (umad_fds[i] == fd) return 1;
    return 0;
}

static uint32_t tid_of(const uint8_t *m) {
    return (uint32_t)m[12] << 24 | (uint32_t)m[13] << 16 | (uint32_t)m[14] << 8 | m[15];
}

static void set_tid(uint8_t *m, uint32_t t) {
    m[12] = (uint8_t)(t >> 24);
    m[13] = (uint8_t)(t >> 16);
    m[14] = (uint8_t)(t >> 8);
    m[15] = (uint8_t)t;
}

static void forget(uint32_t tid) {
    for (int i = 0; i < n_flight; i++)
        if (flight[i].tid == tid) {
            flight[i] = flight[--n_flight];
            return;
        }
}

/* Whether the reply m (len bytes) may be damaged: MADFAULT_CLASS (its
 * class is byte 1), MADFAULT_ROUTES. A directed-route SMP's initial path
 * is at byte 128, its hop count byte 7. */
static int chosen(const uint8_t *m, size_t len) {
    if (only_class >= 0 && (len < 2 || m[1] != only_class)) return 0;
    if (!n_routes) return 1;
    if (m[1] != 0x81 || len < 192) return 0;
    for (int i = 0; i < n_routes; i++) {
        int hops = routes[i].hops, match = hops <= m[7];
        for (int h = 0; match && h < hops; h++) match = m[128 + 1 + h] == routes[i].port[h];
        if (match) return 1;
    }
    return 0;
}

/* A byte changed to another value: flipped, zeroed or random. */
static void spoil_byte(uint8_t *b) {
    uint8_t before = *b;
    switch (rnd() % 3) {
    case 0: *b ^= (uint8_t)(1u << (rnd() % 8)); break;
    case 1: *b = 0; break;
    default: *b = (uint8_t)rnd(); break;
    }
    if (*b == before) *b ^= 0x01;
}

/* Damages the MAD m (len bytes) as the rates say; returns its new length. */
static size_t damage(uint8_t *m, size_t len) {
    uint8_t cls = m[1];
    if (chance(STATUS)) {
        /* A directed route's status is 15 bits (the D bit above). */
        uint16_t s = (uint16_t)(1 + rnd() % (cls == 0x81 ? 0x7fff : 0xffff));
        m[4] = (uint8_t)((m[4] & (cls == 0x81 ? 0x80 : 0)) | s >> 8);
        m[5] = (uint8_t)s;
        note("status %02x%02x", m[4], m[5]);
    }
    if (chance(METHOD)) {
        uint8_t before = m[3];
        m[3] = rnd() % 2 ? (uint8_t)(m[3] ^ 0x80) : (uint8_t)(0x80 | rnd() % 0x20);
        if (m[3] == before) m[3] ^= 0x01;
        note("method %02x -> %02x", before, m[3]);
    }
    if (chance(CLASS)) {
        uint8_t before = m[1];
        static const uint8_t classes[] = {0x01, 0x81, 0x03, 0x04};
        m[1] = rnd() % 2 ? classes[rnd() % 4] : (uint8_t)rnd();
        if (m[1] == before) m[1] ^= 0x02;
        note("class %02x -> %02x", before, m[1]);
    }
    if (chance(VERSION)) {
        int at = rnd() % 2 ? 0 : 2; /* base or class version */
        uint8_t before = m[at];
        m[at] = (uint8_t)(rnd() % 4);
        if (m[at] == before) m[at] ^= 0x04;
        note("%s version %u -> %u", at ? "class" : "base", before, m[at]);
    }
    if (chance(ATTR)) {
        uint16_t before = (uint16_t)(m[16] << 8 | m[17]);
        spoil_byte(&m[16 + rnd() % 2]);
        note("attribute %04x -> %02x%02x", before, m[16], m[17]);
    }
    if (chance(MOD)) {
        spoil_byte(&m[20 + rnd() % 4]);
        note("modifier -> %02x%02x%02x%02x", m[20], m[21], m[22], m[23]);
    }
    if (cls == 0x81 && chance(HOPS)) {
        switch (rnd() % 3) {
        case 0: m[4] ^= 0x80; note("direction flipped"); break;
        case 1: spoil_byte(&m[6]); note("hop pointer -> %u", m[6]); break;
        default: spoil_byte(&m[7]); note("hop count -> %u", m[7]); break;
        }
    }
    if (cls == 0x03 && len >= 56 && chance(RMPP)) {
        /* RMPP version, type, flags, status, SegmentNumber, PayloadLength
         * (bytes 24-35), or AttributeOffset (bytes 44-45). */
        static const uint8_t at[] = {24, 25, 26, 27, 28, 31, 32, 34, 35, 44, 45};
        int i = at[rnd() % sizeof at];
        uint8_t before = m[i];
        spoil_byte(&m[i]);
        note("rmpp byte %d: %02x -> %02x", i, before, m[i]);
    }
    if (len > 24 && chance(PAYLOAD)) {
        int n = 1 + rnd() % 3;
        for (int i = 0; i < n; i++) {
            size_t at = 24 + rnd() % (len - 24);
            uint8_t before = m[at];
            spoil_byte(&m[at]);
            note("byte %zu: %02x -> %02x", at, before, m[at]);
        }
    }
    if (chance(SHORT)) {
        size_t cut = rnd() % len;
        note("short read %zu -> %zu", len, cut);
        len = cut;
    }
    return len;
}

int open(const char *path, int flags, ...) {
    static int (*real)(const char *, int, ...);
    if (!real) real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
    mode_t mode = 0;
    if (flags & O_CREAT) {
        va_list a;
        va_start(a, flags);
        mode = va_arg(a, mode_t);
        va_end(a);
    }
    int fd = real(path, flags, mode);
    if (fd >= 0 && !strncmp(path, "/dev/infiniband/umad", 20) && n_fds < MAX_FDS) {
        setup();
        umad_fds[n_fds++] = fd;
    }
    return fd;
}

ssize_t write(int fd, const void *buf, size_t count) {
    static ssize_t (*real)(int, const void *, size_t);
    if (!real) real = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
    if (is_umad(fd) && count >= UMAD_HDR + 24) {
        const uint8_t *m = (const uint8_t *)buf + UMAD_HDR;
        if (!(m[3] & 0x80)) { /* a request: in flight until answered */
            sent++;
            if (n_flight == MAX_FLIGHT) memmove(flight, flight + 1, sizeof flight[0] * --n_flight);
            flight[n_flight].tid = tid_of(m);
            flight[n_flight].mgmt_class = m[1];
            n_flight++;
        }
    }
    return real(fd, buf, count);
}

int poll(struct pollfd *fds, nfds_t nfds, int timeout) {
    static int (*real)(struct pollfd *, nfds_t, int);
    if (!real) real = (int (*)(struct pollfd *, nfds_t, int))dlsym(RTLD_NEXT, "poll");
    /* A held reply is there to read now. */
    for (nfds_t i = 0; i < nfds; i++)
        for (int h = 0; h < n_held; h++)
            if (held[h].fd == fds[i].fd && (fds[i].events & POLLIN)) {
                for (nfds_t j = 0; j < nfds; j++) fds[j].revents = 0;
                fds[i].revents = POLLIN;
                return 1;
            }
    return real(fds, nfds, timeout);
}

ssize_t read(int fd, void *buf, size_t count) {
    static ssize_t (*real)(int, void *, size_t);
    if (!real) real = (ssize_t(*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
    if (!is_umad(fd)) return real(fd, buf, count);
    for (int h = 0; h < n_held; h++)
        if (held[h].fd == fd) {
            size_t n = held[h].len < count ? held[h].len : count;
            memcpy(buf, held[h].buf, n);
            held[h] = held[--n_held];
            note("duplicate given");
            return (ssize_t)n;
        }
    for (;;) {
        ssize_t n = real(fd, buf, count);
        uint8_t *u = buf;
        if (n < UMAD_HDR + 24 || (size_t)n > count) return n;
        uint32_t status;
        memcpy(&status, u + 4, sizeof status);
        uint8_t *m = u + UMAD_HDR;
        if (status || !(m[3] & 0x80)) return n; /* a send's report, or a request */
        size_t len = (size_t)n - UMAD_HDR;
        uint32_t tid = tid_of(m);
        forget(tid);
        if (!chosen(m, len) || replies++ < after) return n;
        if (chance(DROP)) {
            note("dropped tid %08x", tid);
            continue; /* the next one, or nothing (umad2sim: -EWOULDBLOCK) */
        }
        if (chance(DUP) && n_held < MAX_HELD && (size_t)n <= sizeof held[0].buf) {
            held[n_held].fd = fd;
            held[n_held].len = (size_t)n;
            memcpy(held[n_held].buf, u, (size_t)n);
            n_held++;
            note("duplicated tid %08x", tid);
        }
        if (chance(TID)) {
            /* Another request's, of the same class when there is one. */
            int pick = -1, same = 0, other = 0;
            for (int i = 0; i < n_flight; i++)
                if (flight[i].tid != tid && flight[i].mgmt_class == m[1] && rnd() % ++same == 0) pick = i;
            for (int i = 0; i < n_flight && !same; i++)
                if (flight[i].tid != tid && rnd() % ++other == 0) pick = i;
            if (pick >= 0) {
                set_tid(m, flight[pick].tid);
                note("tid %08x -> %08x", tid, flight[pick].tid);
            }
        }
        return (ssize_t)(UMAD_HDR + damage(m, len));
    }
}
