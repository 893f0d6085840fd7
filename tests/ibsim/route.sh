#!/bin/bash
# The route and SA suite on fabric.net (three switch levels, parallel
# links, a dual-homed HCA), opensm programming the forwarding tables:
# rdma route show / trace against ibroute and ibtracert, route show mcast
# against ibroute -M, route show all mcast against dump_mfts and route
# trace mcast against ibtracert -m (after
# mcast_join.py joined the HCAs to the broadcast group), rdma sa show
# against saquery (single records and short tables: the simulator has no
# RMPP and cuts every table to its first MAD, for saquery too), and --sa
# node / port / sm show against the SMP path.
#   tests/ibsim/route.sh [--rdma PATH]
# Ends with "N passed, M failed"; exits non-zero on any failure.
set -u
NET=$(cd "$(dirname "$0")" && pwd)/fabric.net
# shellcheck source=tests/ibsim/lib.sh
. "$(dirname "$0")/lib.sh"

# compare NAME KIND "DIAGS COMMANDS" "RDMA ARGS" (lib.sh's compare_json)
compare() { compare_json route_compare.py "$@"; }

start_opensm

# Every switch's table, LID by LID, with what sits at each LID.
switches=$(run ibswitches | sed -n 's/.* lid \([0-9]*\) .*/\1/p')
[ "$(wc -w <<<"$switches")" -eq 3 ] && ok "three switches" || bad "switches: $switches"
for s in $switches; do
  compare "route show lid $s = ibroute $s" show "run ibroute $s" "route show lid $s"
done
s=$(head -n 1 <<<"$switches")
compare "route show lid $s lids 2-6 = ibroute $s 2 6" show "run ibroute $s 2 6" \
  "route show lid $s lids 2-6"
compare "route show lid $s all-entries = ibroute -a $s" show "run ibroute -a $s" \
  "route show lid $s all-entries"
expect "route show of a CA is refused" 1 'is not a switch' route show lid 1

# Traces between HCAs on different switches (h1 on s1, h4 on s2, h5 on s3,
# h3 on both), from the local port and between two others.
for dst in $(run ibhosts | sed -n 's/^Ca.*: 0x\([0-9a-f]*\) .*/\1/p'); do
  # Port 1's GUID is the node GUID + 1 in ibsim; ibaddr prints
  # "GID fe80::10:a LID start 0x8 end 0x8".
  dlid=$(run ibaddr -G "$(printf 0x%x $((0x$dst + 1)))" 2>/dev/null | sed -n 's/.*LID start \(0x[0-9a-f]*\) .*/\1/p')
  [ -n "$dlid" ] || continue
  dlid=$((dlid))
  [ "$dlid" = 1 ] && continue
  compare "route trace lid $dlid = ibtracert 1 $dlid" trace "run ibtracert 1 $dlid" \
    "route trace lid $dlid"
  last=$dlid
  last_guid=$(printf 0x%x $((0x$dst + 1)))
  dlids="${dlids:-} $dlid"
done
[ -n "${last:-}" ] || { bad "no HCA LIDs from ibaddr"; last=1; }
compare "route trace lid $last lid 1 = ibtracert $last 1" trace "run ibtracert $last 1" \
  "route trace lid $last lid 1"
# from FILE: the saved fabric's nodes and routes, the tables read live.
run "$RDMA" fabric save saved.json 2>/dev/null
compare "route trace lid $last from FILE = ibtracert 1 $last" trace "run ibtracert 1 $last" \
  "route trace lid $last from saved.json"
# ibnetdiscover's topology file as FILE: the same nodes, routes, LIDs,
# links and rates as the saved fabric, so every view of what the file holds
# prints the same from both (man rdma-fabric: what it does not hold);
# written back by fabric topology, ibnetdiscover's own node blocks.
run ibnetdiscover >topo.txt 2>/dev/null
compare "route trace lid $last from ibnetdiscover's file = ibtracert 1 $last" trace \
  "run ibtracert 1 $last" "route trace lid $last from topo.txt"
