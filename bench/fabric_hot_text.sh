#!/bin/bash
# The functions of the rdma binary that `rdma fabric show` runs, listed for
# the link (cmake/hot_text.ld): the linker places them together ahead of
# the rest of the text, so discovery faults in a few 64 KiB windows of
# code rather than a page here and there over the whole text (the kernel
# maps file pages around each fault). Counted by callgrind under umad2sim
# in ibsim on a generated fat tree without a subnet manager (bench/
# fattree.py, as bench/fabric_memory_ibsim.sh measures it) and on
# tests/ibsim/fabric.net with opensm (LIDs: the paths a swept fabric
# takes, and the fabric tests/ibsim/fabric.sh checks the list against).
#
#   bench/fabric_hot_text.sh [--rdma PATH] [SIZE]   # default 1000 nodes
#
# PATH is a build configured with -DRDMA_HOT_TEXT=OFF: valgrind (3.19)
# reads no symbols outside .text, so in a binary already linked with the
# list its functions are nobody's. Without --rdma it configures and builds
# one in build-hot-off/ with CI's flags (the objects are the same as
# build/'s, so ccache has them). Writes cmake/hot_text.ld; rebuild
# build/rdma after. tests/ibsim/fabric.sh fails when fabric show runs a
# function the list does not name (scripts/check-hot-text.sh).
# Results: bench/fabric_results.md (the binary's touched text).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
# shellcheck source=bench/ibsim_lib.sh
. "$HERE/ibsim_lib.sh"
OUT=$ROOT/cmake/hot_text.ld
RDMA=""
while [ $# -gt 0 ]; do
  case $1 in
    --rdma) RDMA=$2; shift 2 ;;
    *) break ;;
  esac
done
if [ -z "$RDMA" ]; then
  cmake -S "$ROOT" -B "$ROOT/build-hot-off" -G Ninja -DCMAKE_BUILD_TYPE=Release -DRDMA_WERROR=ON \
    -DRDMA_HOT_TEXT=OFF -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
    "-DCMAKE_CXX_FLAGS=$(dpkg-buildflags --get CXXFLAGS) $(dpkg-buildflags --get CPPFLAGS)" \
    "-DCMAKE_EXE_LINKER_FLAGS=$(dpkg-buildflags --get LDFLAGS)" >/dev/null &&
    ninja -C "$ROOT/build-hot-off" -j2 rdma >/dev/null || exit 1
  RDMA=$ROOT/build-hot-off/rdma
fi
RDMA=$(abs_path "$RDMA")
need ibsim opensm valgrind python3 readelf "$RDMA"
if readelf -SW "$RDMA" | grep -q '\.text\.hot_path'; then
  echo "$RDMA is linked with cmake/hot_text.ld: give a build configured with -DRDMA_HOT_TEXT=OFF"
  exit 2
fi
N=${1:-1000}
bench_dir fabric-hot-text

# profile NAME: callgrind's profile of fabric show in NAME.cg, all nodes found.
profile() {
  sim valgrind --tool=callgrind --demangle=no --callgrind-out-file="$1.cg" \
    "$RDMA" fabric show >"$1.out" 2>"$1.err" || { cat "$1.err"; exit 1; }
  found=$(grep -c '^type ' "$1.out")
  [ "$found" = "$nodes" ] || { echo "$1: found $found nodes of $nodes"; exit 1; }
}
fattree "$N"
start_ibsim "$N"
profile tree
stop
cp "$ROOT/tests/ibsim/fabric.net" ftsmall.net
# shellcheck disable=SC2034 # start_ibsim reads it (fabric.net needs no -N/-S/-P)
flags=""
nodes=$(grep -c '^\(Switch\|Hca\|Ca\)' ftsmall.net)
start_ibsim small
start_opensm small 60
first_sweep small "$SECONDS" 60
profile small
python3 "$ROOT/scripts/hot_text.py" list "$RDMA" tree.cg small.cg >"$OUT.new" &&
  [ -s "$OUT.new" ] && mv "$OUT.new" "$OUT" || exit 1
echo "$(grep -c '^    \*' "$OUT") sections in $OUT ($settled)"
