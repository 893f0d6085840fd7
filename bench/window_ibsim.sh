#!/bin/bash
# `rdma fabric errors window W` against `rdma fabric errors`, side by side
# on one simulated fat tree (issue 37's goal: a window costs at most 2x one
# sweep plus the wait). A window is discovery, two sweeps, the PortInfo
# re-read of every Active port (flaps by state) and the PortSamplesControl
# ticks; the rounds take turns. Prints each tool's wall time (median,
# min-max) and peak RSS, and the ratio (window - W) / errors. Both read the
# live fabric (discovery included) and `from FILE` (a saved fabric: the
# sweeps alone).
#
# With --before PATH, the windows of another build (the one before a
# change) take their turns too, against the same sweeps.
#
#   bench/window_ibsim.sh [--rdma PATH] [--before PATH] [--runs N] [--wait W] [SIZE]
#   # default 1000 nodes, 3 runs, W 2
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/ibsim_lib.sh
. "$HERE/ibsim_lib.sh"
RUNS=3
W=2
BEFORE=""
while [ $# -gt 0 ]; do
  case $1 in
    --rdma) RDMA=$2; shift 2 ;;
    --before) BEFORE=$(abs_path "$2"); shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --wait) W=$2; shift 2 ;;
    *) break ;;
  esac
done
RDMA=$(abs_path "$RDMA")
need ibsim opensm sminfo python3 /usr/bin/time "$RDMA"
bench_dir window 0
n=${1:-1000}
simulated_tree "$n"
sim "$RDMA" fabric save "saved$n.json" 2>/dev/null
echo "# $n nodes ($hcas HCAs, $switches switches): $settled; load before: $(load)"
timed() {  # NAME BINARY ARGS...: "wall rss" appended to NAME.times
  local out=$1 bin=$2
  shift 2
  sim /usr/bin/time -f "%e %M" -o "$out.t" "$bin" "$@" >"$out.out" 2>"$out.err"
  tail -n 1 "$out.t" >>"$out.times"
}
for _ in $(seq "$RUNS"); do
  timed errors "$RDMA" fabric errors
  timed window "$RDMA" fabric errors window "$W"
  [ -n "$BEFORE" ] && timed before_window "$BEFORE" fabric errors window "$W"
  timed errors_from "$RDMA" fabric errors from "saved$n.json"
  timed window_from "$RDMA" fabric errors window "$W" from "saved$n.json"
  [ -n "$BEFORE" ] && timed before_window_from "$BEFORE" fabric errors window "$W" from "saved$n.json"
done
printf '%-34s %8s %13s %9s %8s\n' tool wall_s min-max rss_kib ratio
pairs="errors:window errors_from:window_from"
[ -n "$BEFORE" ] && pairs="errors:before_window errors:window errors_from:before_window_from errors_from:window_from"
for pair in $pairs; do
  a=${pair%%:*} b=${pair#*:}
  read -r am amin amax <<<"$(stats "$a.times" 1)"
  read -r bm bmin bmax <<<"$(stats "$b.times" 1)"
  ar=$(stats "$a.times" 2 | cut -d' ' -f1) br=$(stats "$b.times" 2 | cut -d' ' -f1)
  printf '%-34s %8s %13s %9s %8s\n' "$a" "$am" "$amin-$amax" "$ar" ""
  printf '%-34s %8s %13s %9s %8s\n' "$b (window $W)" "$bm" "$bmin-$bmax" "$br" \
    "$(python3 -c "import sys; a, b, w = map(float, sys.argv[1:]); print(f'{(b - w) / a:.2f}x')" "$am" "$bm" "$W")"
done
echo "load after: $(load)"
