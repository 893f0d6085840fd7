#!/bin/bash
# Discovery time under the latency model (each node serves one MAD at a
# time: switch 100 us, CA 20 us, 1 us a link; lib/testing/fabric/latency.h)
# on generated fat trees (bench/fattree.py), against the floor (the busiest
# node's total service time) and against a model of ibnetdiscover's scan
# (its query order, 2 SMPs on the wire). Virtual time: the figures do not
# depend on the machine's load; "sim ... s real" is what the model cost.
#
#   bench/latency_model.sh [--build DIR] [SIZES...]   # default: 1000 5000 20000
#
# Rows: rdma as shipped (window 256, kPerNode in flight per node and per
# port group), at window 32 (the default before) and 1024, with 1 ms
# switches (some switch firmware's pace, issue 40) at 256 and 1024, and the
# ibnetdiscover model (-o 2 and -o 16, and -o 2 with 1 ms switches), and
# 1 ms switches with the tool's own work per MAD on the clock (HOST_NS,
# default 12400: the CPU per MAD bench/fabric_ibsim.sh measured at 1,000
# nodes), for issue 40's floor: the larger of the fabric's and the tool's.
# Results: bench/latency_results.md.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
BUILD=$HERE/../build
HOST_NS=${HOST_NS:-12400}
if [ "${1:-}" = --build ]; then
  BUILD=$2
  shift 2
fi
ninja -C "$BUILD" latency_model >/dev/null || exit 1
WORK=$(mktemp -d /tmp/rdma-latency-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
echo "load: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cpus"
for n in "${@:-1000 5000 20000}"; do
  python3 "$HERE/fattree.py" --nodes "$n" >"$WORK/ft$n.net" 2>"$WORK/gen$n.txt" || exit 1
  echo "== fat tree --nodes $n: $(tr '\n' ' ' <"$WORK/gen$n.txt")"
  m="$BUILD/latency_model $WORK/ft$n.net"
  $m
  $m --window 32
  $m --window 1024
  $m --switch-us 1000
  $m --switch-us 1000 --window 1024
  $m --switch-us 1000 --host-ns "$HOST_NS"
  $m --tool ibnetdiscover
  $m --tool ibnetdiscover --window 16
  $m --tool ibnetdiscover --switch-us 1000
done
