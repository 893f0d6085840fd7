/*
 * Counts the MADs a program sends through libibumad (umad_send), for the
 * fabric benchmarks: LD_PRELOAD it before libumad2sim.so; at exit it writes
 * "umad_count: N sent" to stderr. ibnetdiscover has no MAD counter of its
 * own (its -m is the maximum hop count).
 *   cc -shared -fPIC -O2 -o umad_count.so bench/umad_count.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>

static unsigned long sent;

int umad_send(int fd, int agentid, void *umad, int length, int timeout_ms, int retries)
{
	static int (*real)(int, int, void *, int, int, int);

	if (!real)
		real = (int (*)(int, int, void *, int, int, int))dlsym(RTLD_NEXT, "umad_send");
	sent++;
	return real(fd, agentid, umad, length, timeout_ms, retries);
}

__attribute__((destructor)) static void report(void)
{
	fprintf(stderr, "umad_count: %lu sent\n", sent);
}
