#!/bin/bash
# `rdma res show qp` (text and -j) with many QPs on a real kernel: ours
# against iproute2 and against a floor reader that dumps and discards.
# Prints wall time, peak RSS and ratios per QP count.
#
# usage: bench/res_vm.sh [--kernel 6.1|6.12] [--rdma PATH] [COUNT...]
# (default counts 1000 10000 50000; needs gcc, libibverbs-dev, libmnl-dev)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
KERNEL=6.12
RDMA=$HERE/../build/rdma
while [ $# -gt 0 ]; do
    case "$1" in
        --kernel) KERNEL=$2; shift 2 ;;
        --rdma) RDMA=$2; shift 2 ;;
        *) break ;;
    esac
done
COUNTS=${*:-1000 10000 50000}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
gcc -O2 -o "$W/mkqps" "$HERE/res_mkqps.c" -libverbs
gcc -O2 -o "$W/measure" "$HERE/res_measure.c"
gcc -O2 -o "$W/floor" "$HERE/res_floor.c" -lmnl

{
    echo '#!/bin/bash'
    for b in mkqps measure floor; do
        echo "base64 -d > /tmp/$b <<'B64'"
        base64 "$W/$b"
        echo 'B64'
        echo "chmod +x /tmp/$b"
    done
    cat <<EOS
# Each QP maps its queues twice: the default 65530 maps stop a process
# near 32.7k QPs, which looked like an rxe limit.
echo 1048576 > /proc/sys/vm/max_map_count
for n in $COUNTS; do
    /tmp/mkqps rxe0 \$n > /tmp/mk.log 2>&1 &
    pid=\$!
    for i in \$(seq 3000); do grep -q ready /tmp/mk.log && break; sleep 0.2; done
    made=\$(sed -n 's/ready //p' /tmp/mk.log)
    rdma res show qp > /tmp/a.txt; rdma-new res show qp > /tmp/b.txt
    cmp -s /tmp/a.txt /tmp/b.txt && same=same || same=DIFFERENT
    rdma -j res show qp > /tmp/a.json; rdma-new -j res show qp > /tmp/b.json
    cmp -s /tmp/a.json /tmp/b.json && jsame=same || jsame=DIFFERENT
    echo "qps \$made text-output \$same json-output \$jsame"
    for t in "iproute2-text rdma res show qp" "iproute2-json rdma -j res show qp" \\
             "ours-text rdma-new res show qp" "ours-json rdma-new -j res show qp" \\
             "floor /tmp/floor 2"; do
        set -- \$t
        name=\$1; shift
        for r in 1 2 3; do echo "run \$made \$name \$(/tmp/measure "\$@")"; done
    done
    kill \$pid; wait \$pid 2>/dev/null || true
done
exit 0
EOS
} > "$W/guest.sh"
chmod +x "$W/guest.sh"
RDMA_VM_TIMEOUT=${RDMA_VM_TIMEOUT:-3000} "$HERE/../tests/vm/run" --kernel "$KERNEL" --rdma "$RDMA" \
    --fixture basic --script "$W/guest.sh" > "$W/out.txt" || echo "res_vm: VM run failed ($?)" >&2
[ -n "${BENCH_OUT:-}" ] && cp "$W/out.txt" "$BENCH_OUT"
grep '^qps' "$W/out.txt" || true
# Each tool runs three times; the fastest run counts (the host's other load
# only ever adds time).
awk '$1 == "run" && (!(($2, $3) in wall) || $4 < wall[$2, $3]) {
       wall[$2, $3] = $4; rss[$2, $3] = $5; usr[$2, $3] = $6; sys[$2, $3] = $7; n[$2] = 1 }
     END {
       printf "%-8s %-14s %10s %10s %8s %8s\n", "QPs", "tool", "wall s", "RSS KiB", "user s", "sys s"
       for (q in n) {
         split("iproute2-text iproute2-json ours-text ours-json floor", tools, " ")
         for (i = 1; i <= 5; i++)
           printf "%-8s %-14s %10s %10s %8s %8s\n", q, tools[i], wall[q, tools[i]], rss[q, tools[i]],
             usr[q, tools[i]], sys[q, tools[i]]
         printf "%-8s ours/iproute2 text %.2fx wall %.2fx RSS; json %.2fx wall %.2fx RSS; ours/floor text %.2fx json %.2fx wall\n",
           q, wall[q, "ours-text"] / wall[q, "iproute2-text"], rss[q, "ours-text"] / rss[q, "iproute2-text"],
           wall[q, "ours-json"] / wall[q, "iproute2-json"], rss[q, "ours-json"] / rss[q, "iproute2-json"],
           wall[q, "ours-text"] / wall[q, "floor"], wall[q, "ours-json"] / wall[q, "floor"]
       }
     }' "$W/out.txt"
