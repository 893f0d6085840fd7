#!/bin/bash
# Instructions a batch line costs in-process, counted by callgrind on the
# test kernel's batch (rdma/batch_test.cc BatchMemory: LINES/10 and then
# LINES lines of dev/link/res/stat/sys): everything rdma::run does, minus
# the test kernel's own work (its send and recv are toggled out, as the
# real kernel's work is not ours either). Prints the instructions a line
# and, with --top N, the N costliest functions (inclusive).
# and, with KEEP=FILE, keeps the callgrind profile for callgrind_annotate.
# usage: bench/batch_callgrind.sh [--top N] [UNIT_TESTS_BINARY] [LINES]
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=0
if [ "${1:-}" = --top ]; then TOP=$2; shift 2; fi
BIN=${1:-$HERE/../build/unit_tests}
LINES=${2:-2000}
W=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] && cp "$W/cg.out" "$KEEP"; rm -rf "$W"' EXIT
BATCH_BENCH_LINES=$LINES valgrind --tool=callgrind --callgrind-out-file="$W/cg.out" \
    --toggle-collect='rdma::run(*' --toggle-collect='*Counted::Link::send*' \
    --toggle-collect='*Counted::Link::recv*' \
    "$BIN" --gtest_filter='BatchMemory.*' > /dev/null 2> "$W/err" ||
    { cat "$W/err" >&2; exit 1; }
total=$(grep -E '^(summary|totals):' "$W/cg.out" | head -1 | awk '{print $2}')
awk -v t="$total" -v l="$LINES" 'BEGIN {
    printf "%d instructions in rdma::run for %d lines: %.0f a line\n", t, l + l / 10, t / (l + l / 10) }'
if [ "$TOP" -gt 0 ]; then
    callgrind_annotate --inclusive=yes "$W/cg.out" 2> /dev/null | sed -n '/^Ir/,$p' | head -$((TOP + 2))
fi
