#!/bin/bash
# The attribute-writing suite: rdma mad get / mad set against the
# OpenFabrics simulator, read back with infiniband-diags (smpquery,
# smpdump, perfquery) and saquery; sa set guid / sa delete guid read back
# with saquery. ibsim applies PortInfo Sets of width, speed and VLs; it
# answers congestion control MADs wrongly, so `rdma cc` is covered by the
# unit tests' fabric double (rdma/ib/cc_test.cc), as are PortInfoExtended
# and MlnxExtPortInfo Sets (rdma/ib/mad_set_test.cc).
#   tests/ibsim/madset.sh [--rdma PATH]
# Ends with "N passed, M failed"; exits non-zero on any failure.
set -u
NET=$(cd "$(dirname "$0")" && pwd)/net
# shellcheck source=tests/ibsim/lib.sh
. "$(dirname "$0")/lib.sh"

start_opensm

lid_of() { run smpquery -D portinfo "$1" "${2:-}" 2>/dev/null | sed -n 's/^Lid:\.*//p'; }
SW1=$(lid_of 0,1)
HCA2=$(lid_of 0,1,2 1)
SW2=$(lid_of 0,1,3)
HCA4=$(lid_of 0,1,3,2 1)
echo "LIDs: sw1 $SW1 hca2 $HCA2 sw2 $SW2 hca4 $HCA4"
if [ -z "$SW1" ] || [ -z "$HCA4" ]; then
  echo "the fabric did not come up (see $WORK/osm.log)"
  echo "0 passed, 1 failed"
  exit 1
fi

# smp_field LID PORT FIELD: the field's value as smpquery portinfo prints it.
smp_field() { run smpquery portinfo "$1" "$2" 2>/dev/null | sed -n "s/^$3:\.*//p"; }
# json_field FILE KEY: a key of the first record of rdma -j output.
json_field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[0][sys.argv[2]])' "$@"; }

# mad get of PortInfo = smpquery portinfo, field by field (what both print).
run "$RDMA" -j mad get PortInfo lid "$SW2" mod 3 >pi.json 2>pi.err
for f in "LinkWidthEnabled width_enabled" "LinkSpeedEnabled speed_enabled" "VLCap vl_cap" \
  "OperVLs oper_vls" "Lid lid" "MtuCap mtu_cap"; do
  set -- $f
  d=$(run smpquery portinfo "$SW2" 3 2>/dev/null | sed -n "s/^$1:\.*//p")
  o=$(json_field pi.json "$2" 2>&1)
  case "$d" in "$o"* | *"$o"*) ok "mad get PortInfo $2 = smpquery $1 ($o)" ;;
    *) bad "mad get PortInfo $2: rdma '$o', smpquery '$d' $(cat pi.err)" ;;
  esac
done

# mad set PortInfo: width and speed enabled, read back by smpquery (ibsim
# keeps OperationalVLs of an active port as they are).
out=$(run "$RDMA" mad set PortInfo lid "$SW2" mod 3 LinkWidthEnabled=1X LinkSpeedEnabled=0x3 2>&1)
rc=$?
if [ $rc -eq 0 ] && grep -q "width_enabled 1X " <<<"$out"; then
  ok "mad set PortInfo: the answer shows the new LinkWidthEnabled"
else
  bad "mad set PortInfo: exit $rc: $out"
fi
w=$(smp_field "$SW2" 3 LinkWidthEnabled)
s=$(smp_field "$SW2" 3 LinkSpeedEnabled)
if [[ $w == 1X* && $s == "2.5 Gbps or 5.0"* ]]; then
  ok "mad set PortInfo read back by smpquery ($w, $s)"
else
  bad "mad set PortInfo read back by smpquery: width '$w' speed '$s'"
fi
run "$RDMA" mad set PortInfo lid "$SW2" mod 3 LinkWidthEnabled=4X LinkSpeedEnabled=2.5 >/dev/null 2>&1
w=$(smp_field "$SW2" 3 LinkWidthEnabled)
s=$(smp_field "$SW2" 3 LinkSpeedEnabled)
[[ $w == 4X* && $s == 2.5* ]] && ok "mad set PortInfo back to 4X, 2.5 ($w, $s)" ||
  bad "mad set PortInfo back: '$w' '$s'"

