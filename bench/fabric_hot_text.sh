#!/bin/bash
# The functions of the rdma binary that `rdma fabric show` runs, listed for
# the link (cmake/hot_text.ld): the linker places them together ahead of
# the rest of the text, so discovery faults in a few 64 KiB windows of
# code rather than a page here and there over the whole text (the kernel
# maps file pages around each fault). Counted by callgrind on a generated
# fat tree in ibsim (bench/fattree.py), under umad2sim.
#
#   bench/fabric_hot_text.sh --rdma PATH [SIZE]   # default 1000 nodes
#
# PATH is a build configured with -DRDMA_HOT_TEXT=OFF: valgrind (3.19)
# reads no symbols outside .text, so in a binary already linked with the
# list its functions are nobody's.
# Writes cmake/hot_text.ld. Run it again when discovery's or printing's
# code changes much: a name no longer in the program matches nothing and
# costs nothing; a new function left out only lies elsewhere in the text.
# Results: bench/fabric_results.md (the binary's touched text).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/ibsim_lib.sh
. "$HERE/ibsim_lib.sh"
OUT=$HERE/../cmake/hot_text.ld
while [ $# -gt 0 ]; do
  case $1 in
    --rdma) RDMA=$2; shift 2 ;;
    *) break ;;
  esac
done
RDMA=$(abs_path "$RDMA")
need ibsim valgrind python3 readelf "$RDMA"
if readelf -SW "$RDMA" | grep -q '\.text\.hot_path'; then
  echo "$RDMA is linked with cmake/hot_text.ld: give a build configured with -DRDMA_HOT_TEXT=OFF"
  exit 2
fi
N=${1:-1000}
bench_dir fabric-hot-text
fattree "$N"
start_ibsim "$N"
LD_PRELOAD=$UMAD2SIM valgrind --tool=callgrind --demangle=no --callgrind-out-file=cg.out \
  "$RDMA" fabric show >show.out 2>vg.err || { cat vg.err; exit 1; }
found=$(grep -c '^type ' show.out)
[ "$found" = "$nodes" ] || { echo "found $found nodes of $nodes"; exit 1; }
# Callgrind's file names each object (ob=) and function (fn=) once in full,
# then by number: every fn= of the binary's own object, with -ffunction-
# sections each in a section .text.NAME; a complete-object constructor or
# destructor (C1, D1) is an alias of the base-object one's code (C2, D2).
# Static initializers and main are in .text.startup, which the linker puts
# first in .text anyway, right after these.
python3 - "$RDMA" cg.out >"$OUT.new" <<'EOF'
import os, re, sys
binary, profile = os.path.realpath(sys.argv[1]), sys.argv[2]
names = {"ob": {}, "fn": {}}
def name(kind, text):
    m = re.match(r"\((\d+)\)(?: (.*))?$", text)
    if not m:
        return text
    if m.group(2) is not None:
        names[kind][m.group(1)] = m.group(2)
    return names[kind][m.group(1)]
ob, hot = None, []
with open(profile) as f:
    for line in f:
        key, _, value = line.rstrip("\n").partition("=")
        if key in ("ob", "cob"):
            o = name("ob", value)
            if key == "ob":
                ob = o
        elif key in ("fn", "cfn"):
            fn = re.sub(r"'\d+$", "", name("fn", value))  # a recursion's depth
            if key == "fn" and ob and os.path.realpath(ob) == binary \
                    and re.match(r"^[A-Za-z_][\w.$]*$", fn) and fn not in hot:
                hot.append(fn)
print("/* Made by bench/fabric_hot_text.sh: the functions `rdma fabric show`")
print("   runs, placed together ahead of the rest of the text (CMakeLists.txt). */")
print("SECTIONS\n{\n  .text.hot_path :\n  {")
for fn in sorted(hot):
    print(f"    *(.text.{fn})")
    base = re.sub(r"([CD])1E", r"\g<1>2E", fn, count=1)
    if base != fn:
        print(f"    *(.text.{base})")
print("  }\n}\nINSERT BEFORE .text;")
EOF
[ -s "$OUT.new" ] && mv "$OUT.new" "$OUT"
echo "$(grep -c '^    \*' "$OUT") functions in $OUT"
