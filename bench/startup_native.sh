#!/bin/bash
# Start-up of short commands on this machine's own kernel, ours against
# iproute2's rdma side by side: `rdma -V`, `rdma help`, an error path (an
# unknown object: the argument check, the message, exit 1) and `rdma dev`
# (on a kernel without RDMA netlink that is the socket and the kernel's
# refusal: an error path too; with RDMA, a real dump).
#
# Every start is timed by bench/res_measure.c (fork + exec + wait, to the
# microsecond). In each of N turns every program runs once, the order
# rotated every turn, so the host's load falls on all alike. Prints per
# command the median and the 25th percentile of a start's wall time and
# ours/iproute2 of the medians, and the shared libraries each tool maps.
#
# usage: bench/startup_native.sh [--rdma PATH] [--iproute2 PATH] [--turns N]
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
RDMA=$HERE/../build/rdma
IPROUTE2=/usr/bin/rdma
TURNS=200
usage() { sed -n '14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
    case "$1" in
        --rdma) RDMA=$2; shift 2 ;;
        --iproute2) IPROUTE2=$2; shift 2 ;;
        --turns) TURNS=$2; shift 2 ;;
        *) usage ;;
    esac
done
[ -x "$RDMA" ] || { echo "startup_native: $RDMA is not executable (build first)" >&2; exit 2; }
[ -x "$IPROUTE2" ] || { echo "startup_native: no iproute2 rdma at $IPROUTE2 (apt-get install iproute2)" >&2; exit 2; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
gcc -O2 -o "$W/measure" "$HERE/res_measure.c"

CMDS=("-V" "help" "nosuchobject" "dev")
PROGS=()
for c in "${CMDS[@]}"; do
    PROGS+=("iproute2 $c $IPROUTE2 $c" "ours $c $RDMA $c")
done
n=${#PROGS[@]}
for ((i = 0; i < TURNS; i++)); do
    for ((j = 0; j < n; j++)); do
        # shellcheck disable=SC2086
        set -- ${PROGS[(i + j) % n]}
        tool=$1 cmd=$2; shift 2
        echo "run $cmd $tool $("$W/measure" "$@" 2>/dev/null)"
    done
done >"$W/out.txt"

for t in "iproute2:$IPROUTE2" "ours:$RDMA"; do
    libs=$(ldd "${t#*:}" | awk '/=>/ {print $1}' | tr '\n' ' ')
    echo "libs ${t%%:*}: $libs"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $TURNS turns, each program once a turn, the order rotated"
echo "milliseconds of a start: median, 25th percentile; ratio: ours / iproute2 (medians, 25th percentiles)"
awk '$1 == "run" && NF >= 4 {
       k = ++n[$2, $3]; t[$2, $3, k] = $4 * 1000
       if (!(($2, $3) in seen)) { seen[$2, $3] = 1; rows[++nr] = $2 SUBSEP $3 }
     }
     function q(key, p,   i, j, k, v) {
       k = n[key]
       if (!(key in sorted)) {
         sorted[key] = 1
         for (i = 1; i <= k; i++) {  # insertion sort (mawk has no asort)
           v = t[key, i]
           for (j = i - 1; j >= 1 && s[key, j] > v; j--) s[key, j + 1] = s[key, j]
           s[key, j + 1] = v
         }
       }
       return s[key, int((k - 1) * p) + 1]
     }
     END {
       printf "%-13s %-9s %8s %8s %7s %7s\n", "cmd", "program", "median", "p25", "ratio", "p25"
       for (r = 1; r <= nr; r++) {
         split(rows[r], a, SUBSEP); c = a[1]; tool = a[2]
         m = q(rows[r], 0.5); l = q(rows[r], 0.25)
         if (tool != "iproute2")
           printf "%-13s %-9s %8.3f %8.3f %6.2fx %6.2fx\n", c, tool, m, l,
                  m / q(c SUBSEP "iproute2", 0.5), l / q(c SUBSEP "iproute2", 0.25)
         else
           printf "%-13s %-9s %8.3f %8.3f\n", c, tool, m, l
       }
     }' "$W/out.txt"