# A write is read back: ibsim's SMA keeps no partition enforcement bits, so
# its answer to the Set still has 0; rdma says so and exits 1, and
# smpquery reads the same 0.
expect "mad set PortInfo: the field the port did not take is said" 1 \
  '^warning: PortInfo did not take PartitionEnforcementInbound=1 \(it has 0\)$' \
  mad set PortInfo lid "$SW2" mod 3 PartitionEnforcementInbound=1
e=$(smp_field "$SW2" 3 PartEnforceInb)
[ "$e" = 0 ] && ok "smpquery: PartEnforceInb still 0" || bad "smpquery PartEnforceInb: '$e'"

# Wrong words: nothing is sent (smpquery sees the same value).
# port N is PortInfo's modifier (its port), as smpquery portinfo LID PORT.
a=$(run "$RDMA" mad get PortInfo lid "$SW2" port 3 2>&1)
b=$(run "$RDMA" mad get PortInfo lid "$SW2" mod 3 2>&1)
if [ -n "$a" ] && [ "$a" = "$b" ] && grep -q "^lid $SW2: attribute PortInfo " <<<"$a"; then
  ok "mad get PortInfo port 3: as mod 3"
else
  bad "mad get PortInfo port 3: '$a', mod 3: '$b'"
fi
expect "mad get PortInfo port and mod: one of them" 1 "^\"port\" and \"mod\" together: " \
  mad get PortInfo lid "$SW2" port 3 mod 3
expect "mad get NodeInfo port: its modifier holds no port" 1 'NodeInfo takes "mod N"$' \
  mad get NodeInfo lid "$SW2" port 3
expect "mad set: unknown field" 1 '^unknown PortInfo field "Wdth" \(' \
  mad set PortInfo lid "$SW2" mod 3 Wdth=1X
expect "mad set: value out of range" 1 '^value 300 out of range for LinkWidthEnabled \(8 bits: 0 to 255\)$' \
  mad set PortInfo lid "$SW2" mod 3 LinkWidthEnabled=300
# A Set ibsim refuses: NodeInfo is read-only.
expect "mad set NodeInfo: refused, one line" 1 '^NodeInfo Set to lid [0-9]+ failed: status 0x' \
  mad set NodeInfo lid "$SW2" NumPorts=3
expect "mad set -d: the Set sent and its answer" 0 '^< .*method 0x01 ' \
  -d mad set PortInfo lid "$SW2" mod 3 LinkWidthEnabled=1X,4X

# PMA: PortCounters Set clears what CounterSelect selects.
sim 'PerformanceSet "hca4"[1] PortCounters.SymbolErrorCounter=17'
sim 'PerformanceSet "hca4"[1] PortCounters.LinkDownedCounter=3'
sleep 0.5
run "$RDMA" mad set PortCounters lid "$HCA4" port 1 CounterSelect=0x1 >/dev/null 2>&1
pq=$(run perfquery "$HCA4" 1 2>/dev/null)
if grep -q '^SymbolErrorCounter:\.*0$' <<<"$pq" && grep -q '^LinkDownedCounter:\.*3$' <<<"$pq"; then
  ok "mad set PortCounters CounterSelect=0x1: perfquery shows SymbolErrorCounter cleared only"
else
  bad "mad set PortCounters: perfquery: $(grep -E 'SymbolError|LinkDowned' <<<"$pq")"
fi

# An attribute without a decoder: read raw (its 64 bytes, as smpdump
# prints them: rdma/ib/mad_test.cc); ibsim answers none such, so here one
# line of timeout, exit 1.
expect "mad get 0xff91 (no decoder, unanswered): one line" 1 \
  '^no reply to 0xff91 from lid [0-9]+ \(1 try, given back at once by the local port: Connection timed out\)$' \
  --timeout 200 --retries 0 mad get 0xff91 lid "$SW1"