from_both() {
  local a b
  a=$(run "$RDMA" "$@" from saved.json 2>/dev/null; echo "exit $?")
  b=$(run "$RDMA" "$@" from topo.txt 2>/dev/null; echo "exit $?")
  if [ "$(wc -l <<<"$a")" -gt 1 ] && [ "$a" = "$b" ]; then
    ok "$* from ibnetdiscover's file = from a saved fabric ($(($(wc -l <<<"$a") - 1)) lines)"
  else
    bad "$* from ibnetdiscover's file: $(diff <(echo "$a") <(echo "$b") | head -n 6)"
  fi
}
for args in "fabric show" "-j fabric show" "fabric show switches" "fabric links" \
  "-j fabric links" "fabric topology" "fabric topology slurm" \
  "route trace lid 1 lid $last" "-j route trace lid $last lid 1" "route show lid 3" \
  "route users lid 3 port 6" "-j route users lid 2 port 1"; do
  # shellcheck disable=SC2086
  from_both $args
done
# node show and sa show from FILE, beside the live view (a switch's node
# by the route that found it: NodeInfo's LocalPortNum is the port an SMP
# arrives on); sa show one record each (ibsim's SA has no RMPP), a switch
# and its port toward hca1 from the file's links.
sw=$(run "$RDMA" -j sa show links lid 1 from saved.json 2>/dev/null |
  python3 -c 'import json,sys; r=json.load(sys.stdin)[0]; print(r["to_lid"], r["to_port"])')
read -r sw sw_port <<<"$sw"
sw=${sw:-0} sw_port=${sw_port:-0}
for file in saved.json topo.txt; do
  for cmd in "node show lid 1" "node show lid $last" "node show dr 0,1" "node show dr 0,1,3" \
    "sa show nodes lid 1" "sa show nodes lid $sw" "sa show ports lid 1 port 1" \
    "sa show ports lid $sw port $sw_port" "sa show ports lid $sw port 0" \
    "sa show links lid $sw port $sw_port"; do
    # shellcheck disable=SC2086
    run "$RDMA" -j -d $cmd >live.json 2>/dev/null
    # shellcheck disable=SC2086
    run "$RDMA" -j -d $cmd from $file >file.json 2>file.err
    if out=$(python3 "$HERE/saved_compare.py" 4 live.json file.json file.err 2>&1); then
      ok "$cmd from $file = $cmd ($out)"
    else
      bad "$cmd from $file: $out"
    fi
  done
done
# port show from FILE, beside the live view, as node show's: CA ports
# (h3's second by its LID), a switch's port 0 and an external port, by
# LID, GUID, name and route; JSON (-d) and text.
h3lid=$(run "$RDMA" -j port show name h3 port 2 2>/dev/null |
  python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["lid"])' 2>/dev/null)
for file in saved.json topo.txt; do
  for t in "lid 1" "lid $last" "guid $last_guid" "lid ${h3lid:-0}" "name h3 port 2" \
    "lid $s" "name s1 port 3" "dr 0,1 port 1"; do
    # shellcheck disable=SC2086
    run "$RDMA" -j -d port show $t >live.json 2>/dev/null
    # shellcheck disable=SC2086
    run "$RDMA" -j -d port show $t from $file >file.json 2>file.err
    # shellcheck disable=SC2086
    run "$RDMA" port show $t >live.txt 2>/dev/null
    # shellcheck disable=SC2086
    run "$RDMA" port show $t from $file >file.txt 2>/dev/null
    if out=$(python3 "$HERE/saved_compare.py" 5 live.json file.json file.err live.txt file.txt \
      2>&1); then
      ok "port show $t from $file = port show $t ($out)"
    else
      bad "port show $t from $file: $out"
    fi
  done
done
expect "port show from FILE of a port the file does not hold" 1 "holds no PortInfo" \
  port show name s1 port 8 from topo.txt
expect "port show from FILE refuses a table" 1 "needs SMPs" port show lid 1 pkeys from saved.json
run "$RDMA" fabric topology from topo.txt >topo2.txt 2>/dev/null
if out=$(python3 - topo.txt topo2.txt <<'PY' 2>&1
import sys
# The node blocks (blank-line separated, comments left out), as sets: the
# order of the nodes is each tool's own.
def blocks(path):
    text = "".join(l for l in open(path) if not l.startswith("#"))
    return {b.strip() for b in text.split("\n\n") if b.strip()}
d, o = blocks(sys.argv[1]), blocks(sys.argv[2])
if d != o or len(d) != 8:
    sys.exit(f"only ibnetdiscover's: {sorted(d - o)}; only ours: {sorted(o - d)}")
print(f"{len(d)} nodes")
PY
); then
  ok "fabric topology from ibnetdiscover's file = ibnetdiscover ($out)"
else
  bad "fabric topology from ibnetdiscover's file: $out"
fi

