#!/bin/bash
# The fabric check suite on fabric.net (three switches, parallel links, a
# dual-homed HCA), opensm programming min-hop tables: rdma fabric check on
# the healthy fabric (no error), route show all against dump_fts, route
# users against ibfindnodesusing on every switch-to-switch port, then a
# duplicate LID (the console's Baselid; opensm does not sweep again) found
# as ibidsverify finds it.
#   tests/ibsim/check.sh [--rdma PATH]
# Ends with "N passed, M failed"; exits non-zero on any failure.
set -u
NET=$(cd "$(dirname "$0")" && pwd)/fabric.net
# shellcheck source=tests/ibsim/lib.sh
. "$(dirname "$0")/lib.sh"

# compare NAME KIND "DIAGS COMMANDS" "RDMA ARGS" (lib.sh's compare_json)
compare() { compare_json check_compare.py "$@"; }

start_opensm

# The healthy fabric: the master SM, no error, exit 0.
expect "fabric check: exit 0" 0 '^summary: 8 nodes checked \(ids,links,sm,routes,credit,balance\), 0 errors' \
  fabric check
expect "fabric check sm: opensm is the master" 0 '^check sm severity info what "SM master' \
  fabric check sm
if run "$RDMA" fabric check 2>/dev/null | grep -q 'severity error'; then
  bad "fabric check: an error on the healthy fabric"
else
  ok "fabric check: no error on the healthy fabric"
fi
run "$RDMA" -j fabric check >check.json 2>/dev/null
if python3 -c 'import json,sys; j=json.load(open("check.json")); sys.exit(0 if "summary" in j[-1] and j[-1]["summary"]["errors"] == 0 else 1)'; then
  ok "fabric check -j: the summary last"
else
  bad "fabric check -j: $(cat check.json)"
fi

# Every switch's table at once.
compare "route show all = dump_fts" fts "run dump_fts" "route show all"

# ibfindnodesusing on every port between two switches.
{ run ibswitches; } >switches.txt 2>/dev/null
run ibnetdiscover >topo.txt 2>/dev/null
awk '/^Switch/ {g = $3; sub(/^"S-/, "0x", g); sub(/"$/, "", g)}
     /^\[[0-9]+\]\t"S-/ {p = $1; gsub(/[][]/, "", p); print g, p}' topo.txt >isl.txt
[ -s isl.txt ] && ok "$(wc -l <isl.txt) switch-to-switch ports" || bad "no switch links in ibnetdiscover"
while read -r g p; do
  compare "route users guid $g port $p = ibfindnodesusing $g $p" users \
    "run ibfindnodesusing -R $g $p" "route users guid $g port $p"
done <isl.txt

# A duplicate LID: h4's port gets h2's. opensm runs with no periodic sweep
# (-s 0), so it stays until the next sweep.
h2=$(run "$RDMA" -j fabric show cas 2>/dev/null |
  python3 -c 'import json,sys; print([n for n in json.load(sys.stdin) if n["description"] == "h2"][0]["lids"][0])')
sim "Baselid \"h4\"[1] $h2"
sleep 1
expect "fabric check ids: the duplicate LID, exit 1" 1 "^check ids severity error what \"duplicate LID $h2 on 2 ports\"" \
  fabric check ids
compare "fabric check ids = ibidsverify" ids "run ibidsverify -R" "fabric check ids"

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
