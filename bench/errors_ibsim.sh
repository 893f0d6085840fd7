#!/bin/bash
# rdma fabric errors against ibqueryerrors, side by side on the same
# simulator: generated fat trees (bench/fattree.py) in ibsim with opensm
# (the PMAs are asked by LID), a few counters set with PerformanceSet.
# Live: `ibqueryerrors` vs `rdma fabric errors` (each discovers, then
# sweeps); cached: `ibqueryerrors --load-cache` (ibnetdiscover --cache) vs
# `rdma fabric errors from FILE` (rdma fabric save). The four take turns,
# RUNS rounds; wall time (median, min-max), CPU seconds of the tool and of
# ibsim during its run, peak RSS (medians); ratios ours/theirs (cpu_x: tool
# and ibsim together); MADs sent (ibqueryerrors counted by bench/umad_count.c, rdma
# by its own -d line). Every row must list the ports the counters were set
# on, no more and no fewer: the script fails when one does not.
#
# The fabric is made quiet first: opensm's first sweep done (it prints
# SUBNET UP, or at 5,000 nodes in ibsim it may stall for good after
# configuring the ports: then when it has been idle for 5 s), every counter
# cleared (ibsim raises PortXmitDiscards and PortRcvSwitchRelayErrors
# itself on MADs it drops while the SM sweeps), then the counters set.
#
# --details: `ibqueryerrors --details` against `rdma fabric errors details`
# (and their cached forms). Both ask the details only of ports over a
# threshold, so only of the three set here: ibqueryerrors PortRcvErrorDetails
# where PortRcvErrors is (the two HCA ports), rdma both details attributes of
# every port it lists (six MADs).
#
#   bench/errors_ibsim.sh [--rdma PATH] [--window N] [--runs N] [--details] [SIZES...]
#   (default sizes: 100 1000)
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/ibsim_lib.sh
. "$HERE/ibsim_lib.sh"
WINDOW=32
RUNS=3
QE_DETAILS=()
RDMA_DETAILS=()
while [ $# -gt 0 ]; do
  case $1 in
    --details) QE_DETAILS=(--details); RDMA_DETAILS=(details); shift ;;
    --rdma) RDMA=$2; shift 2 ;;
    --window) WINDOW=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    *) break ;;
  esac
done
RDMA=$(abs_path "$RDMA")
need ibsim opensm sminfo ibqueryerrors ibnetdiscover python3 cc /usr/bin/time "$RDMA"
bench_dir errors
build_umad_count

# One timed run of a tool: "wall rss ports warnings cpu sim_cpu" appended
# to $1.times: ports is how many lines of its output match $2, warnings
# how many PMAs it says failed, cpu the tool's user+system seconds and
# sim_cpu ibsim's over the run (the load-independent part of the cost: on
# a busy machine wall time is mostly waiting for a CPU).
timed() {
  local out=$1 pattern=$2
  shift 2
  local sim0 sim1 ports
  sim0=$(cpu_ticks "$IBSIM_PID")
  sim /usr/bin/time -f "%e %M %U %S" -o "$out.t" "$@" >"$out.out" 2>"$out.err"
  sim1=$(cpu_ticks "$IBSIM_PID")
  ports=$(grep -c "$pattern" "$out.out")
  # A run that lists another number of ports is kept for a look.
  [ "$ports" = "$expect" ] || { cp "$out.out" "$out.bad.out" && cp "$out.err" "$out.bad.err"; }
  # Both tools exit 1 when they list a port: time then says so first.
  tail -n 1 "$out.t" | awk -v p="$ports" -v s="$((sim1 - sim0))" -v w="$(
    grep -c '^warning: \|query failed\|^ibwarn: .*\(fail\|time\)' "$out.err")" \
    '{printf "%s %s %s %s %.2f %.2f\n", $1, $2, p, w, $3 + $4, s / 100}' >>"$out.times"
}
QE='^ *GUID .* port [0-9]*:'
OURS='^node_guid'

row() { printf '%-6s %-30s %7s %11s %5s %5s %9s %6s %5s %8s %7s %6s %6s\n' "$@"; }
FAILED=0

