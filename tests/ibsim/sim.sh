#!/bin/bash
# Runs a shell command against the OpenFabrics simulator, for trying rdma's
# InfiniBand commands on a machine without InfiniBand:
#   tests/ibsim/sim.sh [--net FILE] [--no-sm] 'rdma fabric show; rdma node show lid 2'
# Starts ibsim on FILE (default: the suite's fabric, tests/ibsim/net) and
# opensm (unless --no-sm), runs the command with the umad2sim preload (and
# `rdma` meaning build/rdma), then stops both. Needs tests/ibsim/setup.sh.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
NET=$HERE/net
SM=1
while [ $# -gt 1 ]; do
  case $1 in
    --net) NET=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
    --no-sm) SM=0; shift ;;
    *) break ;;
  esac
done
[ $# -eq 1 ] || { echo "usage: $0 [--net FILE] [--no-sm] 'COMMANDS'" >&2; exit 2; }
UMAD2SIM=/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so
command -v ibsim >/dev/null && [ -f "$UMAD2SIM" ] || { echo "run tests/ibsim/setup.sh first" >&2; exit 1; }
WORK=$(mktemp -d /tmp/rdma-sim.XXXXXX)
export IBSIM_SOCKNAME=rdma-sim-$$ OSM_TMP_DIR=$WORK OSM_CACHE_DIR=$WORK
mkdir -p "$WORK/bin"
ln -s "$HERE/../../build/rdma" "$WORK/bin/rdma"
cd "$WORK" || exit 1
ibsim -s "$NET" </dev/null >ibsim.log 2>&1 &
SIM=$!
OSM=""
trap '[ -n "$OSM" ] && kill $OSM 2>/dev/null && wait $OSM 2>/dev/null; kill $SIM 2>/dev/null; wait $SIM 2>/dev/null; cd /; rm -rf "$WORK"' EXIT
for _ in $(seq 50); do grep -q "simulator ready" ibsim.log && break; sleep 0.2; done
if [ $SM = 1 ]; then
  LD_PRELOAD=$UMAD2SIM opensm -f "$WORK/osm.log" -s 0 </dev/null >/dev/null 2>&1 &
  OSM=$!
  for _ in $(seq 120); do
    LD_PRELOAD=$UMAD2SIM sminfo 2>/dev/null | grep -q SMINFO_MASTER && break
    sleep 0.5
  done
fi
PATH=$WORK/bin:$PATH LD_PRELOAD=$UMAD2SIM bash -c "$1" 2> >(grep -v 'sim_connect: attached' >&2)
