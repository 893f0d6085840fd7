#!/bin/bash
# rdma fabric errors against ibqueryerrors, side by side on the same
# simulator: generated fat trees (bench/fattree.py) in ibsim with opensm
# (the PMAs are asked by LID), a few counters set with PerformanceSet.
# Live: `ibqueryerrors` vs `rdma fabric errors` (each discovers, then
# sweeps); cached: `ibqueryerrors --load-cache` (ibnetdiscover --cache) vs
# `rdma fabric errors from FILE` (rdma fabric save). Wall time and peak RSS,
# median of 3, ratios ours/theirs; both must list the same number of ports.
#
#   bench/errors_ibsim.sh [--rdma PATH] [--window N] [SIZES...]   # default: 100 1000
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
RDMA=$HERE/../build/rdma
WINDOW=32
while [ $# -gt 0 ]; do
  case $1 in
    --rdma) RDMA=$2; shift 2 ;;
    --window) WINDOW=$2; shift 2 ;;
    *) break ;;
  esac
done
RDMA=$(cd "$(dirname "$RDMA")" && pwd)/$(basename "$RDMA")
UMAD2SIM=${UMAD2SIM:-/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so}
for t in ibsim opensm sminfo ibqueryerrors ibnetdiscover python3 /usr/bin/time "$RDMA"; do
  command -v "$t" >/dev/null || { echo "missing: $t (tests/ibsim/setup.sh, build rdma)"; exit 1; }
done
WORK=$(mktemp -d /tmp/rdma-errors-bench.XXXXXX)
export IBSIM_SOCKNAME=rdma-errors-bench-$$
export OSM_TMP_DIR=$WORK OSM_CACHE_DIR=$WORK
IBSIM_PID=""
OSM_PID=""
stop() {
  [ -n "$OSM_PID" ] && kill "$OSM_PID" 2>/dev/null && wait "$OSM_PID" 2>/dev/null
  OSM_PID=""
  exec 3>&- 2>/dev/null
  [ -n "$IBSIM_PID" ] && kill "$IBSIM_PID" 2>/dev/null && wait "$IBSIM_PID" 2>/dev/null
  IBSIM_PID=""
}
trap 'stop; cd / && rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1

timed() {
  local out=$1
  shift
  for i in 1 2 3; do
    LD_PRELOAD=$UMAD2SIM /usr/bin/time -f "%e %M" -o "$out.t$i" "$@" >"$out.out" 2>"$out.err"
  done
  # Both tools exit 1 when they list a port: time then says so first.
  for i in 1 2 3; do tail -n 1 "$out.t$i"; done | sort -n | sed -n 2p >"$out"
}
ratio() { python3 -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); print(f'{a / b:.2f}' if b else '-')" "$1" "$2"; }
row() { printf '%-6s %-28s %8s %9s %6s %8s %8s\n' "$@"; }

row nodes tool wall_s rss_kib ports wall_x rss_x
for n in "${@:-100 1000}"; do
  python3 "$HERE/fattree.py" --nodes "$n" >"ft$n.net" 2>"gen$n.txt" || exit 1
  flags=$(python3 "$HERE/fattree.py" --nodes "$n" --ibsim-flags)
  rm -f ctl && mkfifo ctl
  # shellcheck disable=SC2086
  ibsim $flags -s "ft$n.net" <ctl >"ibsim$n.log" 2>&1 &
  IBSIM_PID=$!
  exec 3>ctl
  for _ in $(seq 300); do grep -q "simulator ready" "ibsim$n.log" && break; sleep 0.2; done
  LD_PRELOAD=$UMAD2SIM opensm -f "$WORK/osm$n.log" -s 0 >opensm.out 2>&1 </dev/null &
  OSM_PID=$!
  for _ in $(seq 600); do
    LD_PRELOAD=$UMAD2SIM sminfo 2>/dev/null | grep -q SMINFO_MASTER && break
    sleep 0.5
  done
  sleep 2  # the first sweep's LIDs and tables in place
  # Errors on a switch port and on two HCA ports (the fat tree's names).
  sw=$(sed -n 's/^Switch\s.*"\(.*\)".*/\1/p' "ft$n.net" | sed -n 2p)
  mapfile -t cas < <(sed -n 's/^Hca\s.*"\(.*\)".*/\1/p' "ft$n.net" | sed -n '3p;7p')
  echo "PerformanceSet \"$sw\"[1] PortCounters.SymbolErrorCounter=3" >&3
  for ca in "${cas[@]}"; do echo "PerformanceSet \"$ca\"[1] PortCounters.PortRcvErrors=2" >&3; done
  sleep 1

  timed "qe$n" ibqueryerrors
  ref_ports=$(grep -c '^ *GUID .* port [0-9]*:' "qe$n.out")
  read -r ref_wall ref_rss <"qe$n"
  row "$n" ibqueryerrors "$ref_wall" "$ref_rss" "$ref_ports" 1.00 1.00
  timed "rdma$n" "$RDMA" --window "$WINDOW" fabric errors
  ports=$(grep -c '^node_guid' "rdma$n.out")
  read -r wall rss <"rdma$n"
  row "$n" "rdma fabric errors w$WINDOW" "$wall" "$rss" "$ports" "$(ratio "$wall" "$ref_wall")" \
    "$(ratio "$rss" "$ref_rss")"

  LD_PRELOAD=$UMAD2SIM ibnetdiscover --cache "cache$n.ibnd" >/dev/null 2>&1
  LD_PRELOAD=$UMAD2SIM "$RDMA" fabric save "saved$n.json" 2>/dev/null
  timed "qec$n" ibqueryerrors --load-cache "cache$n.ibnd"
  ref_ports=$(grep -c '^ *GUID .* port [0-9]*:' "qec$n.out")
  read -r ref_wall ref_rss <"qec$n"
  row "$n" "ibqueryerrors --load-cache" "$ref_wall" "$ref_rss" "$ref_ports" 1.00 1.00
  timed "from$n" "$RDMA" --window "$WINDOW" fabric errors from "saved$n.json"
  ports=$(grep -c '^node_guid' "from$n.out")
  read -r wall rss <"from$n"
  row "$n" "rdma fabric errors from FILE" "$wall" "$rss" "$ports" "$(ratio "$wall" "$ref_wall")" \
    "$(ratio "$rss" "$ref_rss")"
  stop
done
