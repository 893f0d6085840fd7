#!/bin/bash
# What each part of `rdma fabric check` costs, against one discovery (the
# unit issue 40 measures the check in), and `fabric report` against `fabric
# check` plus one `fabric errors` sweep (issue 38's unit): a generated fat
# tree (bench/fattree.py, links at what both ends support) in ibsim,
# opensm programming the tables once (-s 0). Each program runs RUNS times,
# in turn; per program the median wall time, its peak RSS and the MADs it
# sent (tests/ibsim/madfault.c preloaded in front of umad2sim, damaging
# nothing, counts the requests written), and its last line of output.
# With --before PATH, the same programs of another build side by side
# (each program's name then ends in "-before"; --before-only LIST: only
# those programs).
#
#   bench/check_each_ibsim.sh [--runs N] [--before PATH] [--before-only LIST] [--rdma PATH]
#     [--only LIST] [SIZE]
#
# LIST: a comma-separated subset of the programs (default all): discovery,
# ids, links, sm, routes, credit, balance, errors-check, check, errors,
# report. Default SIZE 4768.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/ibsim_lib.sh
. "$HERE/ibsim_lib.sh"
RUNS=3
BEFORE=""
ONLY=""
BEFORE_ONLY=""
while [ $# -gt 0 ]; do
  case $1 in
    --rdma) RDMA=$2; shift 2 ;;
    --before) BEFORE=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --only) ONLY=$2; shift 2 ;;
    --before-only) BEFORE_ONLY=$2; shift 2 ;;
    *) break ;;
  esac
done
SIZE=${1:-4768}
RDMA=$(abs_path "$RDMA")
[ -n "$BEFORE" ] && BEFORE=$(abs_path "$BEFORE")
need ibsim opensm sminfo python3 /usr/bin/time "$RDMA"
bench_dir check-each 0
cc -shared -fPIC -O2 -o madfault.so "$HERE/../tests/ibsim/madfault.c" -ldl || exit 1
export FATTREE_LINK=${FATTREE_LINK:-w=8 s=7}
fattree "$SIZE"
start_ibsim "$SIZE"
t0=$SECONDS
start_opensm "$SIZE" 1200
first_sweep "$SIZE" "$t0" 1800
echo "fat tree: $(cat "gen$SIZE.txt"); $settled; host load $(load)"
# one NAME PATH ARGS...: a run; appends "wall rss sent" to NAME.runs and
# keeps the last stdout.
one() {
  local name=$1 path=$2
  shift 2
  rm -f sent.txt
  rm -rf rep
  MADFAULT_RATES='' MADFAULT_SENT=$WORK/sent.txt LD_PRELOAD="$WORK/madfault.so $UMAD2SIM" \
    /usr/bin/time -f "%e %M" -o t.txt "$path" -q "$@" >"$name.out" 2>"$name.err"
  echo "$(tail -1 t.txt) $(tail -1 sent.txt 2>/dev/null)" >>"$name.runs"
  # A report without its picture (dot failed or ran out of time) would be
  # fast for the wrong reason: counted, and said below.
  if [ -f rep/report.html ]; then
    grep -q '<svg' rep/report.html && echo yes >>"$name.picture" || echo no >>"$name.picture"
  fi
}
all=("discovery fabric show" "ids fabric check ids" "links fabric check links"
  "sm fabric check sm" "routes fabric check routes" "credit fabric check credit"
  "balance fabric check balance" "errors-check fabric check errors" "check fabric check"
  "errors fabric errors" "report fabric report rep")
progs=()
for p in "${all[@]}"; do
  name=${p%% *}
  [ -z "$ONLY" ] || [[ ",$ONLY," == *",$name,"* ]] || continue
  progs+=("$name $RDMA ${p#* }")
  [ -n "$BEFORE" ] && [ "$name" != discovery ] &&
    { [ -z "$BEFORE_ONLY" ] || [[ ",$BEFORE_ONLY," == *",$name,"* ]]; } &&
    progs+=("$name-before $BEFORE ${p#* }")
done
for ((r = 0; r < RUNS; r++)); do
  for p in "${progs[@]}"; do
    # shellcheck disable=SC2086
    one $p
  done
done
printf "%-20s %9s %9s %9s %8s %8s\n" program "wall s" "RSS KiB" MADs "wall x" "RSS x"
dw=1 drss=1
if [ -f discovery.runs ]; then
  read -r dw _ _ < <(stats discovery.runs 1)
  drss=$(stats discovery.runs 2 | cut -d' ' -f3)
fi
for p in "${progs[@]}"; do
  # shellcheck disable=SC2086 # a program line is its words
  set -- $p
  read -r w _ _ < <(stats "$1.runs" 1)
  rss=$(stats "$1.runs" 2 | cut -d' ' -f3)
  mads=$(stats "$1.runs" 3 | cut -d' ' -f1)
  printf "%-20s %9s %9s %9s %7sx %7sx\n" "$1" "$w" "$rss" "$mads" "$(ratio "$w" "$dw")" "$(ratio "$rss" "$drss")"
done
# check + errors against report (issue 38), when both ran.
if [ -f check.runs ] && [ -f errors.runs ] && [ -f report.runs ]; then
  read -r cw _ _ < <(stats check.runs 1)
  read -r ew _ _ < <(stats errors.runs 1)
  read -r rw _ _ < <(stats report.runs 1)
  crss=$(cat check.runs errors.runs | sort -n -k2 | tail -1 | cut -d' ' -f2)
  rrss=$(stats report.runs 2 | cut -d' ' -f3)
  both=$(awk -v a="$cw" -v b="$ew" 'BEGIN {printf "%.2f", a + b}')
  echo "report / (check + errors): wall $rw / $both = $(ratio "$rw" "$both"); peak RSS $rrss / $crss = $(ratio "$rrss" "$crss")"
fi
for p in "${progs[@]}"; do
  # shellcheck disable=SC2086
  set -- $p
  echo "$1: $(tail -1 "$1.out")"
  [ -f "$1.picture" ] &&
    echo "$1: the picture in $(grep -c yes "$1.picture") of $(wc -l <"$1.picture") runs"
done
echo "host load after: $(load)"