# --node-name-map (blanks and UTF-8 in quoted and bare names) as ibroute
# and ibtracert apply it; sa show nodes names the node alike.
{ run ibswitches; run ibhosts; } >nodes.txt 2>/dev/null
node_guid() { sed -n "s/^$1\\s*: \\(0x[0-9a-f]*\\) .*\"$2\".*/\\1/p" nodes.txt; }
printf '# names\n%s "leaf één (1)"\n%s spine ü 3\n%s\t"höst ✓ 4"  # h4\n' \
  "$(node_guid Switch s1)" "$(node_guid Switch s2)" "$(node_guid Ca h4)" >names.map
for s in $switches; do
  compare "--node-name-map: route show lid $s = ibroute --node-name-map" show \
    "run ibroute --node-name-map names.map $s" "--node-name-map names.map route show lid $s"
done
compare "--node-name-map: route trace lid $last = ibtracert --node-name-map" trace \
  "run ibtracert --node-name-map names.map 1 $last" "--node-name-map names.map route trace lid $last"
s1=$(sed -n 's/^Switch.*"s1" .* lid \([0-9]*\) .*/\1/p' nodes.txt)
expect "--node-name-map: sa show nodes" 0 "^lid $s1 type switch .*description \"leaf één \\(1\\)\"\$" \
  --node-name-map names.map sa show nodes lid "$s1"

# SA records, one lookup each (saquery's record dumps, field by field).
for l in 1 3 $last; do
  compare "sa show nodes lid $l = saquery NR $l" nodes "run saquery NR $l" "sa show nodes lid $l"
done
compare "sa show ports lid 3 port 2 = saquery PIR 3/2" ports "run saquery PIR 3/2" \
  "sa show ports lid 3 port 2"
compare "sa show ports lid $last = saquery PIR $last" ports "run saquery PIR $last" \
  "sa show ports lid $last"
compare "sa show links lid 1 = saquery LR 1" links "run saquery LR 1" "sa show links lid 1"
compare "sa show links lid 1 port 1 = saquery LR 1/1" links "run saquery LR 1/1" \
  "sa show links lid 1 port 1"
compare "sa show paths lid 1 lid $last = saquery -p --src-to-dst 1:$last" paths \
  "run saquery -p --src-to-dst 1:$last" "sa show paths lid 1 lid $last"
compare "sa show paths lid $last = saquery -p --src-to-dst 1:$last" paths \
  "run saquery -p --src-to-dst 1:$last" "sa show paths lid $last"
# The PathRecord selection words beside saquery's options (its -M takes
# the selector and the MTU code in one byte: 0x43 is less than 1024), a
# node's name as an end (the first NodeRecord, h1: the table is cut).
compare "sa show paths lid 1 lid $last mtu <1024 = saquery -M 0x43" paths \
  "run saquery -p --src-to-dst 1:$last -M 0x43" "sa show paths lid 1 lid $last mtu <1024"
compare "sa show paths ... reversible 1 numb_path 1 = saquery -r 1 -n 1" paths \
  "run saquery -p --src-to-dst 1:$last -r 1 -n 1" \
  "sa show paths lid 1 lid $last reversible 1 numb_path 1"
compare "sa show paths ... service_id, qos_class, tclass, flow_label, hop_limit, pkt_lifetime" \
  paths "run saquery -p --src-to-dst 1:$last --service_id 5 -Q 0 -T 0 -F 0 -H 0 --pkt_lifetime 0x7f" \
  "sa show paths lid 1 lid $last service_id 5 qos_class 0 tclass 0 flow_label 0 hop_limit 0 pkt_lifetime <63"
compare "sa show paths name h1 lid $last = saquery --src-to-dst h1:$last" paths \
  "run saquery -p --src-to-dst h1:$last" "sa show paths name h1 lid $last"
expect "sa show paths mtu >4096: no path, nothing printed" 0 '^$' \
  sa show paths lid 1 lid "$last" mtu '>4096'
# saquery -s: the ports with IsSM (opensm's), asked bit by bit.
compare "sa show smports = saquery -s" smports "run saquery -s" "-d sa show smports"
# ibtool's KEY=VALUE: a component (NodeGUID) the SA selects on, a field
# (the port state) checked in the records.
g=$(run saquery NR 3 2>/dev/null | sed -n 's/.*node_guid\.*//p')
compare "sa show nodes node_guid=$g = saquery NR 3" nodes "run saquery NR 3" \
  "sa show nodes node_guid=$g"
