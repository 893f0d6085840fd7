#!/bin/bash
# A watch on a fabric whose PMAs are all silent (lib/ib/errors.h,
# SweepOptions::silent_pmas): a generated fat tree in ibsim with opensm,
# every PerfMgt reply dropped on its way in by tests/ibsim/madfault.c
# (MADFAULT_CLASS=4; the SMPs pass, so discovery is whole). Runs
# `rdma -j -w 1 -c COUNT fabric errors` with the build before (--before
# PATH) and this one, one after the other on the same simulator, and
# prints each one's time between sweeps (the documents' arrival), the
# warnings of its last sweep, and the ratio before/after. With more PMAs
# than the window (256), the build before waited the full timeout for a
# window's worth of silent PMAs at a time, sweep after sweep; this one
# waits that once, then asks each silent PMA once with 50 ms.
# ibqueryerrors has no watch: its one sweep of a silent fabric waits 4 s
# a PMA, one at a time (hours at this size), and is not run.
#
#   bench/silent_ibsim.sh --before PATH [--rdma PATH] [--count N] [SIZE]
#   (default 1000 nodes, 5 sweeps)
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/ibsim_lib.sh
. "$HERE/ibsim_lib.sh"
COUNT=5 BEFORE=""
while [ $# -gt 0 ]; do
  case $1 in
    --rdma) RDMA=$2; shift 2 ;;
    --before) BEFORE=$2; shift 2 ;;
    --count) COUNT=$2; shift 2 ;;
    *) break ;;
  esac
done
[ -n "$BEFORE" ] || { echo "usage: $0 --before PATH [--rdma PATH] [--count N] [SIZE]"; exit 2; }
RDMA=$(abs_path "$RDMA")
BEFORE=$(abs_path "$BEFORE")
need ibsim opensm sminfo python3 gcc "$RDMA" "$BEFORE"
bench_dir silent 0
gcc -shared -fPIC -O2 -o madfault.so "$HERE/../tests/ibsim/madfault.c" -ldl || exit 1
n=${1:-1000}
simulated_tree "$n"
echo "$n nodes ($hcas HCAs, $switches switches): $settled; load before: $(load)"

# watch NAME BINARY: COUNT sweeps of every PMA silent; its gaps in NAME.gaps.
watch() {
  MADFAULT_CLASS=4 MADFAULT_RATES=drop=100 LD_PRELOAD="$WORK/madfault.so $UMAD2SIM" \
    "$2" -j -w 1 -c "$COUNT" fabric errors 2>"$1.err" |
    python3 -c '
import sys, time
for line in sys.stdin.buffer:
    print(f"{time.time():.6f}", flush=True)
' >"$1.arrivals"
  python3 - "$1" <<'PY'
import sys
name = sys.argv[1]
t = [float(l) for l in open(name + ".arrivals")]
gaps = [b - a for a, b in zip(t, t[1:])]
open(name + ".gaps", "w").write(" ".join(f"{g:.2f}" for g in gaps))
warn = [l for l in open(name + ".err") if l.startswith("warning: no reply")]
tries = {}
for l in warn:
    k = l[l.rfind("("):].strip()
    tries[k] = tries.get(k, 0) + 1
print(f"  {name}: {len(t)} sweeps, between them (s): {' '.join(f'{g:.2f}' for g in gaps)}; "
      f"warnings by wait: {tries}")
PY
}
watch before "$BEFORE"
watch after "$RDMA"
python3 - <<'PY'
b = [float(x) for x in open("before.gaps").read().split()]
a = [float(x) for x in open("after.gaps").read().split()]
if b and a:
    # The first document comes after the first sweep (the one that finds
    # the PMAs silent, alike in both): each gap is a later sweep, or the
    # interval when it took less.
    mb, ma = sum(b) / len(b), sum(a) / len(a)
    print(f"  sweeps after the first: before {mb:.2f} s, after {ma:.2f} s apart (-w 1): "
          f"ratio {mb / ma:.2f}")
PY
echo "load after: $(load)"
