#!/bin/bash
# The fabric check suite on fabric.net (three switches, parallel links, a
# dual-homed HCA), opensm programming min-hop tables: rdma fabric check on
# the healthy fabric (no error, no credit loop on the tree), route show all
# against dump_fts, route users against ibfindnodesusing on every
# switch-to-switch port; the multicast half of the routes check on the
# broadcast group once the HCAs joined it (healthy, then its MFT entries
# damaged with rdma mad set: a loop over the parallel links, a bit to a
# down port, a switch cut off); the SM stopped and an ISL unlinked (the
# tables' entries into the dead ports found, at both ends); then a
# duplicate LID (the console's Baselid; no SM sweeps again) found as
# ibidsverify finds it.
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
expect "fabric check: exit 0" 0 '^summary: 8 nodes checked \(ids,links,sm,routes,credit,balance,errors,pkeys\), 0 errors' \
  fabric check
expect "fabric check sm: opensm is the master" 0 '^check sm severity info what "SM master' \
  fabric check sm
if run "$RDMA" fabric check 2>/dev/null | grep -q 'severity error'; then
  bad "fabric check: an error on the healthy fabric"
else
  ok "fabric check: no error on the healthy fabric"
fi
run "$RDMA" -j fabric check >check.json 2>/dev/null
if python3 -c 'import json,sys; j=json.load(open("check.json")); sys.exit(0 if j and all(set(f) >= {"check", "severity", "what"} and f["severity"] != "error" for f in j) else 1)'; then
  ok "fabric check -j: findings only, one shape, no error"
else
  bad "fabric check -j: $(cat check.json)"
fi

# The error counters over threshold are a check of their own: two ports of
# one kind are one line with a count (-d: each), errors exit 1; severity
# filters; a check given twice is refused.
sim 'PerformanceSet "s2"[3] PortCounters.SymbolErrorCounter=17'
sim 'PerformanceSet "h2"[1] PortCounters.PortRcvErrors=4'
expect "fabric check: counters over threshold are errors, one line with the count, exit 1" 1 \
  '^check errors severity error what "error counters over threshold" count 2 first "(s2|h2)" 0x[0-9a-f]+ port [13] ' \
  fabric check
out=$(run "$RDMA" -d fabric check errors 2>&1)
if grep -qE '^check errors severity error what "error counters over threshold" detail "symbol_errors 17" where "s2" 0x[0-9a-f]+ port 3 ' <<<"$out" &&
  grep -qE '^check errors severity error what "error counters over threshold" detail "rcv_errors 4" where "h2" 0x[0-9a-f]+ port 1 ' <<<"$out"; then
  ok "-d fabric check errors: each port, as fabric errors finds them"
else
  bad "-d fabric check errors: $out"
fi
out=$(run "$RDMA" fabric check sm errors severity error 2>&1)
if ! grep -q 'severity info' <<<"$out" && grep -q ', 2 errors, 0 warnings, 0 notes$' <<<"$out"; then
  ok "fabric check severity error: the SM's note left out"
else
  bad "fabric check severity error: $out"
fi
expect "fabric check ids ids: refused" 2 '^fabric check "ids" given twice$' fabric check ids ids
sim 'PerformanceSet "s2"[3] PortCounters.SymbolErrorCounter=0'
sim 'PerformanceSet "h2"[1] PortCounters.PortRcvErrors=0'
expect "fabric check errors: none once cleared, exit 0" 0 '^summary: 8 nodes checked \(errors\), 0 errors' \
  fabric check errors
# The healthy fabric saved, for `since` once an ISL is cut below.
run "$RDMA" fabric save healthy.fabric 2>/dev/null

# Every switch's table at once.
compare "route show all = dump_fts" fts "run dump_fts" "route show all"
compare "route show all all-entries = dump_fts -a" fts "run dump_fts -a" \
  "route show all all-entries"

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

# The tree has no credit loop (the ring's is in check_loops.sh).
expect "fabric check credit: none on the tree" 0 '^summary: 8 nodes checked \(credit\), 0 errors' \
  fabric check credit

# Multicast. opensm made the IPoIB broadcast group with no member, so no
# switch forwards it yet; every HCA port joins it (mcast_join.py, a proxy
# join trusted by the SM_Key, as route.sh) and opensm programs the MFTs.
expect "fabric check routes: no MLID in use before the joins" 0 '^summary: 8 nodes checked \(routes\), 0 errors, 0 warnings, 0 notes' \
  fabric check routes
lids=$(run "$RDMA" -j fabric show cas 2>/dev/null | python3 -c 'import json,sys; print(*[l for n in json.load(sys.stdin) for l in n["lids"]])')
joined=0
for l in $lids; do
  g=$(run "$RDMA" -j node show lid "$l" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["port_guid"])')
  run python3 "$HERE/mcast_join.py" 1 ff12:401b:ffff::ffff:ffff "$g" 1 >/dev/null && joined=$((joined + 1))
done
[ "$joined" -eq 6 ] && ok "6 HCA ports joined the broadcast group" || bad "joined: $joined of $lids"
switch_lid() {
  run "$RDMA" -j fabric show switches 2>/dev/null |
    python3 -c 'import json,sys; print([n for n in json.load(sys.stdin) if n["description"] == sys.argv[1]][0]["lids"][0])' "$1"
}
s1=$(switch_lid s1) s2=$(switch_lid s2) s3=$(switch_lid s3)
# mask LID: the MFT entry of MLID 0xc000 (block 0, ports 0-15) on a switch,
# read by name (setmask writes it by id).
mask() {
  run "$RDMA" -j mad get MulticastForwardingTable lid "$1" mod 0 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["port_mask"][0])'
}
for _ in $(seq 20); do [ "$(mask "$s3")" != 0x0000 ] && break; sleep 0.5; done
m1=$(mask "$s1") m2=$(mask "$s2") m3=$(mask "$s3")
expect "fabric check routes: the group's tree, no error (s1 $m1, s2 $m2, s3 $m3)" 0 \
  '^check routes severity info what "multicast: 1 MLID in use \(0xc000 on 3 switches\)"' fabric check routes
