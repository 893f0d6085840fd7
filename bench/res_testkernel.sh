#!/bin/bash
# `rdma res show qp` (text and -j) with 1M QPs from the test kernel: wall
# time and peak RSS, which must stay flat (the test fails otherwise).
# usage: bench/res_testkernel.sh [UNIT_TESTS_BINARY] [QPS]
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
BIN=${1:-$HERE/../build/unit_tests}
RES_BENCH_QPS=${2:-1000000} "$BIN" --gtest_filter='ResMemory.*' | grep -E '^res show|OK|FAILED'
