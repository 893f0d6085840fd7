#!/bin/bash
# rdma fabric against ibnetdiscover, side by side on the same simulator:
# generated fat trees (bench/fattree.py) loaded into ibsim, discovered by
# ibnetdiscover (default options) and by `rdma fabric show` (at each window
# given), each under umad2sim, with wall time, peak RSS and MADs sent, and
# the ratios ours/ibnetdiscover. Also `rdma fabric show from FILE`.
#
#   bench/fabric_ibsim.sh [--rdma PATH] [--windows "8 32 64"] [SIZES...]   # default: 100 1000 5000
#
# Each size gets its own ibsim (-N/-S/-P from fattree.py --ibsim-flags) and
# IBSIM_SOCKNAME; the tools take turns (3 runs each, the median is shown)
# and exit normally; then ibsim is stopped. ibnetdiscover's MADs are counted
# by bench/umad_count.c (its -m is the maximum hop count, not a MAD count);
# ours by its own count (-d), since rdma loads libibumad with dlopen.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
RDMA=$HERE/../build/rdma
WINDOWS="8 32 64"
while [ $# -gt 0 ]; do
  case $1 in
    --rdma) RDMA=$2; shift 2 ;;
    --windows) WINDOWS=$2; shift 2 ;;
    *) break ;;
  esac
done
RDMA=$(cd "$(dirname "$RDMA")" && pwd)/$(basename "$RDMA")
UMAD2SIM=${UMAD2SIM:-/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so}
for t in ibsim ibnetdiscover cc python3 /usr/bin/time "$RDMA"; do
  command -v "$t" >/dev/null || { echo "missing: $t (tests/ibsim/setup.sh, build rdma)"; exit 1; }
done
WORK=$(mktemp -d /tmp/rdma-fabric-bench.XXXXXX)
export IBSIM_SOCKNAME=rdma-fabric-bench-$$
IBSIM_PID=""
cleanup() {
  [ -n "$IBSIM_PID" ] && kill "$IBSIM_PID" 2>/dev/null && wait "$IBSIM_PID" 2>/dev/null
  cd / && rm -rf "$WORK"
}
trap cleanup EXIT
cd "$WORK" || exit 1
cc -shared -fPIC -O2 -o umad_count.so "$HERE/umad_count.c" -ldl || exit 1

# timed OUT CMD...: the median of 3 runs' "wall_s rss_kib" into OUT; the
# last run's stdout in OUT.out, stderr in OUT.err.
timed() {
  local out=$1
  shift
  for i in 1 2 3; do
    /usr/bin/time -f "%e %M" -o "$out.t$i" "$@" >"$out.out" 2>"$out.err"
  done
  sort -n "$out.t1" "$out.t2" "$out.t3" | sed -n 2p >"$out"
}
ratio() { python3 -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); print(f'{a / b:.2f}' if b else '-')" "$1" "$2"; }

printf '%-6s %-22s %8s %9s %8s %8s %8s\n' nodes tool wall_s rss_kib mads wall_x rss_x
for n in "${@:-100 1000 5000}"; do
  python3 "$HERE/fattree.py" --nodes "$n" >"ft$n.net" 2>"gen$n.txt" || exit 1
  flags=$(python3 "$HERE/fattree.py" --nodes "$n" --ibsim-flags)
  # shellcheck disable=SC2086
  ibsim -n $flags -s "ft$n.net" >"ibsim$n.log" 2>&1 &
  IBSIM_PID=$!
  for _ in $(seq 300); do grep -q "simulator ready" "ibsim$n.log" && break; sleep 0.2; done
  grep -q "simulator ready" "ibsim$n.log" || { tail "ibsim$n.log"; exit 1; }
  read -r hcas switches _ < <(sed -E 's/.* ([0-9]+) HCAs, ([0-9]+) switches, ([0-9]+) links/\1 \2 \3/' "gen$n.txt")
  nodes=$((hcas + switches))

  timed "ibnd$n" env LD_PRELOAD="$WORK/umad_count.so $UMAD2SIM" ibnetdiscover
  found=$(grep -c '^Switch\|^Ca' "ibnd$n.out")
  [ "$found" = "$nodes" ] || { echo "ibnetdiscover found $found nodes of $nodes"; exit 1; }
  read -r ref_wall ref_rss <"ibnd$n"
  ref_mads=$(sed -n 's/^umad_count: \([0-9]*\) sent$/\1/p' "ibnd$n.err")
  printf '%-6s %-22s %8s %9s %8s %8s %8s\n' "$n" ibnetdiscover "$ref_wall" "$ref_rss" "$ref_mads" 1.00 1.00

  for w in $WINDOWS; do
    timed "rdma$n-$w" env LD_PRELOAD="$UMAD2SIM" "$RDMA" -d --window "$w" fabric show
    found=$(grep -c '^type ' "rdma$n-$w.out")
    [ "$found" = "$nodes" ] || { echo "rdma found $found nodes of $nodes"; cat "rdma$n-$w.err"; exit 1; }
    read -r wall rss <"rdma$n-$w"
    mads=$(sed -n 's/.*MADs sent \([0-9]*\),.*/\1/p' "rdma$n-$w.err")
    printf '%-6s %-22s %8s %9s %8s %8s %8s\n' "$n" "rdma fabric show w$w" "$wall" "$rss" "$mads" \
      "$(ratio "$wall" "$ref_wall")" "$(ratio "$rss" "$ref_rss")"
  done
  env LD_PRELOAD="$UMAD2SIM" "$RDMA" fabric save "saved$n.json" 2>/dev/null
  timed "from$n" "$RDMA" fabric show from "saved$n.json"
  read -r wall rss <"from$n"
  printf '%-6s %-22s %8s %9s %8s %8s %8s\n' "$n" "rdma ... from FILE" "$wall" "$rss" 0 \
    "$(ratio "$wall" "$ref_wall")" "$(ratio "$rss" "$ref_rss")"
  kill "$IBSIM_PID"; wait "$IBSIM_PID" 2>/dev/null; IBSIM_PID=""
done
