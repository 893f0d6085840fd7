#!/bin/bash
# `rdma fabric check credit` (discovery, every LFT, the SL2VL tables, the
# walk) of two builds side by side on one simulator, against one discovery
# (`rdma fabric show`, the unit issue 40 measures the check in): a
# generated fat tree (bench/fattree.py) in ibsim, opensm programming the
# tables once (-s 0). Each program runs RUNS times, in turn; per program
# the median wall time, its peak RSS and the MADs it sent (tests/ibsim/
# madfault.c preloaded in front of umad2sim, damaging nothing, counts the
# requests written to the umad device: rdma looks libibumad's functions up
# in its own dlopen handle, past bench/umad_count.c's), and the findings line (the same for
# both builds, or the script says so).
#
#   bench/credit_ibsim.sh [--runs N] [--before PATH] [--rdma PATH] [SIZE]   # default 1000 nodes
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/ibsim_lib.sh
. "$HERE/ibsim_lib.sh"
RUNS=3
BEFORE=""
while [ $# -gt 0 ]; do
  case $1 in
    --rdma) RDMA=$2; shift 2 ;;
    --before) BEFORE=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    *) break ;;
  esac
done
SIZE=${1:-1000}
RDMA=$(abs_path "$RDMA")
[ -n "$BEFORE" ] && BEFORE=$(abs_path "$BEFORE")
need ibsim opensm sminfo python3 /usr/bin/time "$RDMA"
bench_dir credit 0
cc -shared -fPIC -O2 -o madfault.so "$HERE/../tests/ibsim/madfault.c" -ldl || exit 1
fattree "$SIZE"
start_ibsim "$SIZE"
t0=$SECONDS
start_opensm "$SIZE" 120
first_sweep "$SIZE" "$t0" 600
echo "fat tree: $(cat "gen$SIZE.txt"); $settled; host load $(load)"
# one NAME PATH ARGS...: a run; appends "wall rss sent" to NAME.runs and
# keeps the last stdout.
one() {
  local name=$1 path=$2
  shift 2
  rm -f sent.txt
  MADFAULT_RATES= MADFAULT_SENT=$WORK/sent.txt LD_PRELOAD="$WORK/madfault.so $UMAD2SIM" \
    /usr/bin/time -f "%e %M" -o t.txt "$path" -q "$@" >"$name.out" 2>"$name.err"
  echo "$(cat t.txt) $(tail -1 sent.txt 2>/dev/null)" >>"$name.runs"
}
progs=("discovery $RDMA fabric show" "check $RDMA fabric check credit")
[ -n "$BEFORE" ] && progs+=("check-before $BEFORE fabric check credit")
for ((r = 0; r < RUNS; r++)); do
  for p in "${progs[@]}"; do
    # shellcheck disable=SC2086
    one $p
  done
done
printf "%-14s %9s %9s %9s %10s %10s\n" program "wall s" "RSS KiB" MADs "wall x" "RSS x"
read -r dw _ _ < <(stats discovery.runs 1)
drss=$(stats discovery.runs 2 | cut -d' ' -f3)
for p in "${progs[@]}"; do
  set -- $p
  read -r w _ _ < <(stats "$1.runs" 1)
  rss=$(stats "$1.runs" 2 | cut -d' ' -f3)
  mads=$(stats "$1.runs" 3 | cut -d' ' -f1)
  printf "%-14s %9s %9s %9s %9sx %9sx\n" "$1" "$w" "$rss" "$mads" "$(ratio "$w" "$dw")" "$(ratio "$rss" "$drss")"
done
for p in check check-before; do
  [ -f "$p.out" ] && echo "$p: $(tail -1 "$p.out")"
done
