#!/bin/bash
# The InfiniBand suite: rdma node/port/perf/sm/mad against the OpenFabrics
# simulator, each compared with infiniband-diags on the same fabric.
#   tests/ibsim/run.sh [--rdma PATH]
# Installs nothing (tests/ibsim/setup.sh does). Runs in a temporary
# directory (the simulator's fake sysfs lands there) with its own
# IBSIM_SOCKNAME; stops opensm and ibsim on exit. Ends with
# "N passed, M failed"; exits non-zero on any failure.
set -u
NET=$(cd "$(dirname "$0")" && pwd)/net
# shellcheck source=tests/ibsim/lib.sh
. "$(dirname "$0")/lib.sh"

# Before the subnet manager: GUIDs cannot be resolved, routes work.
out=$(run "$RDMA" node show guid 0x100007 2>&1)
if [ "$out" = 'cannot resolve guid 0x0000000000100007: no subnet manager (the local port has no SM LID); use a LID or "dr"' ]; then
  ok "no subnet manager: GUID target says so"
else
  bad "no subnet manager: GUID target: $out"
fi
out=$(run "$RDMA" sm show 2>&1)
if grep -q '^no subnet manager: local port ibsim0/1 has no SM LID$' <<<"$out"; then
  ok "no subnet manager: sm show says so"
else
  bad "no subnet manager: sm show: $out"
fi
out=$(run "$RDMA" node show dr 0,1 2>&1)
if grep -q '^dr 0,1: type switch .*description "sw1"' <<<"$out"; then
  ok "no subnet manager: directed route works"
else
  bad "no subnet manager: dr: $out"
fi
# QoS (SL2VL, VL arbitration) and partitions of the suite's own, so the
# tables differ between CAs, switch ports and nodes.
start_opensm -F "$HERE/opensm.conf" -P "$HERE/partitions.conf"

# compare NAME KIND "DIAGS COMMAND" "RDMA ARGS": same value for every field.
compare() {
  local name=$1 kind=$2 diags=$3 ours=$4
  # shellcheck disable=SC2086
  run $diags >d.txt 2>d.err
  # shellcheck disable=SC2086
  run "$RDMA" -j -d $ours >o.json 2>o.err
  if out=$(python3 "$HERE/compare.py" "$kind" d.txt o.json 2>&1); then
    ok "$name (${out##*: })"
  else
    bad "$name: $out $(cat d.err o.err)"
  fi
}

# The fabric's LIDs, learnt with infiniband-diags over directed routes.
lid_of() { run smpquery -D portinfo "$1" "${2:-}" 2>/dev/null | sed -n 's/^Lid:\.*//p'; }
HCA1=$(lid_of 0)
SW1=$(lid_of 0,1)
HCA2=$(lid_of 0,1,2 1)
SW2=$(lid_of 0,1,3)
HCA3=$(lid_of 0,1,3,1 1)
HCA4=$(lid_of 0,1,3,2 1)
echo "LIDs: hca1 $HCA1 sw1 $SW1 hca2 $HCA2 sw2 $SW2 hca3 $HCA3 hca4 $HCA4"
if [ -z "$HCA1" ] || [ -z "$HCA4" ]; then
  echo "the fabric did not come up (see $WORK/osm.log)"
  tail -n 20 opensm.out ibsim.log
  echo "0 passed, 1 failed"
  exit 1
fi

# node show: NodeInfo, NodeDescription, SwitchInfo.
for t in "HCA1 $HCA1" "SW1 $SW1" "HCA3 $HCA3" "SW2 $SW2"; do
  set -- $t
  compare "node show lid $2 ($1): NodeInfo = smpquery nodeinfo" nodeinfo "smpquery nodeinfo $2" "node show lid $2"
  compare "node show lid $2 ($1): NodeDescription = smpquery nodedesc" nodedesc "smpquery nodedesc $2" "node show lid $2"
done
compare "node show lid $SW2: SwitchInfo = smpquery switchinfo" switchinfo "smpquery switchinfo $SW2" "node show lid $SW2"
compare "node show dr 0,1,3 = smpquery -D nodeinfo 0,1,3" nodeinfo "smpquery -D nodeinfo 0,1,3" "node show dr 0,1,3"
compare "node show dr 0,1,3,2 = smpquery -D nodedesc" nodedesc "smpquery -D nodedesc 0,1,3,2" "node show dr 0,1,3,2"

