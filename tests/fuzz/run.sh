#!/bin/bash
# Builds the libFuzzer targets (cmake -DRDMA_FUZZ=ON, Debian's clang-14,
# ASan+UBSan) and runs each for a bounded time on a copy of its seed corpus
# (tests/fuzz/corpus/NAME; new inputs go to a scratch directory, the
# repository's corpus is only read). A target that crashes, leaks or hangs
# fails; the input is kept in --artifacts.
#
# usage: tests/fuzz/run.sh [--build DIR] [--seconds S] [--seed N] [--only NAME] [--artifacts DIR]
# Ends with "N passed, M failed" (one per target) and the executions of each.
# The seed is fixed (1 unless --seed says): a run's inputs follow from the
# seed, the corpus and the binary, so a failure in CI is found again here by
# the same command (a longer --seconds covers a faster machine's inputs);
# --seed random lets libFuzzer pick one, as a campaign wants.
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD=build-fuzz
SECONDS_EACH=25
SEED=1
ONLY=
ART=${TMPDIR:-/tmp}/rdma-fuzz-artifacts
while [ $# -gt 0 ]; do
    case "$1" in
        --build) BUILD=$2; shift 2 ;;
        --seconds) SECONDS_EACH=$2; shift 2 ;;
        --seed) SEED=$2; shift 2 ;;
        --only) ONLY=$2; shift 2 ;;
        --artifacts) ART=$2; shift 2 ;;
        *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
LOGDIR=${RDMA_TEST_LOG:-build-logs}
mkdir -p "$LOGDIR" "$ART"
CXX=${RDMA_FUZZ_CXX:-clang++-14}
command -v "$CXX" >/dev/null || { echo "run.sh: $CXX not found (scripts/setup-debian.sh installs it)"; echo "0 passed, 1 failed"; exit 1; }
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
if ! { cmake -S . -B "$BUILD" -G Ninja -DCMAKE_CXX_COMPILER="$CXX" -DRDMA_FUZZ=ON "${launcher[@]}" >/dev/null &&
       ninja -C "$BUILD" fuzzers; } >"$LOGDIR/fuzz-build.log" 2>&1; then
    tail -n 40 "$LOGDIR/fuzz-build.log"
    echo "0 passed, 1 failed"
    exit 1
fi
seed_arg=()
case "$SEED" in
    random) ;;
    *[!0-9]* | '') echo "run.sh: --seed takes a number or random, not \"$SEED\"" >&2; exit 2 ;;
    *) seed_arg=(-seed="$SEED") ;;
esac
pass=0 fail=0
for exe in "$BUILD"/fuzz_*; do
    [ -x "$exe" ] || continue
    name=$(basename "$exe"); name=${name#fuzz_}
    [ -z "$ONLY" ] || [ "$ONLY" = "$name" ] || continue
    scratch=$(mktemp -d)
    log=$scratch/log
    "$exe" "${seed_arg[@]}" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$ART/$name-" "$scratch" "tests/fuzz/corpus/$name" >"$log" 2>&1
    rc=$?
    runs=$(grep -oE '^stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$')
    cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -n1)
    if [ "$rc" = 0 ]; then
        pass=$((pass + 1))
        echo "ok: fuzz_$name: ${runs:-?} runs in ${SECONDS_EACH}s, $cov"
    else
        fail=$((fail + 1))
        echo "FAIL: fuzz_$name (exit $rc, seed $SEED); artifacts in $ART"
        grep -E 'ERROR|runtime error|SUMMARY|Test unit written' "$log" | head -n 10
    fi
    rm -rf "$scratch"
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
