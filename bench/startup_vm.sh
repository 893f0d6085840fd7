#!/bin/bash
# Start-up of short commands on a real kernel: `rdma dev` and `rdma link`
# (and `rdma -V`), ours against iproute2's, side by side in one VM (fixture
# basic: rxe0, rxe1). The tools start in turns (one start each, the order
# swapped every time), N starts of each a round. Prints, per command, the
# median and the 25th percentile of a start's wall time for each tool and
# ours/iproute2, and the shared libraries each tool opens for `dev` (strace).
#
# usage: bench/startup_vm.sh [--kernel 6.1|6.12] [--rdma PATH] [--starts N] [--rounds R]
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
KERNEL=6.12
RDMA=$HERE/../build/rdma
STARTS=50
ROUNDS=5
while [ $# -gt 0 ]; do
    case "$1" in
        --kernel) KERNEL=$2; shift 2 ;;
        --rdma) RDMA=$2; shift 2 ;;
        --starts) STARTS=$2; shift 2 ;;
        --rounds) ROUNDS=$2; shift 2 ;;
        *) echo "usage: $0 [--kernel 6.1|6.12] [--rdma PATH] [--starts N] [--rounds R]" >&2; exit 2 ;;
    esac
done
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
# res_measure times fork+exec+wait of one start from a small process: bash's
# own fork (a large process) would add the same time to both tools.
gcc -O2 -o "$W/measure" "$HERE/res_measure.c"

{
echo '#!/bin/bash'
echo "base64 -d > /tmp/measure <<'B64'"
base64 "$W/measure"
echo 'B64'
echo 'chmod +x /tmp/measure'
cat <<EOS
# Both print the same objects (the text differs only as differences.txt
# allows: ours shows the protocol in dev); show the line counts.
for args in dev link; do
    echo "lines \$args iproute2 \$(rdma \$args | wc -l) ours \$(rdma-new \$args | wc -l)"
done
for t in iproute2:/usr/bin/rdma ours:/opt/rdma-new/rdma; do
    strace -f -e trace=openat -o /tmp/st "\${t#*:}" dev > /dev/null 2>&1
    echo "libs \${t%%:*} \$(grep -o '[^/"]*\.so[^"]*' /tmp/st | grep -v ENOENT | sort -u | tr '\n' ' ')"
done
# The two tools start in turns, one start each, the order swapped every
# time: the host's load (other VMs, builds) then falls on both alike.
for ((r = 0; r < $ROUNDS; r++)); do
    for args in dev link -V; do
        for ((i = 0; i < $STARTS; i++)); do
            if [ \$(((i + r) % 2)) = 0 ]; then order="iproute2:/usr/bin/rdma ours:/opt/rdma-new/rdma"
            else order="ours:/opt/rdma-new/rdma iproute2:/usr/bin/rdma"; fi
            for t in \$order; do
                echo "run \$args \${t%%:*} \$(/tmp/measure "\${t#*:}" \$args 2> /dev/null)"
            done
        done
    done
done
exit 0
EOS
} > "$W/guest.sh"
chmod +x "$W/guest.sh"
RDMA_VM_TIMEOUT=${RDMA_VM_TIMEOUT:-1800} "$HERE/../tests/vm/run" --kernel "$KERNEL" --rdma "$RDMA" \
    --fixture basic --script "$W/guest.sh" > "$W/out.txt" || echo "startup_vm: VM run failed ($?)" >&2
[ -n "${BENCH_OUT:-}" ] && cp "$W/out.txt" "$BENCH_OUT"
grep -E '^(lines|libs) ' "$W/out.txt" || true
echo "kernel $KERNEL: $STARTS starts of each tool a round, $ROUNDS rounds, the tools in turns;"
echo "milliseconds a start: median and 25th percentile over all $((STARTS * ROUNDS)) starts"
awk '$1 == "run" { k = ++n[$2, $3]; t[$2, $3, k] = $4 * 1000; cmds[$2] = 1 }
     function q(c, tool, p,   i, j, k, v, a) {
       k = n[c, tool]
       for (i = 1; i <= k; i++) {  # insertion sort (mawk has no asort)
         v = t[c, tool, i]
         for (j = i - 1; j >= 1 && a[j] > v; j--) a[j + 1] = a[j]
         a[j + 1] = v
       }
       return a[int((k - 1) * p) + 1]
     }
     END {
       printf "%-6s %10s %10s %7s %10s %10s %7s\n", "cmd", "iproute2", "ours", "ratio", "iproute2", "ours", "ratio"
       printf "%-6s %10s %10s %7s %10s %10s %7s\n", "", "median", "median", "", "p25", "p25", ""
       split("dev link -V", order, " ")
       for (i = 1; i <= 3; i++) {
         c = order[i]
         if (!(c in cmds)) continue
         im = q(c, "iproute2", 0.5); om = q(c, "ours", 0.5)
         il = q(c, "iproute2", 0.25); ol = q(c, "ours", 0.25)
         printf "%-6s %10.1f %10.1f %6.2fx %10.1f %10.1f %6.2fx\n", c, im, om, om / im, il, ol, ol / il
       }
     }' "$W/out.txt"
