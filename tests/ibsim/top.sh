#!/bin/bash
# The fabric top suite on a generated fat tree: a loop raises one port's
# transmit data counter (the console's PerformanceSet) while `rdma fabric
# top` watches. Without a terminal (-j): one JSON document an interval, the
# raised port first with its rate. In a real terminal (tmux, which runs
# without the simulator's preload; only rdma has it): the port reaches the
# top row, a key sorts by another column, `/` filters by name, a resize
# redraws to the new size, and q quits and gives the shell's screen back.
#   tests/ibsim/top.sh [--rdma PATH]
# Ends with "N passed, M failed"; exits non-zero on any failure.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
GEN=$(mktemp /tmp/rdma-top-net.XXXXXX)
python3 "$HERE/../../bench/fattree.py" --nodes 60 --link "w=8 s=7" >"$GEN" 2>/dev/null
NET=$GEN
# shellcheck source=tests/ibsim/lib.sh
. "$(dirname "$0")/lib.sh"
rm -f "$GEN"
command -v tmux >/dev/null || { bad "tmux is not installed (tests/ibsim/setup.sh)"; echo "$PASS passed, $FAIL failed"; exit 1; }

start_opensm

# raise NODE PORT SECONDS: PortXmitData (both forms) up by 25,000,000 words
# (100 MB) every half second, in the background; its PID in RAISER.
raise() {
  local node=$1 port=$2 n=$(($3 * 2)) v=0 i
  (for i in $(seq "$n"); do
     v=$((v + 25000000))
     sim "PerformanceSet \"$node\"[$port] PortCounters.PortXmitData=$((v % 4294967295))"
     sim "PerformanceSet \"$node\"[$port] PortCountersExtended.PortXmitData=$v"
     sleep 0.5
   done) &
  RAISER=$!
}

# Without a terminal, JSON: a document an interval. Polled (at most 40 s)
# until two snapshots in a row show the raised port first at about 200
# MB/s, then the watch is stopped (SIGTERM ends it normally, its last
# document whole): a fixed -c 2 flaked under load, its first snapshot
# taken before the raise showed.
cat >top_seen.py <<'PY'
import json, sys
docs = []
for line in open(sys.argv[1]):
    try:
        docs.append(json.loads(line))
    except ValueError:
        pass  # the line being written
def good(d):
    return (bool(d) and d[0]["port"] == "leaf-001/5" and d[0]["peer"].startswith("hca-") and
            150e6 <= d[0].get("xmit_bytes_per_second", 0) <= 250e6)
for i in range(len(docs) - 1):
    if good(docs[i]) and good(docs[i + 1]):
        print("snapshots %d and %d of %d" % (i + 1, i + 2, len(docs)))
        sys.exit(0)
def first(d):
    if not d:
        return "no port moved"
    return "%s (peer %s) %.0f B/s" % (d[0].get("port"), d[0].get("peer"),
                                      d[0].get("xmit_bytes_per_second", -1))
# What it saw: the first port of each snapshot, the last eight.
seen = ["%d: %s" % (i + 1, first(d)) for i, d in enumerate(docs)][-8:]
print("; ".join(seen) or "no snapshot")
sys.exit(1)
PY
raise leaf-001 5 40
LD_PRELOAD=$UMAD2SIM IBSIM_SOCKNAME=$IBSIM_SOCKNAME "$RDMA" -j -w 1 -c 60 fabric top >top.json 2>top.err &
TOP=$!
seen=""
end=$((SECONDS + 40))
while [ "$SECONDS" -lt "$end" ]; do
  seen=$(python3 top_seen.py top.json) && break
  kill -0 "$TOP" 2>/dev/null || { seen="rdma exited: $seen"; break; }
  sleep 0.25
done
kill -TERM "$TOP" 2>/dev/null
wait "$TOP"
rc=$?
kill "$RAISER" 2>/dev/null
wait "$RAISER" 2>/dev/null
if python3 top_seen.py top.json >/dev/null; then
  ok "-j -w 1: the raised port first, about 200 MB/s, in two snapshots in a row ($seen)"