compare "sa show ports lid 3 port 2 state=ACTIVE = saquery PIR 3/2" ports "run saquery PIR 3/2" \
  "sa show ports lid 3 port 2 state=ACTIVE"
expect "sa show nodes with a bad field: the choices" 1 '^unknown nodes field "nodeguid" \(.*node_guid' \
  sa show nodes nodeguid=1
# InformInfoRecords: two subscriptions of the local port (inform_sub.py),
# then opensm lists them to saquery IIR and sa show inform alike.
run python3 "$HERE/inform_sub.py" 1 64 >/dev/null && run python3 "$HERE/inform_sub.py" 1 65 >/dev/null ||
  bad "inform_sub.py: no subscription"
compare "sa show inform = saquery IIR" inform "run saquery IIR" "sa show inform"
# rdma bw client's path to an InfiniBand target (ibsim has no verbs to
# connect over: the AF_IB connection is the unit tests', on a fake
# librdmacm): the PathRecord the SA gives for the same pair.
compare "bw path lid $last = saquery -p --src-to-dst 1:$last" paths \
  "run saquery -p --src-to-dst 1:$last" "bw path lid $last"
compare "bw path guid ${last_guid:-0} = saquery -p --src-to-dst 1:$last" paths \
  "run saquery -p --src-to-dst 1:$last" "bw path guid ${last_guid:-0}"
compare "sa show sm = saquery SMIR" sm "run saquery SMIR" "sa show sm"
compare "sa show switches lid 2 = saquery SWIR 2" switches "run saquery SWIR 2" \
  "sa show switches lid 2"
# The whole NodeRecord table: the simulator gives its first MAD only, for
# saquery -N too, and its RMPP header does not count the rest (no
# PayloadLength, no First flag): the same records, and ours says the table
# is cut (the MAD ends inside the second record), with exit status 1.
# (Whole tables are tested on the fabric double.)
compare "sa show nodes = saquery -N (the first MAD)" nodes "run saquery -N" "sa show nodes"
expect "sa show nodes: the cut table is a warning, exit 1" 1 \
  "^warning: the SA's NodeRecord table is cut short after 1 record: an unknown number of its records is missing \(no RMPP\?\)$" \
  sa show nodes
expect "sa show ports: the cut table is a warning, exit 1" 1 \
  "^warning: the SA's PortInfoRecord table is cut short after 2 records: " sa show ports
expect "sa show nodes lid 1: one record, no warning, exit 0" 0 '^lid 1 type ca ' sa show nodes lid 1
if run "$RDMA" sa show nodes lid 1 2>&1 >/dev/null | grep -q .; then
  bad "sa show nodes lid 1: a warning for a whole table"
else
  ok "sa show nodes lid 1: nothing on stderr"
fi
# A name is looked up in the whole NodeRecord table, cut here: h1 is in
# its first MAD, and the cut is said (exit 1).
expect "sa show nodes name h1: its LID" 1 '^lid 1 type ca .*description "?h1"?$' \
  sa show nodes name h1
expect "sa show nodes name h1: the cut table said once" 1 \
  "^warning: the SA's NodeRecord table is cut short after 1 record: " sa show nodes name h1

# The SA's other records, one LID's or a short table each (the first MAD
# only, for saquery too). P_Key tables need a trusted query (opensm's
# default SM_Key, 1).
compare "sa show classportinfo = saquery -c" cpi "run saquery -c" "sa show classportinfo"
compare "sa show services = saquery -S" services "run saquery -S" "sa show services"
for l in 1 2 $last; do
  compare "sa show guids lid $l = saquery GIR $l" guids "run saquery GIR $l" "sa show guids lid $l"
  compare "sa show pkeys lid $l smkey 1 = saquery --smkey 1 PKTR $l" pkeys \
    "run saquery --smkey 1 PKTR $l" "sa show pkeys lid $l smkey 1"
  compare "sa show sl2vl lid $l = saquery SL2VL $l" sl2vl "run saquery SL2VL $l" \
    "sa show sl2vl lid $l"
  compare "sa show vlarb lid $l = saquery VLAR $l" vlarb "run saquery VLAR $l" \
    "sa show vlarb lid $l"
done
compare "sa show pkeys lid 3 port 4 smkey 1 = saquery --smkey 1 PKTR 3/4" pkeys \
  "run saquery --smkey 1 PKTR 3/4" "sa show pkeys lid 3 port 4 smkey 1"
