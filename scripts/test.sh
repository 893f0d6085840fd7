#!/bin/bash
# Runs every test of the project on a Debian 12 machine (root or sudo):
# unit tests (plain and under ASan+UBSan), the real-kernel suite in QEMU on
# Linux 6.1 and 6.12 side by side with iproute2, the InfiniBand simulator
# suite, completion and man page checks. Installs what it needs first.
# Ends with one line "N passed, M failed"; exits non-zero if anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
LOG=${RDMA_TEST_LOG:-$ROOT/build-logs}
mkdir -p "$LOG"
PASSED=0
FAILED=0
FAILED_SUITES=()

note() { printf '\n=== %s\n' "$*"; }

# Adds a suite's counts from its closing "N passed, M failed" line.
count() {
  local name=$1 status=$2 file=$3 secs=${4:-} line p f
  line=$(grep -E '^([A-Za-z-]+: )?[0-9]+ passed, [0-9]+ failed' "$file" | tail -n 1)
  if [ -z "$line" ]; then
    p=0; f=1
  else
    p=$(sed -E 's/^([A-Za-z-]+: )?([0-9]+) passed.*/\2/' <<<"$line")
    f=$(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$line")
  fi
  if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
  PASSED=$((PASSED + p))
  FAILED=$((FAILED + f))
  [ "$f" -eq 0 ] || FAILED_SUITES+=("$name")
  echo "$name: $p passed, $f failed${secs:+ in $secs s}"
}

# gtest's summary as "N passed, M failed", summed over the shards' summaries.
gtest_counts() {
  local p f
  p=$(grep -oE '^\[  PASSED  \] [0-9]+' "$1" | grep -oE '[0-9]+$' | awk '{s += $1} END {print s + 0}')
  f=$(grep -oE '^\[  FAILED  \] [0-9]+ test' "$1" | grep -oE '[0-9]+' | awk '{s += $1} END {print s + 0}')
  echo "$p passed, $f failed" >>"$1"
}

# A gtest binary as RDMA_TEST_SHARDS processes at once (gtest's own
# sharding: every test runs once, in one of them; one a core). Most of the
# unit tests' 40 s is waiting (watch intervals, deadlines), not CPU: shards end
# with the longest test instead of the sum. Each shard has its own
# temporary directory: tests name their files under gtest's TempDir() by
# the fixture, not the process. OUT gets the shards' outputs one after
# another and the summed count line.
gtest_sharded() {  # BINARY OUT
  local bin=$1 out=$2 n=${RDMA_TEST_SHARDS:-$(nproc)} i s=0 pids=() tmp
  tmp=$(mktemp -d)
  for ((i = 0; i < n; i++)); do
    mkdir -p "$tmp/$i"
    TEST_TMPDIR=$tmp/$i/ TMPDIR=$tmp/$i GTEST_TOTAL_SHARDS=$n GTEST_SHARD_INDEX=$i \
      "$bin" >"$out.$i" 2>&1 &
    pids+=($!)
  done
  for i in "${!pids[@]}"; do wait "${pids[$i]}" || s=1; done
  rm -rf "$tmp"
  : >"$out"
  for ((i = 0; i < n; i++)); do cat "$out.$i" >>"$out"; rm -f "$out.$i"; done
  cat "$out"
  gtest_counts "$out"
  tail -n1 "$out"
  return $s
}

run_suite() {  # name, command...
  local name=$1 t0=$SECONDS; shift
  note "$name"
  "$@" >"$LOG/$name.log" 2>&1
  local status=$?
  tail -n 25 "$LOG/$name.log"
  # The time of each suite, to see where CI's 35 minutes go.
  count "$name" "$status" "$LOG/$name.log" $((SECONDS - t0))
}

# A suite in the background (the same log as run_suite) and, later,
# bg_done: its tail and count line. For two suites that share nothing and
# leave each other a core (a VM suite is one QEMU thread, the fuzzers one).
bg_start() {  # name, command...
  BG_NAME=$1; shift
  ( t0=$SECONDS; "$@"; s=$?; echo $((SECONDS - t0)) >"$LOG/$BG_NAME.secs"; exit $s ) \
    >"$LOG/$BG_NAME.log" 2>&1 &
  BG_PID=$!
}
bg_done() {
  wait "$BG_PID"
  local status=$?
  note "$BG_NAME"
  tail -n 25 "$LOG/$BG_NAME.log"
  count "$BG_NAME" "$status" "$LOG/$BG_NAME.log" "$(cat "$LOG/$BG_NAME.secs")"
  rm -f "$LOG/$BG_NAME.secs"
}

note "setup"
scripts/setup-debian.sh || { echo "0 passed, 1 failed"; exit 1; }
for f in tests/vm/setup.sh tests/ibsim/setup.sh tests/completion/setup.sh; do
  [ -x "$f" ] && { "$f" || echo "setup: $f failed"; }
done

note "build"
# Two builds. build/ (the binary of every suite below) is built the way
# Debian builds packages: Release with dpkg-buildflags' CXXFLAGS/CPPFLAGS/
# LDFLAGS (hardening on), and -Werror; every suite then tests what a
# distribution ships. build-san/ is clang's ASan+UBSan build: the unit tests,
# a sanitizer rdma (the corruption suite) and the libFuzzer targets, all
# from one compile (RDMA_FUZZ implies ASan+UBSan). ccache, where present,
# makes a second run quick.
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
BUILD_FLAGS=(-DCMAKE_BUILD_TYPE=Release -DRDMA_WERROR=ON "${launcher[@]}"
  "-DCMAKE_CXX_FLAGS=$(dpkg-buildflags --get CXXFLAGS) $(dpkg-buildflags --get CPPFLAGS)"
  "-DCMAKE_EXE_LINKER_FLAGS=$(dpkg-buildflags --get LDFLAGS)")
SAN_FLAGS=(-DCMAKE_CXX_COMPILER=clang++-14 -DRDMA_FUZZ=ON -DRDMA_WERROR=ON "${launcher[@]}"
  -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only")
build_step() {  # NAME LOG COMMAND...
  local name=$1 log=$2 t0=$SECONDS; shift 2
  echo "building $name ..."
  if ! "$@" >"$log" 2>&1; then
    tail -n 50 "$log"
    echo "0 passed, 1 failed"
    exit 1
  fi
  echo "built $name in $((SECONDS - t0)) s"
}
build_step "build (Release, dpkg-buildflags)" "$LOG/build.log" \
  sh -c 'cmake -S . -B build -G Ninja "$@" >/dev/null && ninja -C build' sh "${BUILD_FLAGS[@]}"
# build-san compiles in the background at the lowest priority while the
# suites that test build/ run: they leave a core or more idle (a VM suite
# is one QEMU thread under TCG, the simulator suites mostly wait), and at
# nice 19 the compile takes only what they leave. The suites that need
# build-san run last, after wait_san.
SAN_T0=$SECONDS
echo "building build-san (clang ASan+UBSan: unit tests, rdma, fuzzers) in the background ..."
nice -n 19 sh -c 'cmake -S . -B build-san -G Ninja "$@" >/dev/null && ninja -C build-san unit_tests rdma fuzzers' \
  sh "${SAN_FLAGS[@]}" >"$LOG/build-san.log" 2>&1 &
SAN_PID=$!
# Waits for build-san; a failed build is one failed suite (its tail shown)
# and the sanitizer suites are skipped.
wait_san() {
  local t0=$SECONDS
  note "build-san"
  if ! wait "$SAN_PID"; then
    tail -n 50 "$LOG/build-san.log"
    count build-san 1 /dev/null
    return 1
  fi
  echo "built build-san in $((SECONDS - SAN_T0)) s (waited $((SECONDS - t0)) s for it)"
}

unit() { gtest_sharded build/unit_tests "$LOG/unit.out"; }
unit_san() { gtest_sharded build-san/unit_tests "$LOG/unit-san.out"; }
run_suite unit unit

# cmake --install, the .deb (unpacked, lintian, dpkg -i/-r beside iproute2)
[ -x tests/package/test.sh ] && run_suite package tests/package/test.sh --build build

[ -x tests/completion/completion_test.sh ] && run_suite completion tests/completion/completion_test.sh
[ -x tests/completion/man_test.sh ] && run_suite man tests/completion/man_test.sh
# rdma-ibdiags(7) against the infiniband-diags installed (tests/ibsim/setup.sh).
[ -x tests/completion/ibdiags_test.sh ] && run_suite ibdiags-man tests/completion/ibdiags_test.sh
# The wire stays in lib/: no MAD built, no offset, shift or hex under rdma/.
run_suite check-wire scripts/check-wire.sh
# The house rules (purpose lines, small files, no writable statics in
# build/'s objects, a test beside the code), after the check is shown to
# catch a planted violation of each.
house() { scripts/check-house.sh --self-test && scripts/check-house.sh; }
run_suite check-house house
if [ -x tests/vm/compare.sh ]; then
  # Every corpus (core, resources, statistics) in one boot per kernel.
  cat tests/vm/corpus*.txt >"$LOG/corpus-all.txt"
  run_suite vm-6.1 tests/vm/compare.sh --kernel 6.1 --rdma build/rdma --corpus "$LOG/corpus-all.txt"
  run_suite vm-6.12 tests/vm/compare.sh --kernel 6.12 --rdma build/rdma --corpus "$LOG/corpus-all.txt"
fi
# Scripts that run inside the VM and print "ok: ..." / "FAIL: ..." lines.
vm_script() {  # KERNEL SCRIPT
  local out status
  out=$(tests/vm/run --kernel "$1" --fixture basic --rdma build/rdma --script "$2" 2>&1)
  status=$?
  echo "$out"
  echo "$(grep -c '^ok: ' <<<"$out") passed, $(grep -c '^FAIL: ' <<<"$out") failed"
  return $status
}
if [ -f tests/vm/monitor-test.sh ]; then
  run_suite vm-monitor-6.1 vm_script 6.1 tests/vm/monitor-test.sh
  run_suite vm-monitor-6.12 vm_script 6.12 tests/vm/monitor-test.sh
fi
# InfiniBand management on RoCE ports: one clear line each (issue 5).
[ -f tests/vm/mad-roce-test.sh ] && run_suite vm-mad-roce-6.12 vm_script 6.12 tests/vm/mad-roce-test.sh
# Verbs views (dev limits, link status, gid show) against ibv_devinfo and
# sysfs on rxe and siw: one basic-fixture boot per kernel (issue 14).
if [ -x tests/vm/verbs-test.sh ]; then
  run_suite vm-verbs-6.1 tests/vm/verbs-test.sh --kernel 6.1 --rdma build/rdma
  run_suite vm-verbs-6.12 tests/vm/verbs-test.sh --kernel 6.12 --rdma build/rdma
fi
# Netlink replies damaged by tests/vm/nlcorrupt.c on every view, with live
# resources: no hang, no crash, one error line (issue 15). The Release
# binary users get, and the ASan+UBSan one (a sanitizer report is a crash).
vm_corrupt() {  # KERNEL RDMA
  gcc -shared -fPIC -O2 -Wall -Werror -o build/nlcorrupt.so tests/vm/nlcorrupt.c -ldl || return 1
  local out status
  out=$(tests/vm/run --kernel "$1" --rdma "$2" --add build/nlcorrupt.so \
    --script tests/vm/corrupt-test.sh 2>&1)
  status=$?
  echo "$out"
  echo "$(grep -c '^ok: ' <<<"$out") passed, $(grep -c '^FAIL: ' <<<"$out") failed"
  return $status
}
if [ -f tests/vm/corrupt-test.sh ]; then
  run_suite vm-corrupt-6.12 vm_corrupt 6.12 build/rdma
fi
if [ -x tests/vm/writes.sh ]; then
  run_suite vm-writes-6.1 tests/vm/writes.sh --kernel 6.1 --rdma build/rdma
  run_suite vm-writes-6.12 tests/vm/writes.sh --kernel 6.12 --rdma build/rdma
fi
[ -x tests/ibsim/run.sh ] && run_suite ibsim tests/ibsim/run.sh --rdma build/rdma
[ -x tests/ibsim/fabric.sh ] && run_suite ibsim-fabric tests/ibsim/fabric.sh --rdma build/rdma
[ -x tests/ibsim/route.sh ] && run_suite ibsim-route tests/ibsim/route.sh --rdma build/rdma
[ -x tests/ibsim/speeds.sh ] && run_suite ibsim-speeds tests/ibsim/speeds.sh --rdma build/rdma
[ -x tests/ibsim/check.sh ] && run_suite ibsim-check tests/ibsim/check.sh --rdma build/rdma
[ -x tests/ibsim/check_loops.sh ] && run_suite ibsim-check-loops tests/ibsim/check_loops.sh --rdma build/rdma
[ -x tests/ibsim/portset.sh ] && run_suite ibsim-portset tests/ibsim/portset.sh --rdma build/rdma
# fabric report: the page in headless Chromium (screenshots kept in $LOG).
[ -x tests/ibsim/report.sh ] && run_suite ibsim-report env RDMA_TEST_LOG="$LOG" tests/ibsim/report.sh --rdma build/rdma
# fabric top: JSON snapshots, and the full screen in tmux.
[ -x tests/ibsim/top.sh ] && run_suite ibsim-top tests/ibsim/top.sh --rdma build/rdma
[ -x tests/ibsim/plan.sh ] && run_suite ibsim-plan tests/ibsim/plan.sh --rdma build/rdma
# MAD replies damaged by tests/ibsim/madfault.c (issue 26): no crash, no
# run past the bound, no wrong answer when only TIDs moved; the Release
# binary and the ASan+UBSan one (a sanitizer report is a crash). About 40 s each.
if [ -x tests/ibsim/fault.sh ]; then
  run_suite ibsim-fault tests/ibsim/fault.sh --rdma build/rdma
fi
[ -x tests/ibsim/madset.sh ] && run_suite ibsim-madset tests/ibsim/madset.sh --rdma build/rdma
# Every rdma command rdma-ibdiags(7) prints, on the simulator (about 25 s).
[ -x tests/ibsim/ibdiags_man.sh ] && run_suite ibsim-ibdiags-man tests/ibsim/ibdiags_man.sh --rdma build/rdma

# The suites of build-san: the unit tests, the fuzzers, the corruption and
# fault suites under ASan+UBSan.
if wait_san; then
  run_suite unit-asan-ubsan unit_san
  # libFuzzer targets (built in build-san): run each for 5 s, beside the
  # corruption suite's VM.
  [ -x tests/fuzz/run.sh ] && bg_start fuzz tests/fuzz/run.sh --build build-san --seconds 5
  [ -f tests/vm/corrupt-test.sh ] && run_suite vm-corrupt-asan-ubsan-6.12 vm_corrupt 6.12 build-san/rdma
  [ -x tests/fuzz/run.sh ] && bg_done
  [ -x tests/ibsim/fault.sh ] && run_suite ibsim-fault-asan-ubsan tests/ibsim/fault.sh --rdma build-san/rdma
fi

note "summary"
[ ${#FAILED_SUITES[@]} -eq 0 ] || echo "failed suites: ${FAILED_SUITES[*]}"
# Each failed suite's failing lines again, last: a reader who sees only a
# run's first and last lines (a CI page that cuts the middle) still learns
# which test failed and why, not only which suite.
for s in "${FAILED_SUITES[@]}"; do
  grep -E '^(FAIL|not ok)|^\[  FAILED  \]|runtime error|ERROR: |SUMMARY: ' "$LOG/$s.log" 2>/dev/null |
    head -n 12 | sed "s/^/$s: /"
done
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
