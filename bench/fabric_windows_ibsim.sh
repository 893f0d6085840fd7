#!/bin/bash
# Which 64 KiB windows of the binary and of each library `rdma fabric show`
# leaves resident, against `rdma -V` (start-up alone): the kernel maps the
# page-cache pages around each fault (fault-around), so a file's resident
# size is the windows its code and data touch. For each window fabric show
# adds, the functions there (the library's dynamic symbols, the binary's
# own; for data, the sections): what to look for in a callgrind profile
# to find who calls them.
# On a generated fat tree without a subnet manager in ibsim (bench/
# fattree.py), under umad2sim; bench/resident_windows.c preloaded. Both
# runs without address randomization (setarch -R) and with the same
# preloads, so each file lies at the same place in both and a window is
# the same window (fault-around aligns windows by virtual address).
#
#   bench/fabric_windows_ibsim.sh [--rdma PATH] [SIZE]   # default 1000 nodes
#
# Results: bench/fabric_results.md (discovery's file pages).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/ibsim_lib.sh
. "$HERE/ibsim_lib.sh"
while [ $# -gt 0 ]; do
  case $1 in
    --rdma) RDMA=$2; shift 2 ;;
    *) break ;;
  esac
done
RDMA=$(abs_path "$RDMA")
need ibsim cc python3 readelf nm setarch "$RDMA"
N=${1:-1000}
bench_dir fabric-windows
cc -shared -fPIC -O2 -o resident_windows.so "$HERE/resident_windows.c" || exit 1
RESIDENT_WINDOWS=$WORK/start.txt LD_PRELOAD="$UMAD2SIM $WORK/resident_windows.so" \
  setarch -R "$RDMA" -V >/dev/null || exit 1
fattree "$N"
start_ibsim "$N"
RESIDENT_WINDOWS=$WORK/show.txt LD_PRELOAD="$UMAD2SIM $WORK/resident_windows.so" \
  setarch -R "$RDMA" fabric show >show.out 2>show.err || { cat show.err; exit 1; }
found=$(grep -c '^type ' show.out)
# shellcheck disable=SC2154 # fattree sets nodes
[ "$found" = "$nodes" ] || { echo "found $found nodes of $nodes"; exit 1; }
echo "fabric show on $nodes nodes against rdma -V (load $(load))"
python3 - start.txt show.txt <<'EOF2'
import collections, re, subprocess, sys

def windows(path):
    w = collections.defaultdict(dict)
    for line in open(path):
        f, perms, off, pages = line.split()
        w[(f, perms)][int(off, 16)] = int(pages)
    return w

def symbols(f):
    """(address, name) of f's functions, and its LOAD segments (offset, vaddr, size)."""
    loads = []
    for line in subprocess.run(["readelf", "-lW", f], capture_output=True, text=True).stdout.splitlines():
        p = line.split()
        if p and p[0] == "LOAD":
            loads.append((int(p[1], 16), int(p[2], 16), int(p[4], 16)))
    nm = ["nm", "-C", "--defined-only"] + (["-D"] if ".so" in f else [])
    syms = []
    for line in subprocess.run(nm + [f], capture_output=True, text=True).stdout.splitlines():
        m = re.match(r"([0-9a-f]+) [tTwWiI] (.*)$", line)
        if m:
            syms.append((int(m.group(1), 16), m.group(2)))
    return loads, sorted(syms)

def secs(f):
    out = []
    for line in subprocess.run(["readelf", "-SW", f], capture_output=True, text=True).stdout.splitlines():
        m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)", line)
        if m and int(m.group(2), 16):
            out.append((int(m.group(2), 16), int(m.group(2), 16) + int(m.group(3), 16), m.group(1)))
    return out

def sections(f):
    return symbols(f)[0], []

start, show = windows(sys.argv[1]), windows(sys.argv[2])
print(f"{'KiB -V':>7} {'KiB show':>8}  mapping")
for key in sorted(show, key=lambda k: -sum(show[k].values())):
    a, b = sum(start.get(key, {}).values()) * 4, sum(show[key].values()) * 4
    print(f"{a:>7} {b:>8}  {key[0]} {key[1]}")
    added = sorted(set(show[key]) - set(start.get(key, {})))
    if not added:
        continue
    loads, syms = symbols(key[0]) if "x" in key[1] else sections(key[0])
    for off in added:
        va = next((off - o + v for o, v, s in loads if o <= off < o + s), None)
        names = [n for addr, n in syms if va is not None and va <= addr < va + 65536]
        if "x" not in key[1]:  # data: the sections the window overlaps
            names = [n for addr, end, n in secs(key[0]) if va is not None and addr < va + 65536 and va < end]
        shown = "; ".join(n[:60] for n in names[:3]) + (f" (+{len(names) - 3})" if len(names) > 3 else "")
        print(f"{'':>17}  + window at {off:#x}, {show[key][off]} pages: {shown}")
EOF2