# Targets by GUID and GID go through the SA; compare with ibaddr.
G3=$(run smpquery nodeinfo "$HCA3" 2>/dev/null | sed -n 's/^PortGuid:\.*//p')
G3_COLON=$(printf '%016x' "$G3" | sed 's/\(....\)\(....\)\(....\)\(....\)/\1:\2:\3:\4/')
LID_DIAGS=$(run ibaddr -G "$G3" 2>/dev/null | sed -n 's/.*LID start 0x\([0-9a-f]*\).*/\1/p')
GID=$(run ibaddr -G "$G3" 2>/dev/null | sed -n 's/^GID \([^ ]*\) .*/\1/p')
[ -n "$LID_DIAGS" ] && LID_DIAGS=$((16#$LID_DIAGS))
expect "node show guid $G3 (0x form) resolves to ibaddr's lid $LID_DIAGS" 0 "^lid $LID_DIAGS: " node show guid "$G3"
expect "node show guid $G3_COLON (colon form)" 0 "^lid $LID_DIAGS: .*description \"hca3\"" node show guid "$G3_COLON"
expect "node show gid $GID" 0 "^lid $LID_DIAGS: .*description \"hca3\"" node show gid "$GID"
expect "unknown GUID: clear error" 1 "^cannot resolve guid 0x00000000deadbeef: no such port in the subnet$" \
  node show guid 0xdeadbeef
# hca3's node GUID (fabric show prints it) is no port's: its NodeRecord's LID.
N3=$(run smpquery nodeinfo "$HCA3" 2>/dev/null | sed -n 's/^Guid:\.*//p')
expect "node show guid $N3 (hca3's node GUID) = lid $LID_DIAGS" 0 "^lid $LID_DIAGS: .*description \"hca3\"" \
  node show guid "$N3"

# ibaddr: port show's gid, lid and lid_end (a CA, a switch's port 0, by
# GUID through the SA).
addr_check "port show lid $HCA1: gid and LID range = ibaddr -g -L" "$HCA1" lid "$HCA1"
addr_check "port show lid $SW1: gid and LID range = ibaddr -g -L" "$SW1" lid "$SW1"
addr_check "port show guid $G3: gid and LID range = ibaddr -g -L -G" "-G $G3" guid "$G3"

# port show: PortInfo of CA ports, switch ports, a down port.
compare "port show lid $HCA1 port 1 = smpquery portinfo" portinfo "smpquery portinfo $HCA1 1" "port show lid $HCA1 port 1"
compare "port show lid $SW1 port 3 = smpquery portinfo" portinfo "smpquery portinfo $SW1 3" "port show lid $SW1 port 3"
compare "port show lid $SW2 port 7 (down) = smpquery portinfo" portinfo "smpquery portinfo $SW2 7" "port show lid $SW2 port 7"
compare "port show lid $HCA3 port 2 (down) = smpquery portinfo" portinfo "smpquery portinfo $HCA3 2" "port show lid $HCA3 port 2"
compare "port show dr 0,1 port 0 = smpquery -D portinfo" portinfo "smpquery -D portinfo 0,1 0" "port show dr 0,1 port 0"
# Without a port a switch answers with port 0's PortInfo, whose
# LocalPortNum is the port the SMP arrived on (1 by dr 0,1): the label is
# the port smpquery's header names (0), not LocalPortNum; a CA answers
# for its arriving port, which LocalPortNum names.
for t in "dr 0,1|-D portinfo 0,1" "lid $SW2|portinfo $SW2" "dr 0|-D portinfo 0"; do
  # shellcheck disable=SC2086
  d=$(run smpquery ${t#*|} 2>&1)
  # shellcheck disable=SC2086
  o=$(run "$RDMA" -j port show ${t%|*} 2>&1)
  want=$(sed -n 's/^# Port info: .* port \([0-9]*\)$/\1/p' <<<"$d")
  [[ $t == "dr 0|"* ]] && want=$(sed -n 's/^LocalPort:\.*//p' <<<"$d")
  got=$(python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["port"])' <<<"$o" 2>&1)
  if [ -n "$want" ] && [ "$got" = "$want" ]; then
    ok "port show ${t%|*}: port $got, as smpquery ${t#*|}"
  else
    bad "port show ${t%|*}: port '$got', smpquery '$want': $d"
  fi
done
# Keys: smpquery prints the M_Key as "<not displayed>" unless -K; so does
# -d port show (and mad get PortInfo) unless --show-keys, which prints the
# value smpquery -K prints.
mkey=$(run smpquery -K portinfo "$HCA1" 1 2>/dev/null | sed -n 's/^Mkey:\.*//p')
ours=$(run "$RDMA" -j -d --show-keys port show lid "$HCA1" port 1 2>/dev/null |
  python3 -c 'import json,sys; print(int(json.load(sys.stdin)[0]["mkey"], 16))')
if run smpquery portinfo "$HCA1" 1 2>/dev/null | grep -q '^Mkey:\.*<not displayed>$' &&
  [ -n "$mkey" ] && [ "$ours" = "$((mkey))" ]; then
  ok "--show-keys port show: the M_Key smpquery -K shows ($mkey)"
else
  bad "--show-keys port show: smpquery -K $mkey, rdma $ours"
fi
expect "-d port show: M_Key not displayed (a field a line)" 0 "^mkey <not displayed>$" -d port show lid "$HCA1" port 1
expect "mad get PortInfo: M_Key not displayed" 0 " mkey <not displayed> " mad get PortInfo lid "$HCA1" mod 1
expect "-d sm show: SM_Key not displayed" 0 " sm_key <not displayed> " -d sm show
expect "--show-keys -d sm show: the SM_Key" 0 " sm_key 0x[0-9a-f]{16} " --show-keys -d sm show
# The -dd trace decodes hide them too: the SMP header's M_Key, SMInfo's
# SM_Key.
trace=$(run "$RDMA" -dd sm show 2>&1 >/dev/null)
if grep -q '^< .* mkey <not displayed> ' <<<"$trace" && grep -q '^< .* sm_key <not displayed> ' <<<"$trace" &&
  ! grep -qE '(mkey|sm_key) 0x' <<<"$trace"; then
  ok "-dd sm show: keys not displayed in the trace"
else
  bad "-dd sm show: keys in the trace: $trace"
fi
expect "--show-keys -dd sm show: the keys in the trace" 0 '^< .* sm_key 0x[0-9a-f]{16} ' \
  --show-keys -dd sm show
# --mkey-file on the simulator: ibsim keeps no M_Key protection (it
# neither checks nor hides keys, nor keeps mkeyprot or lease), so a file
# changes no view, and its SA's tables come cut (no RMPP), so each port's
# key is chosen once its NodeInfo answered. Protected ports are shown on
# the fake fabric (rdma/ib/mad_keys_test.cc).
pguid=$(run smpquery nodeinfo "$HCA1" 2>/dev/null | sed -n 's/^PortGuid:\.*//p')
printf '# guid2mkey\n%s 0x77\n' "$pguid" >"$WORK/guid2mkey"
plain=$(run "$RDMA" fabric show 2>&1)
keyed=$(run "$RDMA" --mkey-file "$WORK/guid2mkey" fabric show 2>&1)
if [ -n "$pguid" ] && [ -n "$plain" ] && [ "$plain" = "$keyed" ]; then
  ok "--mkey-file fabric show: as without it (ibsim keeps no M_Key protection)"
else
  bad "--mkey-file fabric show: $keyed"
fi
expect "--mkey-file: the port's key in its SMPs (--show-keys -dd)" 0 \
  '^> .* mkey 0x0000000000000077 ' --mkey-file "$WORK/guid2mkey" --show-keys -dd port show lid "$HCA1" port 1
expect "port show: down port is DOWN/POLLING in text" 0 "state DOWN physical_state POLLING" port show lid "$SW2" port 7

# The tables, every entry against smpquery's (opensm.conf and
# partitions.conf make them differ per node type and port): CA ports, switch
# port 0 and external ports, by LID and by directed route.
# kind|smpquery arguments|rdma port show arguments
while IFS='|' read -r kind diags ours <&4; do
  compare "port show $ours = smpquery $diags" "$kind" "smpquery $diags" "port show $ours"
done 4<<EOF
pkeys|pkeys $HCA1|lid $HCA1 pkeys
pkeys|pkeys $HCA3 1|lid $HCA3 port 1 pkeys
pkeys|pkeys $HCA4|lid $HCA4 pkeys
pkeys|-D pkeys 0,1,2|dr 0,1,2 pkeys
pkeys|pkeys $SW1|lid $SW1 pkeys
pkeys|pkeys $SW2 3|lid $SW2 port 3 pkeys
pkeys|pkeys $SW2 7|lid $SW2 port 7 pkeys
guids|guidinfo $HCA1|lid $HCA1 guids
guids|guidinfo $HCA3|lid $HCA3 guids
guids|guidinfo $SW2|lid $SW2 guids
sl2vl|sl2vl $HCA2|lid $HCA2 sl2vl
sl2vl|sl2vl $SW1|lid $SW1 sl2vl
sl2vl|sl2vl $SW2 3|lid $SW2 port 3 sl2vl
sl2vl|-D sl2vl 0,1,3 1|dr 0,1,3 port 1 sl2vl
vlarb|vlarb $HCA1|lid $HCA1 vlarb
vlarb|vlarb $HCA4 1|lid $HCA4 port 1 vlarb
vlarb|vlarb $SW1 2|lid $SW1 port 2 vlarb
vlarb|-D vlarb 0,1,3 4|dr 0,1,3 port 4 vlarb
EOF
# Where a port has no such table: smpquery says so (or shows another
# port's), ours exits 1 with one line.
refused() {  # NAME "DIAGS COMMAND" DIAGS_REGEX RDMA_REGEX RDMA ARGS...
  local name=$1 diags=$2 dre=$3 re=$4 d
  shift 4
  # shellcheck disable=SC2086
  d=$(run $diags 2>&1)
  if grep -qE "$dre" <<<"$d"; then
    expect "$name" 1 "$re" "$@"
  else
    bad "$name: smpquery: $d"
  fi
}
refused "vlarb of a base switch port 0: none (smpquery: BSP0)" "smpquery vlarb $SW1" 'No VLArbitration tables \(BSP0\)' \
  "^lid $SW1 port 0 is a base switch port 0: it has no VL arbitration tables$" port show lid "$SW1" vlarb
refused "pkeys of a port the switch lacks" "smpquery pkeys $SW1 9" 'invalid port number' \
  "^lid $SW1 has no port 9 \(a switch with ports 0-8\)$" port show lid "$SW1" port 9 pkeys
refused "pkeys of CA port 2 reached on port 1 (smpquery shows port 1's)" "smpquery pkeys $HCA1 2" '^ +0: 0xffff' \
  "^lid $HCA1 is a channel adapter: it answers for port 1, where the MAD arrives; " port show lid "$HCA1" port 2 pkeys
expect "guids of a switch external port: none" 1 "^lid $SW2 is a switch: only its port 0 has GUIDs" \
  port show lid "$SW2" port 4 guids

# Partitions (partitions.conf, programmed by opensm): fabric show pkeys
# against every CA's table as smpquery pkeys prints it; fabric check pkeys
# clean, then with tables set by hand (mad set P_KeyTable; opensm, which
# does not sweep again, leaves them): hca4 without the default key (an
# error), hca3 a limited member of 0x0002 like hca4 (a partition of
# limited members only: a warning). ibsim keeps no PortInfo partition
# enforcement bits, so the switch-port comparisons are the double's
# (lib/ib/check_pkeys_test.cc).
{ for l in "$HCA1" "$HCA2" "$HCA3" "$HCA4"; do
    d=$(run smpquery nodedesc "$l" 2>/dev/null | sed 's/^Node Description:\.*//')
    run smpquery pkeys "$l" 2>/dev/null | sed -n "s/^ *[0-9]*: //p" | tr ' ' '\n' | sed "s/^/$d /"
  done; } | grep -v ' 0x0000$' | sort >pk.diags
run "$RDMA" -j fabric show pkeys >pk.json 2>pk.err
python3 -c '
import json, sys
for p in json.load(open("pk.json")):
    for m in p["members"]:
        print(m["description"], "0x%04x" % (int(p["pkey"], 16) | (0x8000 if m["membership"] == "full" else 0)))
' 2>&1 | sort >pk.ours
if [ -s pk.diags ] && diff pk.diags pk.ours >pk.diff; then
  ok "fabric show pkeys = smpquery pkeys of each CA ($(wc -l <pk.ours) keys)"
else
  bad "fabric show pkeys: $(cat pk.diff pk.err)"
fi
expect "fabric show pkeys: 0x0002 with hca3 full and hca4 limited" 0 \
  '^pkey 0x0002 full 1 limited 1$' fabric show pkeys
expect "fabric check pkeys: partitions.conf as opensm programs it, clean" 0 \
  '^summary: 6 nodes checked \(pkeys\), 0 errors, 0 warnings, 0 notes$' fabric check pkeys
# The index of key $2 in the table of LID $1.
pkey_index() {
  run smpquery pkeys "$1" 2>/dev/null | sed -n "s/^ *[0-9]*: //p" | tr ' ' '\n' | grep -n "^$2$" | cut -d: -f1 | head -1
}
i4=$(($(pkey_index "$HCA4" 0xffff) - 1))
i3=$(($(pkey_index "$HCA3" 0x8002) - 1))
run "$RDMA" mad set P_KeyTable lid "$HCA4" "P_KeyTableBlock[$i4]=0" >/dev/null 2>&1
run "$RDMA" mad set P_KeyTable lid "$HCA3" "P_KeyTableBlock[$i3]=0x0002" >/dev/null 2>&1
if run smpquery pkeys "$HCA4" 2>/dev/null | grep -q 0xffff; then
  bad "smpquery pkeys $HCA4: 0xffff still there after mad set"
else
  ok "mad set P_KeyTable: hca4 without 0xffff, as smpquery pkeys reads it"
fi
out=$(run "$RDMA" -d fabric check pkeys 2>&1)
rc=$?
if [ $rc = 1 ] &&
  grep -qE '^check pkeys severity error what "CA port without the default P_Key \(0x7fff or 0xffff\): no way to the SA" where "hca4" 0x[0-9a-f]+ port 1 lid '"$HCA4\$" <<<"$out" &&
  grep -qE '^check pkeys severity warning what "partition whose member ports are all limited: no two of them can talk" detail "pkey 0x0002 members 2" where "hca3" .*; "hca4" ' <<<"$out" &&
  grep -q ', 1 error, 1 warning, 0 notes$' <<<"$out"; then
  ok "fabric check pkeys: the default key missing (error), 0x0002 of limited members (warning)"
else
  bad "fabric check pkeys after mad set ($rc): $out"
fi
run "$RDMA" mad set P_KeyTable lid "$HCA4" "P_KeyTableBlock[$i4]=0xffff" >/dev/null 2>&1
run "$RDMA" mad set P_KeyTable lid "$HCA3" "P_KeyTableBlock[$i3]=0x8002" >/dev/null 2>&1
expect "fabric check pkeys: clean again once the tables are restored" 0 ', 0 errors, 0 warnings' \
  fabric check pkeys

# port peer: each local port and the node behind its cable, against
# smpquery -D through that port (0,1). umad2sim shows hca1 with port 1
# only, so a port without a cable (a record with its state, no peer) is
# the double's (rdma/ib/port_peer_test.cc).
run "$RDMA" -j port peer >peer.json 2>peer.err
prc=$?
pg=$(run smpquery -D nodeinfo 0,1 2>/dev/null | sed -n 's/^Guid:\.*//p')
pp=$(run smpquery -D nodeinfo 0,1 2>/dev/null | sed -n 's/^LocalPort:\.*//p')
pd=$(run smpquery -D nodedesc 0,1 2>/dev/null | sed -n 's/^Node Description:\.*//p')
pl=$(run smpquery -D portinfo 0,1 0 2>/dev/null | sed -n 's/^Lid:\.*//p')
if [ $prc = 0 ] && python3 -c '
import json, sys
j = json.load(open("peer.json"))
g, p, d, l = sys.argv[1:5]
assert len(j) == 1, j
up = j[0]
assert up["peer_node_guid"] == g and up["peer_port"] == int(p), up
assert up["peer_description"] == d and up["peer_lid"] == int(l), up
assert up["peer_type"] == "switch" and up["state"] == "ACTIVE", up
' "$pg" "$pp" "$pd" "$pl" 2>peer.py; then
  ok "port peer = smpquery -D nodeinfo/nodedesc/portinfo 0,1 ($pd port $pp lid $pl)"
else
  bad "port peer ($prc): $(cat peer.json peer.err peer.py) smpquery: $pg $pp $pd $pl"
fi
expect "port peer ibsim0/1: the switch, text" 0 "^dev ibsim0 type ca .* port 1 .*peer_type switch .*peer_port $pp peer_lid $pl peer_description \"$pd\" width 4X " \
  port peer ibsim0/1
expect "port peer of no such port: refused with the choices" 1 \
  '^unknown local InfiniBand port "ibsim0/7" \(ibsim0/1\)' port peer ibsim0/7

# sm show = sminfo.
compare "sm show = sminfo" sminfo "sminfo" "sm show"
compare "sm show lid $HCA1 = sminfo $HCA1" sminfo "sminfo $HCA1" "sm show lid $HCA1"

# perf: counters set in the simulator are read back, equal to perfquery's.
sim 'PerformanceSet "hca4"[1] PortCounters.SymbolErrorCounter=17'
sim 'PerformanceSet "hca4"[1] PortCounters.PortXmitDiscards=5'
sim 'PerformanceSet "hca4"[1] PortCounters.LinkDownedCounter=3'
sleep 1
expect "perf show: PerformanceSet values read back" 0 "symbol_errors 17 link_error_recovery 0 link_downed 3 .*xmit_discards 5 " \
  perf show lid "$HCA4" port 1
compare "perf show lid $HCA4 port 1 = perfquery" perf "perfquery $HCA4 1" "perf show lid $HCA4 port 1"
# port check (ibcheckerrs, ibcheckport): the counter perfquery reads is over
# its threshold (the site's file, else 0): a verdict and exit 1; state
# and width alone pass.
expect "port check: an errored port fails, exit 1" 1 \
  "^lid $HCA4 port 1: errors: SymbolErrorCounter 17 over 0, LinkDownedCounter 3 over 0, PortXmitDiscards 5 over 0$" \
  port check lid "$HCA4"
expect "port check state width: ok, exit 0" 0 "^lid $HCA4 port 1: ok$" port check lid "$HCA4" port 1 state width
expect "port check -j: one object a verdict" 1 \
  "\{\"lid\":$HCA4,\"port\":1,\"check\":\"errors\",\"ok\":false,\"reason\":\"errors: SymbolErrorCounter 17 " \
  -j port check lid "$HCA4" errors
# thresholds FILE: ibqueryerrors' (and ibcheckerrs -T's) NAME=VALUE file,
# as fabric errors takes it: counters at their thresholds pass, one over
# fails alone; a file that cannot be read fails before a MAD is sent.
printf 'SymbolErrorCounter=17\nLinkDownedCounter=3\nPortXmitDiscards=5\n' >thr.conf
expect "port check thresholds FILE: at the thresholds, ok" 0 "^lid $HCA4 port 1: ok$" \
  port check lid "$HCA4" errors thresholds thr.conf
printf 'SymbolErrorCounter=10\nLinkDownedCounter=3\nPortXmitDiscards=5\n' >thr.conf
expect "port check thresholds FILE: one over" 1 \
  "^lid $HCA4 port 1: errors: SymbolErrorCounter 17 over 10$" port check lid "$HCA4" thresholds thr.conf
expect "port check thresholds of no file: exit 2" 2 "nothere" \
  port check lid "$HCA4" thresholds nothere
compare "perf show lid $HCA4 port 1 extended = perfquery -x" perf "perfquery -x $HCA4 1" "perf show lid $HCA4 port 1 extended"
compare "perf show lid $SW2 port 1 = perfquery" perf "perfquery $SW2 1" "perf show lid $SW2 port 1"
compare "perf show (no target: the local port) = perfquery (no destination)" perf "perfquery" "perf show"
# -Y (infiniband-diags' P_Key index for GMPs): index 0, the default
# partition's, reads the same; a bad index names the range, sends nothing.
compare "-Y 0 perf show lid $HCA4 port 1 = perfquery" perf "perfquery $HCA4 1" "-Y 0 perf show lid $HCA4 port 1"
expect "-Y 65536: the range named" 1 '^invalid --pkey-idx "65536" \(expected a P_Key table index, 0-65535\)$' \
  -Y 65536 perf show lid "$HCA4" port 1
# A directed route: resolved to its port's LID first (hca4 is dr
# 0,1,3,2), then that LID's PMA, as ibtool does.
compare "perf show dr 0,1,3,2 port 1 = perfquery $HCA4 1 (the path's LID)" perf "perfquery $HCA4 1" \
  "perf show dr 0,1,3,2 port 1"
expect "perf show dr: the record names the LID asked" 0 "^lid $HCA4: port 1 " perf show dr 0,1,3,2 port 1
expect "perf show port all (AllPortSelect)" 0 "^lid $SW2: port all " perf show lid "$SW2" port all
compare "perf show lid $SW2 port all = perfquery -a" perf "perfquery -a $SW2" "perf show lid $SW2 port all"
compare "perf show lid $SW2 port all extended = perfquery -x -a" perf "perfquery -x -a $SW2" \
  "perf show lid $SW2 port all extended"
sim 'PerformanceSet "sw2"[3] PortCounters.SymbolErrorCounter=9'
sim 'PerformanceSet "sw2"[4] PortCounters.LinkDownedCounter=2'
sleep 1
expect "perf show port all: PerformanceSet values of two ports summed" 0 \
  "^lid $SW2: port all symbol_errors 9 link_error_recovery 0 link_downed 2 " perf show lid "$SW2" port all
run "$RDMA" perf reset lid "$SW2" port all >/dev/null 2>&1
expect "perf reset port all: every port zero" 0 "^lid $SW2: port all symbol_errors 0 link_error_recovery 0 link_downed 0 " \
  perf show lid "$SW2" port all
compare "perf after reset all = perfquery -a" perf "perfquery -a $SW2" "perf show lid $SW2 port all"
run "$RDMA" perf reset lid "$HCA4" port 1 >/dev/null 2>&1
expect "perf reset: counters read back as zero" 0 "symbol_errors 0 link_error_recovery 0 link_downed 0 .*xmit_discards 0 " \
  perf show lid "$HCA4" port 1
compare "perf after reset = perfquery" perf "perfquery $HCA4 1" "perf show lid $HCA4 port 1"

# perf show's groups: the optional PMA attributes ibsim implements, each
# equal to perfquery's option for it; port lists; resets of chosen counters.
sim 'PerformanceSet "hca4"[1] PortRcvErrorDetails.PortLocalPhysicalErrors=11'
sim 'PerformanceSet "hca4"[1] PortRcvErrorDetails.PortLoopingErrors=2'
sim 'PerformanceSet "hca4"[1] PortXmitDiscardDetails.PortSwHOQLifetimeLimitDiscards=4'
sim 'PerformanceSet "hca4"[1] PortVLXmitWaitCounters.PortVLXmitWaitCounters2=21'
sim 'PerformanceSet "hca4"[1] PortOpRcvCounters.PortOpRcvPkts=8'
sim 'PerformanceSet "hca4"[1] PortFlowCtlCounters.PortRcvFlowPkts=6'
sim 'PerformanceSet "hca4"[1] PortVLOpPackets.PortVLOpPackets4=3'
sim 'PerformanceSet "hca4"[1] PortVLOpData.PortVLOpData1=5'
sim 'PerformanceSet "hca4"[1] PortVLXmitFlowCtlUpdateErrors.PortVLXmitFlowCtlUpdateErrors3=2'
sim 'PerformanceSet "sw2"[3] PortVLXmitWaitCounters.PortVLXmitWaitCounters0=30'
sleep 1
expect "perf show details vl: PerformanceSet values read back" 0 \
  "^lid $HCA4: port 1 local_physical_errors 11 .*looping_errors 2 .*sw_hoq_lifetime_limit_discards 4 .*xmit_wait_vl2 21 " \
  perf show lid "$HCA4" port 1 details vl
for t in "-E|details" "-D|details" "--vlxmitcounters|vl" "--oprcvcounters|op" "--vloppackets|op" \
  "--vlopdata|op" "--flowctlcounters|flowctl" "--vlxmitflowctlerrors|flowctl"; do
  opt=${t%|*} group=${t#*|}
  compare "perf show lid $HCA4 port 1 $group = perfquery $opt" pma "perfquery $opt $HCA4 1" \
    "perf show lid $HCA4 port 1 $group"
done
compare "perf show lid $SW2 port 3 vl = perfquery --vlxmitcounters" pma "perfquery --vlxmitcounters $SW2 3" \
  "perf show lid $SW2 port 3 vl"
out=$(run "$RDMA" perf show lid "$SW2" port 1-3,5 vl 2>&1)
if [ "$(grep -c "^lid $SW2: port [1235] xmit_wait_vl0 " <<<"$out")" = 4 ] &&
  grep -q "^lid $SW2: port 3 xmit_wait_vl0 30 " <<<"$out"; then
  ok "perf show port 1-3,5 vl: one record per port"
else
  bad "perf show port 1-3,5 vl: $out"
fi
# A list of ports: perfquery sums none (a list prints each port; -a reads
# port 255 whatever the list), as perf show port N,M lists each.
sim 'PerformanceSet "sw2"[2] PortCounters.PortRcvErrors=6'
sleep 0.5
run perfquery "$SW2" 1,2 >plist.txt 2>/dev/null
run "$RDMA" -j perf show lid "$SW2" port 1,2 >plist.json 2>/dev/null
if out=$(python3 - plist.txt plist.json <<'PY' 2>&1
import json, re, sys
keys = {"SymbolErrorCounter": "symbol_errors", "PortRcvErrors": "rcv_errors",
        "LinkDownedCounter": "link_downed", "PortXmitDiscards": "xmit_discards"}
diags, port = {}, None
for line in open(sys.argv[1]):
    m = re.match(r"^# Port counters: Lid \d+ port (\d+) ", line)
    if m:
        port = int(m.group(1))
        diags[port] = {}
    m = re.match(r"^(\w+):\.*(\d+)$", line.strip())
    if m and port is not None and m.group(1) in keys:
        diags[port][keys[m.group(1)]] = int(m.group(2))
ours = {r["port"]: {k: r[k] for k in keys.values()} for r in json.load(open(sys.argv[2]))}
if diags != ours or list(diags) != [1, 2] or diags[2]["rcv_errors"] != 6:
    sys.exit(f"perfquery {diags}, rdma {ours}")
print(f"ports {sorted(diags)}, each its own")
PY
) && run perfquery -a "$SW2" 1,2 2>/dev/null | grep -q "^# Port counters: Lid $SW2 port 255 "; then
  ok "perf show port 1,2 = perfquery 1,2 ($out); perfquery -a with a list reads port 255"
else
  bad "perf show port 1,2 vs perfquery 1,2: $out"
fi
# A port the switch lacks in a list: refused before anything is reset.
sim 'PerformanceSet "sw2"[3] PortCounters.SymbolErrorCounter=9'
sleep 1
expect "perf reset port 3-9 on an 8-port switch: one line naming port 9" 1 \
  "^lid $SW2 has no port 9 \(a switch with ports 0-8\)$" perf reset lid "$SW2" port 3-9
expect "perf reset port 3-9: port 3 not reset" 0 "^lid $SW2: port 3 symbol_errors 9 " perf show lid "$SW2" port 3
# ibsim lacks PortXmitDataSL and the congestion counters: one warning line
# each, the groups it has still print, exit status 1.
out=$(run "$RDMA" perf show lid "$HCA4" port 1 details sl 2>&1)
rc=$?
if [ $rc = 1 ] && grep -q "^lid $HCA4: port 1 local_physical_errors 11 " <<<"$out" &&
  [ "$(grep -c "^warning: lid $HCA4 port 1: no Port\(Xmit\|Rcv\)DataSL: " <<<"$out")" = 2 ]; then
  ok "perf show sl where the PMA lacks it: a warning per attribute, the rest printed"
else
  bad "perf show sl where the PMA lacks it: exit $rc: $out"
fi
# Nor PortExtendedSpeedsCounters (perfquery -T) and PortSamplesControl
# (perfquery -c): it drops them, so perfquery fails and we warn per port.
out=$(run "$RDMA" perf show lid "$HCA4" port 1 speeds samples 2>&1)
rc=$?
run perfquery -T "$HCA4" 1 >/dev/null 2>&1
qrc=$?
if [ $rc = 1 ] && [ $qrc != 0 ] &&
  grep -q "^warning: lid $HCA4 port 1: no PortExtendedSpeedsCounters: " <<<"$out" &&
  grep -q "^warning: lid $HCA4 port 1: no PortSamplesControl: " <<<"$out"; then
  ok "perf show speeds samples where ibsim lacks them: a warning each, as perfquery -T fails"
else
  bad "perf show speeds samples: exit $rc (perfquery -T $qrc): $out"
fi
# port each: every port in turn though the switch has AllPortSelect (-l);
# caps: ClassPortInfo's CapabilityMask as perfquery prints it.
out=$(run "$RDMA" perf show lid "$SW2" port each 2>&1)
nports=$(run perfquery -l -a "$SW2" 2>/dev/null | grep -c "^# Port counters: .* port [0-9]* ")
if [ "$(grep -c "^lid $SW2: port [0-9]* symbol_errors " <<<"$out")" = "$nports" ] && [ "$nports" -gt 1 ]; then
  ok "perf show port each = perfquery -l -a ($nports ports)"
else
  bad "perf show port each: $nports ports in perfquery -l -a: $out"
fi
caps=$(run perfquery "$SW2" 1 2>/dev/null | sed -n 's/.*(CapMask: 0x\([0-9A-Fa-f]*\)).*/\1/p')
expect "perf caps: perfquery's CapMask, its bits named" 0 \
  "^lid $SW2: base_version 1 class_version 1 caps 0x0*${caps,,} caps_names AllPortSelect,IsExtendedWidthSupported,IsPortXmitWaitSupported caps2 0x0* resp_time " \
  perf caps lid "$SW2"
run "$RDMA" perf show lid "$HCA4" port 1 details vl reset local_physical_errors xmit_wait_vl2 >/dev/null 2>&1
expect "perf show ... reset COUNTER: only those cleared" 0 \
  "^lid $HCA4: port 1 local_physical_errors 0 .*looping_errors 2 .*sw_hoq_lifetime_limit_discards 4 .*xmit_wait_vl2 0 " \
  perf show lid "$HCA4" port 1 details vl
compare "perf after reset of chosen counters = perfquery -E" pma "perfquery -E $HCA4 1" \
  "perf show lid $HCA4 port 1 details"
run "$RDMA" perf reset lid "$HCA4" port 1 details op flowctl vl >/dev/null 2>&1
expect "perf reset GROUP...: every counter of them zero" 0 \
  "^lid $HCA4: port 1 local_physical_errors 0 .*looping_errors 0 .*sw_hoq_lifetime_limit_discards 0 .*xmit_wait_vl2 0 .*op_rcv_pkts 0 .*rcv_flow_pkts 0 " \
  perf show lid "$HCA4" port 1 details vl op flowctl

# mad get and decode; -dd shows request and reply.
expect "mad get NodeInfo by dr" 0 "attribute NodeInfo .*local_port 3 " mad get NodeInfo dr 0,1,3
compare "mad get PortInfo mod 2 = smpquery portinfo" portinfo "smpquery portinfo $SW1 2" "mad get PortInfo lid $SW1 mod 2"
compare "mad get PortCounters port 1 = perfquery" perf "perfquery $SW2 1" "mad get PortCounters lid $SW2 port 1"
expect "mad get ClassPortInfo (PMA)" 0 "attribute ClassPortInfo base_version 1 " mad get ClassPortInfo lid "$SW1"
compare "mad get 0x15 (PortInfo by id) mod 3 = smpquery portinfo" portinfo "smpquery portinfo $SW1 3" \
  "mad get 0x15 lid $SW1 mod 3"
out=$(run "$RDMA" -dd perf show lid "$HCA4" port 1 2>&1 >/dev/null)
if grep -q '^> .*class 0x04 .*attribute PortCounters' <<<"$out" &&
  grep -q '^< .*class 0x04 .*response 1 .*attribute PortCounters' <<<"$out"; then
  ok "-dd of a PMA query: request and reply"
else
  bad "-dd perf: $out"
fi
out=$(run "$RDMA" -dd node show lid "$HCA3" 2>&1 >/dev/null)
if grep -q '^> .*attribute NodeInfo' <<<"$out" && grep -q '^< .*response 1 .*attribute NodeInfo' <<<"$out"; then
  ok "-dd prints the decoded request and reply"
else
  bad "-dd: $out"
fi
hex=$(awk '/^< .*attribute NodeDescription/ {n = 18} n && n-- <= 16' <<<"$out")
expect_decode=$(echo "$hex" | "$RDMA" mad decode 2>&1)
if grep -q 'description "hca3"' <<<"$expect_decode"; then ok "mad decode of a captured reply"; else bad "mad decode: $expect_decode"; fi

# Errors: timeouts after the configured retries, bad targets.
# umad2sim gives an unanswered MAD back at once (ETIMEDOUT): said so, not
# as tries x timeout of waiting.
expect "no answer: timeout after retries" 1 \
  "^no reply to NodeInfo from lid 999 \(3 tries, each given back at once by the local port: Connection timed out\)$" \
  --timeout 200 --retries 2 node show lid 999
tries=$(run "$RDMA" -dd --timeout 200 --retries 2 node show lid 999 2>&1 | grep -c '^> .*attribute NodeInfo')
if [ "$tries" -eq 3 ]; then ok "timeout: 3 tries sent (1 + 2 retries)"; else bad "timeout: $tries tries sent"; fi
expect "unreachable route: clear error" 1 "^no reply to NodeInfo from dr 0,1,7 " --timeout 100 --retries 0 node show dr 0,1,7
expect "no retry: 1 try, singular" 1 \
  "^no reply to NodeInfo from lid 999 \(1 try, given back at once by the local port: Connection timed out\)$" \
  --timeout 100 --retries 0 node show lid 999
expect "LID 65535: the permissive LID, not a multicast one" 1 \
  "^LID 65535 is the permissive LID; a target needs a unicast LID$" node show lid 65535
expect "LID 0xc000: a multicast LID" 1 "^LID 0xc000 is a multicast LID; a target needs a unicast LID$" \
  node show lid 0xc000
expect "bad LID" 1 '^invalid LID "0x" ' node show lid 0x
expect "bad route" 1 '^invalid directed route "0,x" ' node show dr 0,x
expect "unknown device in via" 1 '^no RDMA device "mlx9" with a umad port$' node show lid 1 via mlx9/1
expect "via the simulated device" 0 "^lid $HCA3: " node show lid "$HCA3" via ibsim0/1
# ibdiag.conf (--config FILE; the site's file by default): CA and Port
# choose the local port, as for the diags (ibaddr -z FILE); the line's via
# wins.
printf 'CA=mlx9\nPort=1\ntimeout=0x1f4\n' >diag-bad.conf
printf '#CA=mlx4_0\nCA=ibsim0\nPort=1\n' >diag-good.conf
expect "ibdiag.conf: its CA is the local port" 1 '^no RDMA device "mlx9" with a umad port$' \
  --config diag-bad.conf node show lid 1
expect "ibdiag.conf: the line's via wins" 0 "^lid $HCA3: " --config diag-bad.conf node show lid "$HCA3" via ibsim0/1
expect "ibdiag.conf: -d says what it took" 0 '^ibdiag.conf: diag-good.conf: via ibsim0/1$' \
  -d --config diag-good.conf node show lid "$HCA3"
if run ibaddr -z diag-good.conf "$HCA3" >/dev/null 2>&1 && ! run ibaddr -z diag-bad.conf "$HCA3" >/dev/null 2>&1; then
  ok "ibdiag.conf: ibaddr -z takes and refuses the same two files"
else
  bad "ibdiag.conf: ibaddr -z does not agree on the two files"
fi

# port set: a port disabled is seen down by smpquery and ibportstate.
run "$RDMA" port set lid "$SW2" port 2 disable >/dev/null 2>&1
if run smpquery portinfo "$SW2" 2 2>/dev/null | grep -q '^PhysLinkState:\.*Disabled'; then
  ok "port set disable: smpquery sees Disabled"
else
  bad "port set disable: $(run smpquery portinfo "$SW2" 2 2>&1 | grep PhysLinkState)"
fi
if run ibportstate "$SW2" 2 2>/dev/null | grep -q 'PhysLinkState:\.*Disabled'; then
  ok "port set disable: ibportstate sees Disabled"
else
  bad "port set disable: ibportstate: $(run ibportstate "$SW2" 2 2>&1 | tail -n 3)"
fi
expect "port show after disable" 0 "physical_state DISABLED" port show lid "$SW2" port 2
run "$RDMA" port set lid "$SW2" port 2 enable >/dev/null 2>&1
expect "port set enable: no longer disabled" 0 "physical_state (POLLING|LINK_UP)" port show lid "$SW2" port 2
run "$RDMA" port set lid "$SW2" port 2 reset >/dev/null 2>&1
if run smpquery portinfo "$SW2" 2 2>/dev/null | grep -qE '^PhysLinkState:\.*(Polling|LinkUp)'; then
  ok "port set reset: smpquery sees it up again"
else
  bad "port set reset: $(run smpquery portinfo "$SW2" 2 2>&1 | grep PhysLinkState)"
fi
expect "port set without action" 1 '^missing action: enable, disable, reset, down, arm, active or init, or OP VALUE ' \
  port set lid "$SW2" port 2

# Vendor-class MADs (ibping, ibsysstat, vendstat): ibsim carries none, so
# even with a ping server running (ours or ibping -S) no ping is answered;
# rdma says so in one line, within its tries (the answers themselves are
# tested on the fabric double: rdma/ib/node_vendor_test.cc).
LD_PRELOAD=$UMAD2SIM timeout 20 "$RDMA" node ping serve >serve.out 2>serve.err &
SERVE_PID=$!
sleep 0.5
if run ibping -c 2 -t 200 "$HCA1" 2>/dev/null | grep -q '^2 packets transmitted, 0 received, 100% packet loss'; then
  ok "ibping under ibsim: no answer, as rdma's (the simulator carries no vendor MADs)"
else
  bad "ibping under ibsim: $(run ibping -c 2 -t 200 "$HCA1" 2>&1 | tail -n 2)"
fi
start=$(date +%s%N)
expect "node ping under ibsim: the summary, and no answer said in one line" 1 \
  "^error: no answer from lid $HCA1: is a ping server running there \(rdma node ping serve\)\?$" \
  --timeout 200 node ping "$HCA1" count 2 flood
ms=$((($(date +%s%N) - start) / 1000000))
if [ "$ms" -lt 5000 ]; then ok "node ping: bounded ($ms ms for 2 pings of 4 tries of 200 ms)"; else bad "node ping took $ms ms"; fi
kill -TERM "$SERVE_PID" 2>/dev/null
wait "$SERVE_PID"
rc=$?
if [ "$rc" -eq 0 ] && [ ! -s serve.out ] && ! grep -v 'sim_connect: attached' serve.err | grep -q .; then
  ok "node ping serve: registered its class under umad2sim, SIGTERM ends it with 0"
else
  bad "node ping serve: exit $rc, $(cat serve.out serve.err)"
fi
expect "node sysstat under ibsim: the query named" 1 "^no reply to sysstat host from lid $HCA1 \(4 tries" \
  --timeout 200 node sysstat "$HCA1" host
expect "node vendor under ibsim: vendstat's ClassPortInfo unanswered" 1 \
  "^no reply to ClassPortInfo from lid $SW2 \(4 tries" --timeout 200 node vendor lid "$SW2"
expect "node vendor config under ibsim: vendstat -R's record read unanswered" 1 \
  "^no reply to config space read from lid $SW2 \(4 tries" --timeout 200 node vendor lid "$SW2" config read 10113c

check_line_ends
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
