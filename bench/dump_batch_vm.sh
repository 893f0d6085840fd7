#!/bin/bash
# Issue 40's two netlink goals in one boot, side by side: a large dump
# (`res show qp`, text and -j, with QPS QPs on rxe0) at most 0.15x
# iproute2's time, and a batch line (`rdma -b`, the 10-command mix of
# bench/batch_vm.sh) at most 0.5x iproute2's, net of the start. The same
# receive buffer serves both, so both are measured on the same build in the
# same boot; --also NAME=PATH adds another build of ours (before/after).
#
# The batch: in each of R rounds every program runs the empty batch and the
# LINES-line batch once, the order rotated; medians. The dump: every program
# runs `res show qp` and `-j res show qp` DUMPS times, rotated; the fastest
# run counts (the host's load only ever adds time). Times by
# bench/res_measure.c. Text and JSON outputs of every program are compared
# with iproute2's (same/DIFFERENT).
#
# usage: bench/dump_batch_vm.sh [--kernel 6.1|6.12] [--rdma PATH] [--rounds R]
#                               [--lines N] [--qps N] [--dumps N] [--also NAME=PATH]...
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
KERNEL=6.12
RDMA=$HERE/../build/rdma
ROUNDS=11
LINES=500
QPS=10000
DUMPS=5
ALSO=()
while [ $# -gt 0 ]; do
    case "$1" in
        --kernel) KERNEL=$2; shift 2 ;;
        --rdma) RDMA=$2; shift 2 ;;
        --rounds) ROUNDS=$2; shift 2 ;;
        --lines) LINES=$2; shift 2 ;;
        --qps) QPS=$2; shift 2 ;;
        --dumps) DUMPS=$2; shift 2 ;;
        --also) ALSO+=("$2"); shift 2 ;;
        *) sed -n '16,17p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
    esac
done
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
gcc -O2 -o "$W/measure" "$HERE/res_measure.c"
gcc -O2 -o "$W/mkqps" "$HERE/res_mkqps.c" -libverbs

