# shellcheck shell=bash
# Shared by the simulator benches (check_ibsim.sh, errors_ibsim.sh,
# fabric_ibsim.sh): a generated fat tree in ibsim, opensm on it, both run
# under the umad2sim preload and stopped again, in a directory of the
# bench's own. (tests/ibsim/lib.sh is the suites': fixed options, one
# topology, ok/bad counters.) Source it with HERE set to bench/.
#
# Sets: RDMA (build/rdma, the default for --rdma); WORK, IBSIM_PID and
# OSM_PID (bench_dir, start_ibsim, start_opensm); flags, hcas, switches and
# nodes (fattree); settled (first_sweep).
# shellcheck disable=SC2034 # for the bench
RDMA=$HERE/../build/rdma
UMAD2SIM=${UMAD2SIM:-/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so}
IBSIM_PID=""
OSM_PID=""

# abs_path PATH: PATH from /, for use after the bench has changed directory.
abs_path() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }

# need TOOL...: every one installed, or the bench stops.
need() {
  local t
  for t in "$@"; do
    command -v "$t" >/dev/null || { echo "missing: $t (tests/ibsim/setup.sh, build rdma)"; exit 1; }
  done
}

# bench_dir NAME [KEEP]: into a new /tmp/rdma-NAME-bench.* ($WORK), with
# an IBSIM_SOCKNAME and opensm's files of its own (benches and suites may
# run side by side). On exit: stop, then the directory removed, or with
# KEEP=1 kept and named.
bench_dir() {
  WORK=$(mktemp -d "/tmp/rdma-$1-bench.XXXXXX")
  BENCH_KEEP=${2:-0}
  export IBSIM_SOCKNAME=rdma-$1-bench-$$
  export OSM_TMP_DIR=$WORK OSM_CACHE_DIR=$WORK
  # shellcheck disable=SC2015
  trap 'stop; cd / && { [ "$BENCH_KEEP" = 1 ] && echo "kept $WORK" || rm -rf "$WORK"; }' EXIT
  cd "$WORK" || exit 1
}

# stop: opensm first (a client of ibsim), ibsim's console, then ibsim; both
# exit on SIGTERM. A client killed otherwise keeps one of ibsim's few
# client slots.
stop() {
  [ -n "$OSM_PID" ] && kill "$OSM_PID" 2>/dev/null && wait "$OSM_PID" 2>/dev/null
  OSM_PID=""
  { exec 3>&-; } 2>/dev/null
  [ -n "$IBSIM_PID" ] && kill "$IBSIM_PID" 2>/dev/null && wait "$IBSIM_PID" 2>/dev/null
  IBSIM_PID=""
}

# The command under the umad2sim preload (a client of ibsim).
sim() { LD_PRELOAD=$UMAD2SIM "$@"; }

# build_umad_count: bench/umad_count.c built into umad_count.so (preloaded in
# front of umad2sim, it counts the MADs a diag sends).
build_umad_count() { cc -shared -fPIC -O2 -o umad_count.so "$HERE/umad_count.c" -ldl || exit 1; }

# fattree N: bench/fattree.py's tree of about N nodes in ftN.net, its
# summary line in genN.txt; flags (ibsim's -N/-S/-P for it), hcas,
# switches, nodes. FATTREE_LINK, when set, is its --link (e.g. "w=8 s=7":
# links at what both ends support, so no check finds every link degraded).
fattree() {
  python3 "$HERE/fattree.py" --nodes "$1" ${FATTREE_LINK:+--link "$FATTREE_LINK"} >"ft$1.net" \
    2>"gen$1.txt" || exit 1
  flags=$(python3 "$HERE/fattree.py" --nodes "$1" --ibsim-flags)
  read -r hcas switches _ < <(sed -E 's/.* ([0-9]+) HCAs, ([0-9]+) switches, ([0-9]+) links/\1 \2 \3/' "gen$1.txt")
  # shellcheck disable=SC2034 # for the bench
  nodes=$((hcas + switches))
}

# start_ibsim N [console]: ibsim on ftN.net (fattree), its output in
# ibsimN.log, waited for until ready. With "console" it reads its console
# from a fifo held open on fd 3 (echo "PerformanceSet ..." >&3); otherwise
# it runs without one (-n).
start_ibsim() {
  if [ "${2:-}" = console ]; then
    rm -f ctl && mkfifo ctl
    # shellcheck disable=SC2086
    ibsim $flags -s "ft$1.net" <ctl >"ibsim$1.log" 2>&1 &
    IBSIM_PID=$!
    exec 3>ctl
  else
    # shellcheck disable=SC2086
    ibsim -n $flags -s "ft$1.net" >"ibsim$1.log" 2>&1 &
    IBSIM_PID=$!
  fi
  for _ in $(seq 300); do grep -q "simulator ready" "ibsim$1.log" && break; sleep 0.2; done
  grep -q "simulator ready" "ibsim$1.log" || { tail "ibsim$1.log"; exit 1; }
}

# start_opensm N TRIES: opensm (one sweep, then no more: -s 0), its output
# in opensmN.out, waited for until it is master (TRIES half seconds at
# most).
start_opensm() {
  # Not through sim: $! must be opensm's own pid (to stop it, to read its
  # CPU time), not a subshell's.
  LD_PRELOAD=$UMAD2SIM opensm -f "$WORK/osm$1.log" -s 0 >"opensm$1.out" 2>&1 </dev/null &
  OSM_PID=$!
  for _ in $(seq "$2"); do
    sim sminfo 2>/dev/null | grep -q SMINFO_MASTER && break
    sleep 0.5
  done
}

# first_sweep N T0 LIMIT: until opensm's first sweep is done: SUBNET UP, or
# opensm idle for 5 s (at thousands of nodes in ibsim it may stall for good
# after programming the switches), or LIMIT s after T0 (a $SECONDS).
# settled says which, and the seconds since T0.
first_sweep() {
  local last=-1 idle=0 now
  while ! grep -q "SUBNET UP" "opensm$1.out" && [ $idle -lt 5 ] && [ $((SECONDS - $2)) -lt "$3" ]; do
    sleep 1
    now=$(cpu_ticks "$OSM_PID")
    if [ "$now" = "$last" ]; then idle=$((idle + 1)); else idle=0; fi
    last=$now
  done
  # shellcheck disable=SC2034 # for the bench
  settled="opensm $(grep -q "SUBNET UP" "opensm$1.out" && echo "SUBNET UP" || echo "idle") after $((SECONDS - $2)) s"
}

# simulated_tree N: the generated fat tree of N nodes in ibsim, swept by
# opensm (600 s to start, 900 s for the first sweep).
simulated_tree() {
  local t0
  fattree "$1"
  start_ibsim "$1"
  t0=$SECONDS
  start_opensm "$1" 600
  first_sweep "$1" "$t0" 900
}

# cpu_ticks PID: its user+system time so far, in ticks (1/100 s).
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
# stats FILE COLUMN: median min max of that column (FILE: a line per run).
stats() { sort -n -k "$2" "$1" | awk -v c="$2" '{v[NR]=$c} END {print v[int((NR+1)/2)], v[1], v[NR]}'; }
# ratio A B: A/B to two places, "-" when B is 0.
ratio() { python3 -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); print(f'{a / b:.2f}' if b else '-')" "$1" "$2"; }