else
  bad "-j -w 1: no two snapshots in a row with leaf-001/5 first at 150-250 MB/s; saw $seen"
fi
[ "$rc" -eq 0 ] && ok "-j -w 1: SIGTERM ends the watch, exit 0" || bad "-j: exit $rc: $(grep -v 'sim_connect: attached' top.err)"
if python3 -c 'import json, sys; [json.loads(l) for l in open(sys.argv[1]) if l.strip()]' top.json; then
  ok "-j: every document whole after SIGTERM"
else
  bad "-j: a document cut short: $(tail -c 300 top.json)"
fi

# In tmux: a 100x20 terminal.
SOCK=$WORK/tmux.sock
T="tmux -S $SOCK"
screen_text() { $T capture-pane -p -t top; }
wait_for() {  # PATTERN SECONDS: until the screen shows it
  local i
  for i in $(seq $(($2 * 4))); do
    screen_text | grep -qE "$1" && return 0
    sleep 0.25
  done
  return 1
}
raise leaf-002 7 20
$T new-session -d -s top -x 100 -y 20 \
  "sh -c 'echo \$\$ >$WORK/top.pid; exec env LD_PRELOAD=$UMAD2SIM IBSIM_SOCKNAME=$IBSIM_SOCKNAME $RDMA -w 1 fabric top 2>$WORK/tty.err'; sleep 30"
if wait_for '^leaf-002/7 ' 8; then
  ok "tmux: leaf-002/7 reaches the top row"
else
  bad "tmux: $(screen_text | head -5)"
fi
screen_text | sed -n 2p | grep -q '\*UTIL' && ok "tmux: sorted by UTIL at first" || bad "tmux: head $(screen_text | sed -n 2p)"
[ "$(screen_text | awk 'length > 100' | wc -l)" -eq 0 ] && ok "tmux: no line wider than the terminal" ||
  bad "tmux: lines wider than 100"
$T send-keys -t top e
wait_for '\*ERRORS' 3 && ok "tmux: e sorts by errors" || bad "tmux: after e: $(screen_text | sed -n 1,2p)"
$T send-keys -t top / h c a - 0 0 0 0 3 Enter
if wait_for 'filter: hca-00003' 3 && ! screen_text | sed -n '3,$p' | grep -v -e 'filter:' -e '^$' | grep -qv 'hca-00003'; then
  ok "tmux: / filters by name (every row names hca-00003)"
else
  bad "tmux: filter: $(screen_text)"
fi
$T send-keys -t top / Escape
$T resize-window -t top -x 60 -y 12
sleep 1.5
lines=$(screen_text | awk 'length > 0' | wc -l)
wide=$(screen_text | awk 'length > 60' | wc -l)
[ "$wide" -eq 0 ] && [ "$lines" -le 12 ] && [ "$lines" -ge 5 ] &&
  ok "tmux: resized to 60x12, redrawn to fit ($lines lines)" || bad "tmux: after resize: $lines lines, $wide wide: $(screen_text)"
$T send-keys -t top q
sleep 1
if ! kill -0 "$(cat "$WORK/top.pid")" 2>/dev/null; then ok "tmux: q quits"; else bad "tmux: still running after q"; fi
screen_text | grep -q 'rdma fabric top' && bad "tmux: the top screen is still shown after q" ||
  ok "tmux: the shell's screen is back (alternate screen left)"
# (but umad2sim's own line on attaching)
grep -v 'sim_connect: attached' "$WORK/tty.err" | grep -q . && bad "tmux: stderr: $(cat "$WORK/tty.err")" ||
  ok "tmux: nothing on stderr"
$T kill-server 2>/dev/null
kill "$RAISER" 2>/dev/null
wait "$RAISER" 2>/dev/null

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
