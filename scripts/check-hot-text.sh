#!/bin/bash
# Does cmake/hot_text.ld still name every function of the binary a command
# runs? The list (made by bench/fabric_hot_text.sh) places the code
# `rdma fabric show` runs ahead of the rest of the text, 0.4 MB resident
# instead of 2 MB (bench/fabric_results.md); code added to discovery or
# printing since lies elsewhere and quietly brings back 64 KiB windows of
# text. Runs the command once under callgrind (a second or two on a small
# fabric): in a binary linked with the list, valgrind names only the
# functions outside the hot section, so each one named and not start-up
# code is one the list lacks. Exit 0 when none (or the binary is linked
# without the list), 1 naming them, 2 when it cannot run.
#
#   scripts/check-hot-text.sh [--preload LIB] RDMA ARGS...
#
# LIB is preloaded into the command only (umad2sim for the simulator);
# tests/ibsim/fabric.sh runs it on fabric show.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PRELOAD=""
if [ "${1:-}" = --preload ]; then PRELOAD=$2; shift 2; fi
[ $# -ge 1 ] || { echo "usage: $0 [--preload LIB] RDMA ARGS..." >&2; exit 2; }
RDMA=$1
shift
for t in valgrind python3 readelf nm; do
  command -v "$t" >/dev/null || { echo "$t missing (tests/ibsim/setup.sh installs it)"; exit 2; }
done
if ! readelf -SW "$RDMA" | grep -q '\.text\.hot_path'; then
  echo "$RDMA is linked without cmake/hot_text.ld: nothing to check"
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
LD_PRELOAD=$PRELOAD valgrind --tool=callgrind --demangle=no --callgrind-out-file="$tmp/cg" \
  "$RDMA" "$@" >"$tmp/out" 2>"$tmp/err" || { tail -n 5 "$tmp/err"; exit 2; }
python3 "$ROOT/scripts/hot_text.py" check "$RDMA" "$tmp/cg" "$ROOT/cmake/hot_text.ld"