if run "$RDMA" fabric check routes 2>&1 | grep -E 'severity (error|warning)'; then
  bad "fabric check routes: a multicast finding on the healthy group"
else
  ok "fabric check routes: nothing wrong with the healthy group"
fi
# setmask LID MASK: the entry written back (rdma mad set; opensm, not
# sweeping, leaves it so).
setmask() { run "$RDMA" mad set 0x1b lid "$1" mod 0 "PortMask[0]=$2" >/dev/null 2>&1; }
# Both parallel links s1-s2 (ports 3 and 4 at both ends) in the tree: a loop.
setmask "$s1" "$(printf '0x%04x' $((m1 | 0x18)))"
setmask "$s2" "$(printf '0x%04x' $((m2 | 0x18)))"
expect "fabric check routes: both parallel links in the tree are a multicast loop, exit 1" 1 \
  '^check routes severity error what "multicast loop: MLID 0xc000 goes round \\?"s[12]\\?" port [34] -> \\?"s[12]\\?" port [34] -> \\?"s[12]' \
  fabric check routes
setmask "$s1" "$m1"
setmask "$s2" "$m2"
# s3's unconnected port 3 in its entry; s2 no longer sending to s3.
setmask "$s3" "$(printf '0x%04x' $((m3 | 0x8)))"
expect "fabric check routes: a bit to a down port, named" 1 \
  "^check routes severity error what \"MLID 0xc000 sent to port 3, which has no link \(DOWN\)\" where \"s3\" 0x[0-9a-f]+ port 3 lid $s3" \
  fabric check routes
setmask "$s2" "$(printf '0x%04x' $((m2 & ~0x40)))"
expect "fabric check routes: s3 cut off from the group with h5" 1 \
  "^check routes severity error what \"MLID 0xc000: switch cut off from the group's tree with 1 member port\" where \"s3\" .*; \"h5\" .* port 1 " \
  fabric check routes
setmask "$s2" "$m2"
setmask "$s3" "$m3"
expect "fabric check routes: the tree as it was" 0 '^summary: 8 nodes checked \(routes\), 0 errors, 0 warnings, 1 note' \
  fabric check routes

# The SM gone, then an ISL dies: the tables still send into the dead port.
# opensm is stopped as lib.sh stops it; ibsim unlinks s1 port 3 (one of
# the parallel links to s2, so every node is still reached by the other).
kill "$OSM_PID" 2>/dev/null && wait "$OSM_PID" 2>/dev/null
OSM_PID=""
sim 'Unlink "s1"[3]'
sleep 1
# -d: every finding (text groups those of one kind).
run "$RDMA" -d fabric check routes >routes.txt 2>&1
rc=$?
for s in s1 s2; do
  if [ "$rc" -eq 1 ] && grep -qE "^check routes severity error what \"LID [0-9]+ sent to port 3, which has no link \(DOWN\)\" where \"$s\" 0x[0-9a-f]+ port 3 " routes.txt; then
    ok "SM gone, ISL down: $s's entries into its dead port 3, exit 1"
  else
    bad "SM gone, ISL down: $s: exit $rc, output: $(cat routes.txt)"
  fi
done
# The cut ISL: no link to see in the live fabric, a link down since the
# saved one.
expect "fabric check links since FILE: the cut ISL is an error, exit 1" 1 \
  '^check links severity error what "link up in the saved fabric is down" where "s[12]" 0x[0-9a-f]+ port 3 lid [0-9]+; "s[12]" 0x[0-9a-f]+ port 3 ' \
  fabric check links since healthy.fabric
if run "$RDMA" fabric check links 2>/dev/null | grep -q 'severity error'; then
  bad "fabric check links without since: an error"
else
  ok "fabric check links without since: the cut link is not seen"
fi
# The broadcast group's tree went over that link when opensm chose it (it
# did: the masks above): its entries into the dead ports too.
for s in s1 s2; do
  m=$m1
  [ "$s" = s2 ] && m=$m2
  [ $((m & 0x8)) -ne 0 ] || continue
  if grep -qE "^check routes severity error what \"MLID 0xc000 sent to port 3, which has no link \(DOWN\)\" where \"$s\" 0x[0-9a-f]+ port 3 " routes.txt; then
    ok "SM gone, ISL down: $s's multicast entry into its dead port 3"
  else
    bad "SM gone, ISL down: $s's multicast entry: $(cat routes.txt)"
  fi
done

# A duplicate LID: h4's port gets h2's. opensm runs with no periodic sweep
# (-s 0), so it stays until the next sweep.
h2=$(run "$RDMA" -j fabric show cas 2>/dev/null |
  python3 -c 'import json,sys; print([n for n in json.load(sys.stdin) if n["description"] == "h2"][0]["lids"][0])')
sim "Baselid \"h4\"[1] $h2"
sleep 1
expect "fabric check ids: the duplicate LID, exit 1" 1 "^check ids severity error what \"duplicate LID $h2 on 2 ports\"" \
  fabric check ids
compare "fabric check ids = ibidsverify" ids "run ibidsverify -R" "fabric check ids"

check_line_ends
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