PROGS=("iproute2 /usr/bin/rdma" "ours /opt/rdma-new/rdma")
ADD=()
for a in "${ALSO[@]}"; do
    name=${a%%=*} path=${a#*=}
    [ -x "$path" ] || { echo "dump_batch_vm: $path is not executable" >&2; exit 2; }
    mkdir -p "$W/also"
    cp -L "$path" "$W/also/$name"
    ADD+=(--add "$W/also/$name")
    PROGS+=("$name /opt/add/$name")
done

{
echo '#!/bin/bash'
for b in measure mkqps; do
    echo "base64 -d > /tmp/$b <<'B64'"
    base64 "$W/$b"
    echo 'B64'
    echo "chmod +x /tmp/$b"
done
echo "PROGS=("
for p in "${PROGS[@]}"; do echo "  '$p'"; done
echo ")"
cat <<EOS
CMDS=('dev' 'dev show rxe0' 'link' 'link show rxe1/1' 'res' 'res show pd' 'stat show'
      'stat show link rxe0/1' 'sys' 'res show qp')
echo '# the start alone' > /tmp/b0
for ((i = 0; i < $LINES; i++)); do echo "\${CMDS[i % \${#CMDS[@]}]}"; done > /tmp/b$LINES
np=\${#PROGS[@]}
echo "loadavg-guest \$(cat /proc/loadavg)"
for ((i = 0; i < $ROUNDS; i++)); do
    for ((j = 0; j < np; j++)); do
        set -- \${PROGS[(i + j) % np]}
        for n in 0 $LINES; do echo "batch \$n \$1 \$(/tmp/measure "\$2" -b /tmp/b\$n 2>/dev/null)"; done
    done
done
echo 1048576 > /proc/sys/vm/max_map_count
/tmp/mkqps rxe0 $QPS > /tmp/mk.log 2>&1 &
pid=\$!
for i in \$(seq 3000); do grep -q ready /tmp/mk.log && break; sleep 0.2; done
echo "qps \$(sed -n 's/ready //p' /tmp/mk.log)"
rdma res show qp > /tmp/ref.txt; rdma -j res show qp > /tmp/ref.json
for p in "\${PROGS[@]}"; do
    set -- \$p
    "\$2" res show qp > /tmp/o.txt; "\$2" -j res show qp > /tmp/o.json
    cmp -s /tmp/ref.txt /tmp/o.txt && t=same || t=DIFFERENT
    cmp -s /tmp/ref.json /tmp/o.json && j=same || j=DIFFERENT
    echo "output \$1 text \$t json \$j lines \$(wc -l < /tmp/o.txt)"
done
for ((i = 0; i < $DUMPS; i++)); do
    for ((j = 0; j < np; j++)); do
        set -- \${PROGS[(i + j) % np]}
        echo "dump text \$1 \$(/tmp/measure "\$2" res show qp)"
        echo "dump json \$1 \$(/tmp/measure "\$2" -j res show qp)"
    done
done
kill \$pid; wait \$pid 2>/dev/null || true
echo "loadavg-guest \$(cat /proc/loadavg)"
exit 0
EOS
} > "$W/guest.sh"
chmod +x "$W/guest.sh"
echo "host load before: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"
RDMA_VM_TIMEOUT=${RDMA_VM_TIMEOUT:-3600} "$HERE/../tests/vm/run" --kernel "$KERNEL" --rdma "$RDMA" \
    --fixture basic "${ADD[@]}" --script "$W/guest.sh" > "$W/out.txt" ||
    echo "dump_batch_vm: VM run failed ($?)" >&2
echo "host load after: $(cut -d' ' -f1-3 /proc/loadavg)"
[ -n "${BENCH_OUT:-}" ] && cp "$W/out.txt" "$BENCH_OUT"
grep -E '^(loadavg-guest|qps|output) ' "$W/out.txt" || true
echo "kernel $KERNEL; batch: $ROUNDS rounds of $LINES lines, medians, net = (median - median of"
echo "the empty batch) / lines; dump: $QPS QPs, the fastest of $DUMPS runs; ratio: /iproute2"
awk -v lines="$LINES" '
  function med(key,   i, j, k, v, a) {
    k = n[key]
    for (i = 1; i <= k; i++) {
      v = t[key, i]
      for (j = i - 1; j >= 1 && a[j] > v; j--) a[j + 1] = a[j]
      a[j + 1] = v
    }
    return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
  }
  $1 == "batch" && NF >= 5 {
    key = $2 SUBSEP $3; t[key, ++n[key]] = $4 * 1000
    if (!($3 in seen)) { seen[$3] = 1; order[++np] = $3 }
  }
  $1 == "dump" && NF >= 5 {
    key = $2 SUBSEP $3
    if (!(key in best) || $4 < best[key]) { best[key] = $4; rss[key] = $5; usr[key] = $6; sys[key] = $7 }
  }
  END {
    printf "%-10s %11s %9s %7s | %9s %7s %9s %7s %8s %8s %8s\n", "program", "batch ms", "net/line",
           "ratio", "text s", "ratio", "json s", "ratio", "RSS KiB", "user s", "sys s"
    for (i = 1; i <= np; i++) {
      p = order[i]
      net = (med(lines SUBSEP p) - med(0 SUBSEP p)) / lines
      ref = (med(lines SUBSEP "iproute2") - med(0 SUBSEP "iproute2")) / lines
      tx = best["text" SUBSEP p]; js = best["json" SUBSEP p]
      printf "%-10s %11.2f %9.4f %6.2fx | %9.3f %6.2fx %9.3f %6.2fx %8d %8.3f %8.3f\n", p,
             med(lines SUBSEP p), net, net / ref, tx, tx / best["text" SUBSEP "iproute2"], js,
             js / best["json" SUBSEP "iproute2"], rss["text" SUBSEP p], usr["text" SUBSEP p],
             sys["text" SUBSEP p]
    }
  }' "$W/out.txt"
