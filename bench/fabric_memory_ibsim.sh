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
#   file_kib  file-backed resident pages at the sampled peak of Rss
#             (Rss - Anonymous): the binary's text and data, the libraries
#   pss_kib   proportional set size at that peak (smaps_rollup's Pss): shared
#             library pages split among the processes mapping them, what
#             an admin's smem shows
#   heap_mb   with --heaptrack, heaptrack's peak of live heap (one run)
# and the ratios to ibnetdiscover's. With --maps, each tool's resident KiB
# per mapped file and permissions (and [anon]) at the peak of its last
# run, from /proc/PID/smaps.
#
#   bench/fabric_memory_ibsim.sh [--rdma PATH] [--base PATH] [--runs N] [--heaptrack]
#                                [--maps] [SIZES...]   # sizes default: 1000 5000
#
# Results: bench/fabric_results.md (discovery's memory).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/ibsim_lib.sh
. "$HERE/ibsim_lib.sh"
BASE=""
RUNS=3
HEAPTRACK=0
MAPS=0
while [ $# -gt 0 ]; do
  case $1 in
    --rdma) RDMA=$2; shift 2 ;;
    --base) BASE=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --heaptrack) HEAPTRACK=1; shift ;;
    --maps) MAPS=1; shift ;;
    *) break ;;
  esac
done
RDMA=$(abs_path "$RDMA")
[ -n "$BASE" ] && BASE=$(abs_path "$BASE")
need ibsim ibnetdiscover python3 /usr/bin/time "$RDMA" ${BASE:+"$BASE"}
[ "$HEAPTRACK" = 1 ] && need heaptrack heaptrack_print
bench_dir fabric-memory

# sampled OUT CMD...: CMD run once (its output in OUT.out), "rss_kib
# anon_kib file_kib pss_kib" appended to OUT, and the resident KiB per
# mapping at the sampled peak of Rss in OUT.maps.
sampled() {
  local out=$1
  shift
  python3 - "$out" "$@" <<'EOF'
import collections, subprocess, sys, time
out, cmd = sys.argv[1], sys.argv[2:]

def rollup(pid):
    v = {}
    with open(f"/proc/{pid}/smaps_rollup") as r:
        for line in r:
            f = line.split()
            if len(f) == 3 and f[2] == "kB":
                v[f[0].rstrip(":")] = int(f[1])
    return v

def maps(pid):
    rss = collections.Counter()
    name = None
    with open(f"/proc/{pid}/smaps") as m:
        for line in m:
            f = line.split()
            if "-" in f[0] and not f[0].endswith(":"):
                name = f"{f[5]} {f[1]}" if len(f) > 5 and f[5].startswith("/") else "[anon]"
            elif f[0] == "Rss:":
                rss[name] += int(f[1])
    return rss

with open(out + ".out", "w") as o, open(out + ".err", "w") as e:
    p = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", out + ".hwm"] + cmd, stdout=o, stderr=e)
    anon = peak = file = pss = 0
    at_peak = collections.Counter()
    child = None
    while p.poll() is None:
        try:
            if child is None:  # time's child: the tool (env execs it)
                with open(f"/proc/{p.pid}/task/{p.pid}/children") as c:
                    child = int(c.read().split()[0])
            v = rollup(child)
            anon = max(anon, v["Anonymous"])
            if v["Rss"] > peak:
                m = maps(child)
                peak, file, pss, at_peak = v["Rss"], v["Rss"] - v["Anonymous"], v["Pss"], m
        except (OSError, IndexError, ValueError, KeyError):
            pass
        time.sleep(0.005)
with open(out + ".hwm") as h, open(out, "a") as f:
    f.write(f"{h.read().split()[-1]} {anon} {file} {pss}\n")
with open(out + ".maps", "w") as f:
    for name, kib in at_peak.most_common():
        f.write(f"{kib:8d} {name}\n")
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

printf '%-6s %-20s %9s %6s %9s %6s %9s %9s %6s %8s\n' nodes tool rss_kib rss_x anon_kib anon_x \
  file_kib pss_kib pss_x heap_mb
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
  read -r ref_pss < <(stats "ibnd$n" 4 | cut -d' ' -f1)
  for t in "${tools[@]}"; do
    read -r rss < <(stats "$t$n" 1 | cut -d' ' -f1)
    read -r anon < <(stats "$t$n" 2 | cut -d' ' -f1)
    read -r file < <(stats "$t$n" 3 | cut -d' ' -f1)
    read -r pss < <(stats "$t$n" 4 | cut -d' ' -f1)
    heap=-
    # shellcheck disable=SC2086 # the command's words
    [ "$HEAPTRACK" = 1 ] && heap=$(heap_mb ${cmd[$t]})
    label=$t
    [ "$t" = ibnd ] && label=ibnetdiscover
    [ "$t" = rdma ] && label="rdma fabric show"
    [ "$t" = base ] && label="base fabric show"
    printf '%-6s %-20s %9s %6s %9s %6s %9s %9s %6s %8s\n' "$n" "$label" "$rss" \
      "$(ratio "$rss" "$ref_rss")" "$anon" "$(ratio "$anon" "$ref_anon")" "$file" "$pss" \
      "$(ratio "$pss" "$ref_pss")" "$heap"
  done
  if [ "$MAPS" = 1 ]; then
    for t in "${tools[@]}"; do
      echo "  $t at $n nodes, resident KiB per mapping at the peak (last run):"
      sed 's/^/    /' "$t$n.maps"
    done
  fi
  stop
done
