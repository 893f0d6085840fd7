#!/bin/bash
# Start-up of short commands on a real kernel: `rdma dev` and `rdma link`
# (and `rdma -V`), ours against iproute2's, side by side in one VM (fixture
# basic: rxe0, rxe1), with the floor beside them: a program that does
# nothing (bench/startup_floor.c) built static, dynamic with libc only, and
# dynamic with libc + libmnl. --also NAME=PATH adds another build of ours
# (e.g. main's, to see before and after in one VM).
#
# Every start is timed by bench/res_measure.c (fork + exec + wait, to the
# microsecond). In each of N x R turns every program runs once, the order
# rotated every turn: the host's load (other VMs, builds) then falls on all
# alike. Prints, per program and command, the median page faults and the
# median, the 25th percentile and the minimum of a start's wall time, and ours/iproute2 of the medians
# and of the 25th percentiles; and the shared libraries each tool opens for
# `dev` (strace).
#
# usage: bench/startup_vm.sh [--kernel 6.1|6.12] [--rdma PATH] [--starts N] [--rounds R]
#                            [--also NAME=PATH]... [--no-aslr]
# --no-aslr turns address space randomization off in the VM (diagnostic:
# QEMU's TCG finds the code it translated for an earlier process only at
# the same virtual address, so a randomized PIE and its libraries are
# translated anew at every start).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
KERNEL=6.12
RDMA=$HERE/../build/rdma
STARTS=50
ROUNDS=5
ALSO=()
ASLR=2
usage() { sed -n '18,23p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
    case "$1" in
        --kernel) KERNEL=$2; shift 2 ;;
        --rdma) RDMA=$2; shift 2 ;;
        --starts) STARTS=$2; shift 2 ;;
        --rounds) ROUNDS=$2; shift 2 ;;
        --also) ALSO+=("$2"); shift 2 ;;
        --no-aslr) ASLR=0; shift ;;
        *) usage ;;
    esac
done
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
# res_measure times fork+exec+wait of one start from a small process: bash's
# own fork (a large process) would add the same time to every program.
gcc -O2 -o "$W/measure" "$HERE/res_measure.c"
gcc -O2 -static -o "$W/floor-static" "$HERE/startup_floor.c"
gcc -O2 -o "$W/floor-libc" "$HERE/startup_floor.c"
gcc -O2 -o "$W/floor-libc-mnl" "$HERE/startup_floor.c" -Wl,--no-as-needed -lmnl

# The programs: "TOOL CMD PATH ARGS..." (CMD names the row, ARGS are run).
PROGS=()
for args in dev link -V; do
    PROGS+=("iproute2 $args /usr/bin/rdma $args" "ours $args /opt/rdma-new/rdma $args")
done
ADD=()
for a in "${ALSO[@]}"; do
    name=${a%%=*} path=${a#*=}
    [ -x "$path" ] || { echo "startup_vm: $path is not executable" >&2; exit 2; }
    mkdir -p "$W/also"
    cp -L "$path" "$W/also/$name"
    ADD+=(--add "$W/also/$name")
    for args in dev link -V; do PROGS+=("$name $args /opt/add/$name $args"); done
done
for f in floor-static floor-libc floor-libc-mnl; do PROGS+=("$f true /tmp/$f"); done

{
echo '#!/bin/bash'
for b in measure floor-static floor-libc floor-libc-mnl; do
    echo "base64 -d > /tmp/$b <<'B64'"
    base64 "$W/$b"
    echo 'B64'
    echo "chmod +x /tmp/$b"
done
echo "PROGS=("
for p in "${PROGS[@]}"; do echo "  '$p'"; done
echo ")"
cat <<EOS
echo $ASLR > /proc/sys/kernel/randomize_va_space
echo "clock \$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource) randomize_va_space \$(cat /proc/sys/kernel/randomize_va_space)"
# Both print the same objects (the text differs only as differences.txt
# allows: ours shows the protocol in dev); show the line counts.
for args in dev link; do
    echo "lines \$args iproute2 \$(rdma \$args | wc -l) ours \$(rdma-new \$args | wc -l)"
done
for t in iproute2:/usr/bin/rdma ours:/opt/rdma-new/rdma; do
    strace -f -e trace=openat -o /tmp/st "\${t#*:}" dev > /dev/null 2>&1
    echo "libs \${t%%:*} \$(grep -o '[^/"]*\.so[^"]*' /tmp/st | grep -v ENOENT | sort -u | tr '\n' ' ')"
done
n=\${#PROGS[@]}
for ((i = 0; i < $STARTS * $ROUNDS; i++)); do
    for ((j = 0; j < n; j++)); do
        set -- \${PROGS[(i + j) % n]}
        tool=\$1 cmd=\$2; shift 2
        echo "run \$cmd \$tool \$(/tmp/measure "\$@" 2> /dev/null)"
    done
done
exit 0
EOS
} > "$W/guest.sh"
chmod +x "$W/guest.sh"
RDMA_VM_TIMEOUT=${RDMA_VM_TIMEOUT:-3600} "$HERE/../tests/vm/run" --kernel "$KERNEL" --rdma "$RDMA" \
    --fixture basic "${ADD[@]}" --script "$W/guest.sh" > "$W/out.txt" || echo "startup_vm: VM run failed ($?)" >&2
[ -n "${BENCH_OUT:-}" ] && cp "$W/out.txt" "$BENCH_OUT"
grep -E '^(clock|lines|libs) ' "$W/out.txt" || true
echo "kernel $KERNEL: $((STARTS * ROUNDS)) turns, each program once a turn, the order rotated;"
echo "a start: median page faults; milliseconds: median, 25th percentile, minimum;"
echo "ratio: to iproute2's same command (medians, 25th percentiles)"
awk '$1 == "run" && NF >= 4 {
       k = ++n[$2, $3]; t[$2, $3, k] = $4 * 1000; f[$2, $3, k] = $8
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
           v = f[key, i]
           for (j = i - 1; j >= 1 && sf[key, j] > v; j--) sf[key, j + 1] = sf[key, j]
           sf[key, j + 1] = v
         }
       }
       return s[key, int((k - 1) * p) + 1]
     }
     END {
       printf "%-6s %-15s %6s %8s %8s %8s %7s %7s\n", "cmd", "program", "faults", "median", "p25", "min", "ratio", "p25"
       for (r = 1; r <= nr; r++) {
         split(rows[r], a, SUBSEP); c = a[1]; tool = a[2]
         m = q(rows[r], 0.5); l = q(rows[r], 0.25); lo = q(rows[r], 0)
         fl = sf[rows[r], int((n[rows[r]] - 1) * 0.5) + 1]
         if (tool != "iproute2" && ((c, "iproute2") in n))
           printf "%-6s %-15s %6d %8.2f %8.2f %8.2f %6.2fx %6.2fx\n", c, tool, fl, m, l, lo,
                  m / q(c SUBSEP "iproute2", 0.5), l / q(c SUBSEP "iproute2", 0.25)
         else
           printf "%-6s %-15s %6d %8.2f %8.2f %8.2f\n", c, tool, fl, m, l, lo
       }
     }' "$W/out.txt"