compare "sa show sl2vl lid 3 in_port 2 out_port 6 = saquery SL2VL 3/2/6" sl2vl \
  "run saquery SL2VL 3/2/6" "sa show sl2vl lid 3 in_port 2 out_port 6"
compare "sa show vlarb lid 3 port 2 block 2 = saquery VLAR 3/2/2" vlarb \
  "run saquery VLAR 3/2/2" "sa show vlarb lid 3 port 2 block 2"
expect "sa show pkeys without smkey: opensm's refusal, the hint" 1 'smkey KEY' \
  sa show pkeys lid 1
# smkey x: the key typed at a terminal (tmux's; tmux itself runs without
# the shim), not echoed, the answer as with the key given.
if command -v tmux >/dev/null; then
  T="tmux -S $WORK/tmux.sock"
  $T new-session -d -s key -x 100 -y 10 \
    "env LD_PRELOAD=$UMAD2SIM IBSIM_SOCKNAME=$IBSIM_SOCKNAME $RDMA -j sa show pkeys lid 1 smkey x >$WORK/key.json 2>$WORK/key.err; sleep 30"
  for _ in $(seq 40); do $T capture-pane -p -t key | grep -q 'SM_Key: ' && break; sleep 0.25; done
  $T send-keys -t key 1 Enter
  for _ in $(seq 40); do [ -s "$WORK/key.json" ] && break; sleep 0.25; done
  sleep 0.5
  screen=$($T capture-pane -p -t key)
  want=$(run "$RDMA" -j sa show pkeys lid 1 smkey 1 2>/dev/null)
  if [ -n "$want" ] && [ "$(cat "$WORK/key.json")" = "$want" ] && ! grep -q 'SM_Key: .*1' <<<"$screen"; then
    ok "sa show pkeys smkey x: the key typed unseen, the trusted answer"
  else
    bad "sa show pkeys smkey x: screen '$screen', $(cat "$WORK/key.json" "$WORK/key.err")"
  fi
  $T kill-server 2>/dev/null
else
  bad "tmux is not installed (tests/ibsim/setup.sh)"
fi

# Multicast: opensm creates the IPoIB broadcast group, but with no member
# (no IPoIB here) it programs no switch. Every HCA port joins it (a proxy
# join for the others, trusted by the SM_Key); then the groups' records and
# every switch's multicast table.
compare "sa show mcast (no member) = saquery MCMR" mcast_records "run saquery MCMR" "sa show mcast"
for s in $switches; do
  compare "route show lid $s mcast (nothing programmed) = ibroute -M $s" mcast \
    "run ibroute -M $s" "route show lid $s mcast"
done
compare "route show all mcast (nothing programmed) = dump_mfts" mfts "run dump_mfts" \
  "route show all mcast"
joined=0
for l in $(seq 1 16); do
  g=$(run saquery NR "$l" 2>/dev/null |
    awk '/node_type/ {t = $0} /port_guid/ {p = $0} END {if (t ~ /Channel Adapter/) print p}' |
    sed 's/.*\.\.\.//')
  [ -n "$g" ] || continue
  run python3 "$HERE/mcast_join.py" 1 ff12:401b:ffff::ffff:ffff "$g" 1 >/dev/null &&
    joined=$((joined + 1))
done
[ "$joined" -ge 4 ] && ok "$joined HCA ports joined the broadcast group" || bad "joined: $joined"
for _ in $(seq 20); do
  run ibroute -M "$(head -n 1 <<<"$switches")" | grep -q '^0xc000' && break
  sleep 0.5
done
compare "sa show mcast smkey 1 = saquery --smkey 1 MCMR" mcast_records \
  "run saquery --smkey 1 MCMR" "sa show mcast smkey 1"
compare "sa show mcast mlid 0xc000 smkey 1 = saquery --smkey 1 MCMR" mcast_records \
  "run saquery --smkey 1 MCMR" "sa show mcast mlid 0xc000 smkey 1"
# saquery's MCMemberRecord filters (-J, --scope, -q, -X) are KEY=VALUE
# words of the record's own keys.
compare "sa show mcast join_state=0x1 scope=2 qkey=0xb1b = saquery MCMR -J 1 --scope 2 -q 0xb1b" \
  mcast_records "run saquery --smkey 1 MCMR -J 1 --scope 2 -q 0xb1b" \
  "sa show mcast smkey 1 join_state=0x1 scope=2 qkey=0xb1b"
