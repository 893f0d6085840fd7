# Shared by the simulator suites (run.sh, fabric.sh): arguments, the
# check for what is installed, a temporary directory with its own
# IBSIM_SOCKNAME, ibsim on NET with its console on a fifo (sim CMD),
# opensm (start_opensm), run CMD under the umad2sim preload, ok/bad/expect.
# Source it with NET set to the topology file; on exit it stops opensm,
# then ibsim, and removes the directory.
HERE=$(cd "$(dirname "$0")" && pwd)
RDMA=$HERE/../../build/rdma
while [ $# -gt 0 ]; do
  case $1 in
    --rdma) RDMA=$2; shift 2 ;;
    *) echo "usage: $0 [--rdma PATH]" >&2; exit 2 ;;
  esac
done
RDMA=$(cd "$(dirname "$RDMA")" && pwd)/$(basename "$RDMA")
UMAD2SIM=/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so
PASS=0
FAIL=0

missing=()
for t in ibsim opensm smpquery perfquery sminfo ibaddr ibportstate ibnetdiscover ibroute ibtracert saquery python3; do
  command -v "$t" >/dev/null || missing+=("$t")
done
[ -f "$UMAD2SIM" ] || missing+=("$UMAD2SIM")
[ -x "$RDMA" ] || missing+=("$RDMA")
if [ ${#missing[@]} -gt 0 ]; then
  echo "missing: ${missing[*]} (run tests/ibsim/setup.sh and build rdma)"
  echo "0 passed, 1 failed"
  exit 1
fi

WORK=$(mktemp -d /tmp/rdma-ibsim.XXXXXX)
export IBSIM_SOCKNAME=rdma-ibsim-$$
export OSM_TMP_DIR=$WORK OSM_CACHE_DIR=$WORK
IBSIM_PID=""
OSM_PID=""
cleanup() {
  # opensm first (a client of ibsim), then ibsim; both exit on SIGTERM.
  [ -n "$OSM_PID" ] && kill "$OSM_PID" 2>/dev/null && wait "$OSM_PID" 2>/dev/null
  exec 3>&- 2>/dev/null
  [ -n "$IBSIM_PID" ] && kill "$IBSIM_PID" 2>/dev/null && wait "$IBSIM_PID" 2>/dev/null
  cd / && [ -z "${KEEP:-}" ] && rm -rf "$WORK"
}
trap cleanup EXIT
cd "$WORK" || exit 1
cp "$NET" net

# ibsim reads its console from a fifo the suite keeps open (PerformanceSet).
mkfifo ctl
ibsim -s ${IBSIM_FLAGS:-} net <ctl >ibsim.log 2>&1 &
IBSIM_PID=$!
exec 3>ctl
sim() { echo "$*" >&3; }
for _ in $(seq 50); do grep -q "simulator ready" ibsim.log && break; sleep 0.2; done

# Every client (opensm, rdma, the diags) runs under the umad2sim preload.
# What rdma prints is also kept (rdma.out) for check_line_ends.
run() {
  if [ "$1" = "$RDMA" ]; then
    LD_PRELOAD=$UMAD2SIM timeout 60 "$@" 2> >(grep -v 'sim_connect: attached' >&2) |
      tee -a "$WORK/rdma.out"
    return "${PIPESTATUS[0]}"
  fi
  LD_PRELOAD=$UMAD2SIM timeout 60 "$@" 2> >(grep -v 'sim_connect: attached' >&2)
}

ok() { PASS=$((PASS + 1)); echo "ok   $*"; }
bad() { FAIL=$((FAIL + 1)); echo "FAIL $*"; }

# addr_check NAME "IBADDR ARGS" RDMA PORT SHOW ARGS...: ibaddr -g -L's
# "GID G LID start S end E" equals port show's gid, lid and lid_end.
addr_check() {
  local name=$1 diags=$2 want got
  shift 2
  # shellcheck disable=SC2086
  want=$(run ibaddr -g -L $diags 2>&1)
  got=$(run "$RDMA" -j port show "$@" 2>&1 | python3 -c '
import json, sys
r = json.load(sys.stdin)[0]
print("GID %s LID start %s end %s" % (r.get("gid"), r.get("lid"), r.get("lid_end")))' 2>&1)
  if [ -n "$want" ] && [ "$want" = "$got" ]; then
    ok "$name ($got)"
  else
    bad "$name: ibaddr '$want', rdma '$got'"
  fi
}

# expect NAME EXIT_STATUS REGEX RDMA ARGS...: status and a line matching.
expect() {
  local name=$1 status=$2 re=$3
  shift 3
  local out rc
  out=$(run "$RDMA" "$@" 2>&1)
  rc=$?
  if [ "$rc" -eq "$status" ] && grep -qE "$re" <<<"$out"; then
    ok "$name"
  else
    bad "$name: exit $rc, output: $out"
  fi
}

# No line rdma printed in the suite ends in a blank: its InfiniBand views
# trim them (iproute2's netlink views, which keep them, are not run here).
check_line_ends() {
  local n
  n=$(grep -c '[[:blank:]]$' "$WORK/rdma.out" 2>/dev/null)
  if [ "${n:-0}" -eq 0 ]; then
    ok "no line of rdma's ($(wc -l <"$WORK/rdma.out" 2>/dev/null || echo 0)) ends in a blank"
  else
    bad "$n lines of rdma's end in a blank: $(grep -m 3 '[[:blank:]]$' "$WORK/rdma.out" | sed 's/$/|/')"
  fi
}

# compare_json COMPARER NAME KIND "DIAGS COMMANDS" "RDMA ARGS": the
# reference tools' text (d.txt) against rdma -j (o.json), judged by
# COMPARER (a python script beside this file) for that KIND of view.
compare_json() {
  local comparer=$1 name=$2 kind=$3 diags=$4 ours=$5 out
  eval "$diags" >d.txt 2>d.err
  # shellcheck disable=SC2086
  run "$RDMA" -j $ours >o.json 2>o.err
  if out=$(python3 "$HERE/$comparer" "$kind" d.txt o.json 2>&1); then
    ok "$name (${out//$'\n'/; })"
  else
    bad "$name: $out $(cat d.err o.err)"
  fi
}

# opensm with the given options, waited for until it is master.
start_opensm() {
  LD_PRELOAD=$UMAD2SIM opensm "$@" -f "$WORK/osm.log" -s 0 >opensm.out 2>&1 </dev/null &
  OSM_PID=$!
  for _ in $(seq 120); do
    run sminfo 2>/dev/null | grep -q SMINFO_MASTER && break
    sleep 0.5
  done
}
