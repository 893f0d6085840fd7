#!/bin/bash
# Discovery's peak memory against ibnetdiscover's, side by side on one
# simulator: generated fat trees (bench/fattree.py) in ibsim, discovered in
# turns by ibnetdiscover and `rdma fabric show` (and --base's build), each
# under umad2sim. Per tool, the median over --runs runs of:
#   rss_kib   peak resident set (VmHWM, /usr/bin/time's %M): code and
#             libraries' file pages too, as many as the kernel mapped
#   anon_kib  peak anonymous memory (Anonymous of /proc/PID/smaps_rollup,
#             sampled every 5 ms): the heap, stacks, large allocations;
#             what the tool itself costs the machine
#   heap_mb   with --heaptrack, heaptrack's peak of live heap (one run)
# and the ratios to ibnetdiscover's.
#
#   bench/fabric_memory_ibsim.sh [--rdma PATH] [--base PATH] [--runs N] [--heaptrack]
#                                [SIZES...]         # sizes default: 1000 5000
#
# Results: bench/fabric_results.md (discovery's memory).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/ibsim_lib.sh
. "$HERE/ibsim_lib.sh"
BASE=""
RUNS=3
HEAPTRACK=0
while [ $# -gt 0 ]; do
  case $1 in
    --rdma) RDMA=$2; shift 2 ;;
    --base) BASE=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --heaptrack) HEAPTRACK=1; shift ;;
    *) break ;;
  esac
done
RDMA=$(abs_path "$RDMA")
[ -n "$BASE" ] && BASE=$(abs_path "$BASE")
need ibsim ibnetdiscover python3 /usr/bin/time "$RDMA" ${BASE:+"$BASE"}
[ "$HEAPTRACK" = 1 ] && need heaptrack heaptrack_print
bench_dir fabric-memory

# sampled OUT CMD...: CMD run once (its output in OUT.out), "rss_kib
# anon_kib" appended to OUT.
sampled() {
  local out=$1
  shift
  python3 - "$out" "$@" <<'EOF'
import subprocess, sys, time
out, cmd = sys.argv[1], sys.argv[2:]
with open(out + ".out", "w") as o, open(out + ".err", "w") as e:
    p = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", out + ".hwm"] + cmd, stdout=o, stderr=e)
    anon = 0
    child = None
    while p.poll() is None:
        try:
            if child is None:  # time's child: the tool (env execs it)
                with open(f"/proc/{p.pid}/task/{p.pid}/children") as c:
                    child = int(c.read().split()[0])
            with open(f"/proc/{child}/smaps_rollup") as r:
                for line in r:
                    if line.startswith("Anonymous:"):
                        anon = max(anon, int(line.split()[1]))
        except (OSError, IndexError, ValueError):
            pass
        time.sleep(0.005)
with open(out + ".hwm") as h, open(out, "a") as f:
    f.write(f"{h.read().split()[-1]} {anon}\n")
EOF
}
# heap_mb CMD...: heaptrack's peak heap of one run under umad2sim, in MB
# (heaptrack adds its own preload to LD_PRELOAD).
heap_mb() {
  LD_PRELOAD=$UMAD2SIM heaptrack -o "$WORK/ht" "$@" >/dev/null 2>&1
  heaptrack_print -f "$WORK"/ht.* 2>/dev/null |
    sed -n 's/^peak heap memory consumption: \([0-9.]*\)M$/\1/p'
  rm -f "$WORK"/ht.*
}

printf '%-6s %-20s %9s %6s %9s %6s %8s\n' nodes tool rss_kib rss_x anon_kib anon_x heap_mb
for n in "${@:-1000 5000}"; do
  fattree "$n"
  start_ibsim "$n"
  tools=(ibnd rdma)
  declare -A cmd=([ibnd]="ibnetdiscover" [rdma]="$RDMA fabric show")
  [ -n "$BASE" ] && tools=(ibnd base rdma) && cmd[base]="$BASE fabric show"
  for t in "${tools[@]}"; do rm -f "$t$n"; done
  for _ in $(seq "$RUNS"); do
    for t in "${tools[@]}"; do
      # shellcheck disable=SC2086 # the command's words
      sampled "$t$n" env LD_PRELOAD="$UMAD2SIM" ${cmd[$t]}
    done
  done
  found=$(grep -c '^Switch\|^Ca' "ibnd$n.out")
  [ "$found" = "$nodes" ] || { echo "ibnetdiscover found $found nodes of $nodes"; exit 1; }
  for t in "${tools[@]}"; do
    [ "$t" = ibnd ] && continue
    found=$(grep -c '^type ' "$t$n.out")
    [ "$found" = "$nodes" ] || { echo "$t found $found nodes of $nodes"; cat "$t$n.err"; exit 1; }
  done
  read -r ref_rss < <(stats "ibnd$n" 1 | cut -d' ' -f1)
  read -r ref_anon < <(stats "ibnd$n" 2 | cut -d' ' -f1)
  for t in "${tools[@]}"; do
    read -r rss < <(stats "$t$n" 1 | cut -d' ' -f1)
    read -r anon < <(stats "$t$n" 2 | cut -d' ' -f1)
    heap=-
    # shellcheck disable=SC2086 # the command's words
    [ "$HEAPTRACK" = 1 ] && heap=$(heap_mb ${cmd[$t]})
    label=$t
    [ "$t" = ibnd ] && label=ibnetdiscover
    [ "$t" = rdma ] && label="rdma fabric show"
    [ "$t" = base ] && label="base fabric show"
    printf '%-6s %-20s %9s %6s %9s %6s %8s\n' "$n" "$label" "$rss" "$(ratio "$rss" "$ref_rss")" \
      "$anon" "$(ratio "$anon" "$ref_anon")" "$heap"
  done
  stop
done
