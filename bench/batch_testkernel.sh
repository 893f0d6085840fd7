#!/bin/bash
# A batch file of LINES lines (dev/link/res/stat/sys, from the test kernel):
# wall time a line and the largest heap in use while it runs, which must
# not grow with the number of lines: the test compares LINES/10 lines with
# LINES and fails otherwise.
# usage: bench/batch_testkernel.sh [UNIT_TESTS_BINARY] [LINES]
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
BIN=${1:-$HERE/../build/unit_tests}
BATCH_BENCH_LINES=${2:-100000} "$BIN" --gtest_filter='BatchMemory.*' | grep -E '^batch of|OK|FAILED'