for n in "${@:-100 1000}"; do
  fattree "$n"
  start_ibsim "$n" console
  start_opensm "$n" 600
  # The first sweep done (see above).
  first_sweep "$n" "$SECONDS" 900
  # Every counter to zero (ibsim raised some while opensm swept), then the
  # errors: on a switch port and on two HCA ports (the fat tree's names).
  # (ibqueryerrors -k -K: infiniband-diags 44 has no ibclearcounters.)
  sim ibqueryerrors -k -K >"clear$n.out" 2>&1
  grep -q "^## Summary" "clear$n.out" || { echo "clearing the counters failed:"; cat "clear$n.out"; exit 1; }
  mark=$(wc -l <"ibsim$n.log")
  sw=$(sed -n 's/^Switch\s.*"\(.*\)".*/\1/p' "ft$n.net" | sed -n 2p)
  mapfile -t cas < <(sed -n 's/^Hca\s.*"\(.*\)".*/\1/p' "ft$n.net" | sed -n '3p;7p')
  echo "PerformanceSet \"$sw\"[1] PortCounters.SymbolErrorCounter=3" >&3
  for ca in "${cas[@]}"; do echo "PerformanceSet \"$ca\"[1] PortCounters.PortRcvErrors=2" >&3; done
  expect=$((1 + ${#cas[@]}))
  sleep 1
  if tail -n "+$((mark + 1))" "ibsim$n.log" | grep '^#'; then
    echo "ibsim refused a PerformanceSet line"
    exit 1
  fi

  LD_PRELOAD="$WORK/umad_count.so $UMAD2SIM" ibnetdiscover --cache "cache$n.ibnd" >/dev/null \
    2>"ibnd$n.err"
  sim "$RDMA" fabric save "saved$n.json" 2>/dev/null
  echo "# $n nodes ($(cat "gen$n.txt")); $settled; load before: $(load)"
  row nodes tool wall_s min-max cpu sim rss_kib ports warn mads wall_x cpu_x rss_x
  for _ in $(seq "$RUNS"); do
    timed "qe$n" "$QE" ibqueryerrors "${QE_DETAILS[@]}"
    timed "rdma$n" "$OURS" "$RDMA" -d --window "$WINDOW" fabric errors "${RDMA_DETAILS[@]}"
    timed "qec$n" "$QE" ibqueryerrors "${QE_DETAILS[@]}" --load-cache "cache$n.ibnd"
    timed "from$n" "$OURS" "$RDMA" -d --window "$WINDOW" fabric errors "${RDMA_DETAILS[@]}" \
      from "saved$n.json"
  done
  # MADs: ibqueryerrors once more under umad_count; rdma's -d lines (the
  # discovery's, then the sweep's).
  LD_PRELOAD="$WORK/umad_count.so $UMAD2SIM" ibqueryerrors "${QE_DETAILS[@]}" >/dev/null \
    2>"qe$n.count"
  LD_PRELOAD="$WORK/umad_count.so $UMAD2SIM" ibqueryerrors "${QE_DETAILS[@]}" \
    --load-cache "cache$n.ibnd" >/dev/null 2>"qec$n.count"
  umad() { sed -n 's/^umad_count: \([0-9]*\) sent$/\1/p' "$1"; }
  mads() { sed -n 's/^errors: .*MADs sent \([0-9]*\).*/\1/p' "$1"; }
  for pair in "qe:rdma:ibqueryerrors ${QE_DETAILS[*]}:rdma fabric errors ${RDMA_DETAILS[*]} w$WINDOW" \
    "qec:from:ibqueryerrors ${QE_DETAILS[*]} --load-cache:rdma fabric errors ${RDMA_DETAILS[*]} from FILE"; do
    IFS=: read -r ref ours ref_name ours_name <<<"$pair"
    read -r ref_wall ref_min ref_max < <(stats "$ref$n.times" 1)
    read -r ref_rss _ < <(stats "$ref$n.times" 2)
    read -r ref_cpu _ < <(stats "$ref$n.times" 5)
    read -r ref_sim _ < <(stats "$ref$n.times" 6)
    ref_ports=$(awk '{print $3}' "$ref$n.times" | sort -u | paste -sd/)
    ref_warn=$(awk '{print $4}' "$ref$n.times" | sort -u | paste -sd/)
    read -r wall min max < <(stats "$ours$n.times" 1)
    read -r rss _ < <(stats "$ours$n.times" 2)
    read -r cpu _ < <(stats "$ours$n.times" 5)
    read -r simc _ < <(stats "$ours$n.times" 6)
    ports=$(awk '{print $3}' "$ours$n.times" | sort -u | paste -sd/)
    warn=$(awk '{print $4}' "$ours$n.times" | sort -u | paste -sd/)
    row "$n" "$ref_name" "$ref_wall" "$ref_min-$ref_max" "$ref_cpu" "$ref_sim" "$ref_rss" \
      "$ref_ports" "$ref_warn" "$(umad "$ref$n.count")" 1.00 1.00 1.00
    row "$n" "$ours_name" "$wall" "$min-$max" "$cpu" "$simc" "$rss" "$ports" "$warn" \
      "$(mads "$ours$n.err")" "$(ratio "$wall" "$ref_wall")" \
      "$(ratio "$(echo "$cpu + $simc" | bc)" "$(echo "$ref_cpu + $ref_sim" | bc)")" \
      "$(ratio "$rss" "$ref_rss")"
    for p in "$ref_ports:$ref" "$ports:$ours"; do
      [ "${p%%:*}" = "$expect" ] && continue
      echo "!! ${p%%:*} ports listed, expected $expect; a bad run's stderr:"
      tail -n 5 "${p#*:}$n.bad.err"
      FAILED=1
    done
  done
  echo "# discovery MADs: ibnetdiscover $(umad "ibnd$n.err"); load after: $(load)"
  stop
done
exit $FAILED
