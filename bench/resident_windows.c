/*
 * Which 64 KiB windows of each mapped file a program has resident when it
 * exits, for the memory benchmarks (bench/fabric_windows_ibsim.sh): the
 * kernel maps the page-cache pages around a fault (fault-around, 64 KiB),
 * so a library's resident size is set by which windows its code touches.
 * LD_PRELOAD it; at exit (a destructor) it writes one line per resident
 * window to $RESIDENT_WINDOWS: "PATH PERMS FILE_OFFSET_OF_WINDOW PAGES",
 * read from /proc/self/maps and /proc/self/pagemap (the present bit needs
 * no privilege).
 *   cc -shared -fPIC -O2 -o resident_windows.so bench/resident_windows.c
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((destructor)) static void resident_windows(void)
{
	const char *path = getenv("RESIDENT_WINDOWS");
	FILE *out, *maps;
	char line[4096];
	int pm;

	if (!path)
		return;
	out = fopen(path, "w");
	maps = fopen("/proc/self/maps", "r");
	pm = open("/proc/self/pagemap", O_RDONLY);
	if (!out || !maps || pm < 0)
		return;
	while (fgets(line, sizeof line, maps)) {
		unsigned long start, end, off, at, window = 0, pages = 0;
		char perms[8], file[4000] = "";
		uint64_t entry;

		if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %3999s", &start, &end, perms, &off, file) < 5 ||
		    file[0] != '/')
			continue;
		/* Windows by virtual address, as fault-around aligns them. */
		for (at = start; at < end; at += 4096) {
			if (pread(pm, &entry, 8, (off_t)(at / 4096 * 8)) != 8)
				break;
			if (!(entry >> 63))
				continue;
			if (pages && at / 65536 != window) {
				fprintf(out, "%s %s %lx %lu\n", file, perms,
					off + (window * 65536 > start ? window * 65536 - start : 0), pages);
				pages = 0;
			}
			window = at / 65536;
			pages++;
		}
		if (pages)
			fprintf(out, "%s %s %lx %lu\n", file, perms,
				off + (window * 65536 > start ? window * 65536 - start : 0), pages);
	}
	close(pm);
	fclose(maps);
	fclose(out);
}