compare "sa show mcast proxy_join=0 = saquery MCMR -X 0" mcast_records \
  "run saquery --smkey 1 MCMR -X 0" "sa show mcast smkey 1 proxy_join=0"
for s in $switches; do
  compare "route show lid $s mcast = ibroute -M $s" mcast "run ibroute -M $s" \
    "route show lid $s mcast"
done
# MFTRecords: each switch's multicast table from the SA, as saquery MFTR.
for s in $switches; do
  compare "sa show mft lid $s = saquery MFTR $s" mft "run saquery MFTR $s" "sa show mft lid $s"
done
# dump_mfts: every switch's table in one run, each MLID with its switch.
compare "route show all mcast = dump_mfts" mfts "run dump_mfts" "route show all mcast"
compare "route show all mcast lid 0xc000 = dump_mfts" mfts "run dump_mfts" \
  "route show all mcast lid 0xc000"
expect "route show all mcast lids out of the MLID range is refused" 1 'invalid multicast LID' \
  route show all mcast lids 1-5
s=$(head -n 1 <<<"$switches")
compare "route show lid $s mcast lid 0xc000 = ibroute -M $s 0xc000 0xc000" mcast \
  "run ibroute -M $s 0xc000 0xc000" "route show lid $s mcast lid 0xc000"
# ibtracert -m: the same walk through the group's tables, both ways.
compare "route trace lid $last lid 1 mcast 0xc000 = ibtracert -m 0xc000 $last 1" trace \
  "run ibtracert -m 0xc000 $last 1" "route trace lid $last lid 1 mcast 0xc000"
compare "route trace lid $last lid 1 mcast 0xc000 from FILE = ibtracert -m 0xc000 $last 1" trace \
  "run ibtracert -m 0xc000 $last 1" "route trace lid $last lid 1 mcast 0xc000 from saved.json"
for dlid in ${dlids:-}; do
  compare "route trace lid 1 lid $dlid mcast 0xc000 = ibtracert -m 0xc000 1 $dlid" trace \
    "run ibtracert -m 0xc000 1 $dlid" "route trace lid 1 lid $dlid mcast 0xc000"
done
expect "route trace mcast of an empty group fails" 1 'no multicast route for MLID 0xc001' \
  route trace lid 1 lid $last mcast 0xc001

# --sa: the same output as the SMPs give.
for args in "node show lid 1" "node show lid 3" "node show lid $last" "port show lid 1" \
  "port show lid 3 port 2" "port show lid $last"; do
  # shellcheck disable=SC2086
  smp=$(run "$RDMA" $args 2>&1)
  # shellcheck disable=SC2086
  sa=$(run "$RDMA" --sa $args 2>&1)
  if [ -n "$smp" ] && [ "$smp" = "$sa" ]; then
    ok "--sa $args = the SMP path"
  else
    bad "--sa $args: SMP '$smp', SA '$sa'"
  fi
done

# --sa fabric views: the simulator cuts the SA's tables to their first MAD
# and says nothing of the rest; the LinkRecords then name LIDs with no
# NodeRecord, which is the warning.
expect "--sa fabric show: the simulator's cut tables are a warning" 1 'without a NodeRecord' \
  --sa fabric show

# A combined route (smpquery -c, "dr lid L PATH"): ibsim discards its SMPs
# ("dr[ds]lids are used (not supported)"), so neither tool is answered;
# smpquery -c times out, and rdma, reading a switch's table through one,
# says what went unanswered within its timeout and retries (the fabric
# double answers such routes: rdma/ib/combined_target_test.cc).
t0=$(date +%s%N)
run smpquery -c -t 200 nd "$s" 0,1 >/dev/null 2>&1
diags_rc=$?
diags_ms=$((($(date +%s%N) - t0) / 1000000))
t0=$(date +%s%N)
expect "route show dr lid $s 0,1: the combined route's timeout, said" 1 \
  "^no reply to NodeInfo from dr lid $s 0,1 \\(2 tries" \
  --timeout 200 --retries 1 route show dr lid "$s" 0,1
ms=$((($(date +%s%N) - t0) / 1000000))
if [ "$diags_rc" -ne 0 ] && [ "$ms" -lt 5000 ]; then
  ok "combined route: smpquery -c fails too (exit $diags_rc, $diags_ms ms), rdma in $ms ms"
else
  bad "combined route: smpquery -c exit $diags_rc in $diags_ms ms, rdma in $ms ms"
fi

check_line_ends
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
