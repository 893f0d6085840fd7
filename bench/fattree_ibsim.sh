#!/bin/bash
# The reference for `rdma fabric` discovery: generated fat trees loaded into
# ibsim, discovered by ibnetdiscover (default options) under umad2sim, with
# its wall time, peak RSS and MADs sent (counted by bench/umad_count.c; its
# -m option is the maximum hop count, not a MAD count).
#
#   bench/fattree_ibsim.sh [SIZES...]      # default: 100 1000 5000
#
# Each size gets its own ibsim (-N/-S/-P from fattree.py --ibsim-flags) and
# IBSIM_SOCKNAME; ibnetdiscover exits normally, then ibsim is stopped.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
UMAD2SIM=${UMAD2SIM:-/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so}
for t in ibsim ibnetdiscover cc python3; do
  command -v $t >/dev/null || { echo "missing: $t (tests/ibsim/setup.sh)"; exit 1; }
done
WORK=$(mktemp -d /tmp/rdma-fattree.XXXXXX)
export IBSIM_SOCKNAME=rdma-fattree-$$
IBSIM_PID=""
cleanup() {
  [ -n "$IBSIM_PID" ] && kill "$IBSIM_PID" 2>/dev/null && wait "$IBSIM_PID" 2>/dev/null
  cd / && rm -rf "$WORK"
}
trap cleanup EXIT
cd "$WORK" || exit 1
cc -shared -fPIC -O2 -o umad_count.so "$HERE/umad_count.c" -ldl || exit 1

printf '%-6s %6s %6s %6s %9s %9s %8s\n' nodes hcas switch links wall_s rss_kib mads
for n in "${@:-100 1000 5000}"; do
  python3 "$HERE/fattree.py" --nodes "$n" >"ft$n.net" 2>"gen$n.txt" || exit 1
  flags=$(python3 "$HERE/fattree.py" --nodes "$n" --ibsim-flags)
  # shellcheck disable=SC2086
  ibsim -n $flags -s "ft$n.net" >"ibsim$n.log" 2>&1 &
  IBSIM_PID=$!
  for _ in $(seq 300); do grep -q "simulator ready" "ibsim$n.log" && break; sleep 0.2; done
  grep -q "simulator ready" "ibsim$n.log" || { tail "ibsim$n.log"; exit 1; }
  /usr/bin/time -f "%e %M" -o "time$n" env LD_PRELOAD="$WORK/umad_count.so $UMAD2SIM" \
    ibnetdiscover >"topo$n" 2>"err$n"
  kill "$IBSIM_PID"; wait "$IBSIM_PID" 2>/dev/null; IBSIM_PID=""
  read -r hcas switches links < <(sed -E 's/.* ([0-9]+) HCAs, ([0-9]+) switches, ([0-9]+) links/\1 \2 \3/' "gen$n.txt")
  found=$(grep -c '^Switch\|^Ca' "topo$n")
  if [ "$found" != $((hcas + switches)) ]; then
    echo "ibnetdiscover found $found nodes of $((hcas + switches)) at $n"; exit 1
  fi
  read -r wall rss <"time$n"
  mads=$(sed -n 's/^umad_count: \([0-9]*\) sent$/\1/p' "err$n")
  printf '%-6s %6s %6s %6s %9s %9s %8s\n' "$n" "$hcas" "$switches" "$links" "$wall" "$rss" "$mads"
done