# The vendor's MlnxExtPortInfo, decoded, = smpquery mlnxextportinfo.
d=$(run smpquery mlnxextportinfo "$SW1" 1 2>/dev/null | sed -n 's/^LinkSpeedSupported:\.*//p')
o=$(run "$RDMA" -j mad get MlnxExtPortInfo lid "$SW1" mod 1 2>&1)
if [ -n "$d" ] && grep -q "\"speed_supported\":\"$d\"" <<<"$o"; then
  ok "mad get MlnxExtPortInfo = smpquery mlnxextportinfo (LinkSpeedSupported $d)"
else
  bad "mad get MlnxExtPortInfo: rdma '$o', smpquery '$d'"
fi

# The forwarding tables by name, as by id (check.sh reads and writes the
# multicast one): sw1's LFT block 0 sends its own LID to port 0 and hca2's
# out of port 2 (dr 0,1,2).
o=$(run "$RDMA" -j mad get LinearForwardingTable lid "$SW1" mod 0 2>&1)
i=$(run "$RDMA" -j mad get 0x19 lid "$SW1" mod 0 2>&1)
p=$(python3 -c 'import json,sys; t=json.loads(sys.argv[1])[0]["port"]; print(t[int(sys.argv[2])], t[int(sys.argv[3])])' \
  "$o" "$SW1" "$HCA2" 2>&1)
if [ "$o" = "$i" ] && [ "$p" = "0 2" ]; then
  ok "mad get LinearForwardingTable by name = by id 0x19 (ports $p)"
else
  bad "mad get LinearForwardingTable: by name '$o', by id '$i', ports '$p'"
fi
o=$(run "$RDMA" mad get MulticastForwardingTable lid "$SW1" mod 0 2>&1)
i=$(run "$RDMA" mad get 0x1b lid "$SW1" mod 0 2>&1)
if [ "$o" = "$i" ] && grep -q "attribute MulticastForwardingTable port_mask " <<<"$o"; then
  ok "mad get MulticastForwardingTable by name = by id 0x1b"
else
  bad "mad get MulticastForwardingTable: by name '$o', by id '$i'"
fi

# Alias GUIDs through the SA, read back with saquery.
out=$(run "$RDMA" sa set guid lid "$HCA2" index 1 0x0002c90300001234 2>&1)
rc=$?
g=$(run saquery -g 2>/dev/null | tr -s ' \t' ' ')
if [ $rc -eq 0 ] && grep -qi "0x0002c90300001234" <<<"$g$out"; then
  ok "sa set guid: the SA has the alias GUID"
else
  bad "sa set guid: exit $rc: $out"
fi
run "$RDMA" sa delete guid lid "$HCA2" index 1 >/dev/null 2>&1
g=$(run "$RDMA" -j sa show guids lid "$HCA2" 2>&1)
if ! grep -qi "0x0002c90300001234" <<<"$g"; then
  ok "sa delete guid: gone from sa show guids"
else
  bad "sa delete guid: $g"
fi
expect "sa set guid index 0: the SA refuses the port GUID's entry" 1 \
  'GuidInfoRecord Set at the SA at lid [0-9]+ failed: status 0x0200' \
  sa set guid lid "$HCA2" index 0 0x0002c90300001234

# Congestion control (class 0x21) on the real umad path: its agent is
# registered when the first CC MAD goes out. ibsim's answers are wrong
# (zeros), so only that one comes back is checked; the values are the fake
# fabric's tests' (rdma/ib/cc_test.cc).
expect "cc show: a class 0x21 MAD goes out and is answered" 0 '^lid [0-9]+: attribute CongestionInfo ' \
  cc show lid "$HCA2"
# ibsim answers no CC ClassPortInfo: ibccquery CP fails, and so does
# cc show CP, as one line (the answer's fields: rdma/ib/cc_test.cc).
if run ibccquery CP "$HCA2" >/dev/null 2>&1; then
  bad "ibccquery CP answered: compare it with cc show CP"
else
  expect "cc show CP: no answer from ibsim, as ibccquery CP" 1 '^no reply to ClassPortInfo from lid ' \
    cc show lid "$HCA2" CP
fi

check_line_ends
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
