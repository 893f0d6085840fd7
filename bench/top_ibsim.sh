#!/bin/bash
# rdma fabric top on a generated fat tree in ibsim (issue 37's goal: a
# 1,000-node fabric refreshed within its interval at -w 1, memory flat over
# many refreshes). Runs `rdma -j -w 1 -c COUNT fabric top` (JSON lines, one
# document an interval) and, every 5 s, samples its resident memory
# (VmRSS). Prints the wall time against COUNT+1 intervals (the first
# reading gives no rates), each sweep's share of the interval from the
# documents' arrival times, and the RSS after the first 10 s and at the end.
#
#   bench/top_ibsim.sh [--rdma PATH] [--count N] [SIZE]   # default 1000 nodes, 120 refreshes
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/ibsim_lib.sh
. "$HERE/ibsim_lib.sh"
COUNT=120
while [ $# -gt 0 ]; do
  case $1 in
    --rdma) RDMA=$2; shift 2 ;;
    --count) COUNT=$2; shift 2 ;;
    *) break ;;
  esac
done
RDMA=$(abs_path "$RDMA")
need ibsim opensm sminfo python3 "$RDMA"
bench_dir top 0
n=${1:-1000}
simulated_tree "$n"
echo "$n nodes ($hcas HCAs, $switches switches): $settled; load before: $(load)"
start=$(date +%s.%N)
# Stamped by a reader that keeps up: bash's `read` takes a pipe a byte at
# a time, about 1 s for a 1,000-node snapshot (1 MB), and rdma waited on
# the full pipe, so the stamps measured the reader (bench/top_results.md).
LD_PRELOAD=$UMAD2SIM "$RDMA" -j -w 1 -c "$COUNT" fabric top 2>top.err |
  python3 -c '
import sys, time
for line in sys.stdin.buffer:
    print(f"{time.time():.6f} {len(line) - 1}", flush=True)
' >arrivals.txt &
pipe=$!
sleep 1
pid=$(pgrep -n -f "$RDMA -j -w 1 -c $COUNT fabric top")
: >rss.txt
while kill -0 "$pid" 2>/dev/null; do
  grep VmRSS "/proc/$pid/status" 2>/dev/null | awk -v t="$(date +%s)" '{print t, $2}' >>rss.txt
  sleep 5
done
# The pipeline only: a bare wait would also wait for ibsim and opensm.
wait "$pipe"
end=$(date +%s.%N)
python3 - "$start" "$end" "$COUNT" arrivals.txt rss.txt <<'PY'
import sys
start, end, count = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
arr = [float(l.split()[0]) for l in open(sys.argv[4])]
rss = [int(l.split()[1]) for l in open(sys.argv[5]) if l.strip()]
print(f"  {len(arr)} snapshots of {count}; wall {end - start:.1f} s for {count + 1} intervals of 1 s")
gaps = [b - a for a, b in zip(arr, arr[1:])]
if gaps:
    gaps.sort()
    late = sum(g > 1.1 for g in gaps)
    print(f"  between snapshots: median {gaps[len(gaps) // 2]:.3f} s, "
          f"95th percentile {gaps[int(len(gaps) * 0.95)]:.3f} s, max {gaps[-1]:.3f} s; "
          f"{late} of {len(gaps)} over 1.1 s")
if rss:
    print(f"  RSS: {rss[1] if len(rss) > 1 else rss[0]} KB after ~10 s, {rss[-1]} KB at the end "
          f"({len(rss)} samples, max {max(rss)} KB)")
PY
echo "load after: $(load)"
