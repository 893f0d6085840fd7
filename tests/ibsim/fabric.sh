#!/bin/bash
# The fabric suite: rdma fabric against the OpenFabrics simulator on
# fabric.net (a dual-homed HCA, parallel links, down ports, three switch
# levels), compared with infiniband-diags (ibnetdiscover -p, ibswitches,
# ibhosts) on the same fabric; the topology read back by a second ibsim;
# a diff after ibsim's Unlink; a sick node (ibsim's Error).
#   tests/ibsim/fabric.sh [--rdma PATH]
# Ends with "N passed, M failed"; exits non-zero on any failure.
set -u
NET=$(cd "$(dirname "$0")" && pwd)/fabric.net
# shellcheck source=tests/ibsim/lib.sh
. "$(dirname "$0")/lib.sh"

# fabric_check NAME KIND "DIAGS COMMANDS" "RDMA ARGS" (lib.sh's compare_json)
fabric_check() { compare_json fabric_compare.py "$@"; }

# Without a subnet manager: every LID is 0, discovery still works.
expect "no subnet manager: 8 nodes by directed route" 0 '^type switch .* lids - ports 4 description "s3"' \
  fabric show
n=$(run "$RDMA" fabric show 2>/dev/null | wc -l)
if [ "$n" -eq 8 ]; then ok "no subnet manager: 8 nodes"; else bad "no subnet manager: $n nodes"; fi
# --discovery lid without LIDs: the same nodes by directed route, and one
# warning that says so (exit status 1).
expect "no subnet manager: --discovery lid says the 8 nodes have no LID" 1 \
  '^warning: 8 nodes have no LID \(no subnet manager has configured them\): read by directed route' \
  --discovery lid fabric show
n=$(run "$RDMA" --discovery lid fabric show 2>/dev/null | wc -l)
if [ "$n" -eq 8 ]; then ok "no subnet manager: --discovery lid, 8 nodes"; else bad "no subnet manager: --discovery lid, $n nodes"; fi

start_opensm

fabric_check "fabric show = ibswitches + ibhosts" nodes "run ibswitches; run ibhosts" "fabric show"
# cmake/hot_text.ld names every function fabric show runs (placed ahead of
# the rest of the text, 0.4 MB resident rather than 2): new code on the
# path fails here until bench/fabric_hot_text.sh makes the list again.
if hot=$("$HERE/../../scripts/check-hot-text.sh" --preload "$UMAD2SIM" "$RDMA" fabric show 2>&1); then
  ok "the hot text list covers fabric show: $(tail -n 1 <<<"$hot")"
else
  bad "the hot text list lacks what fabric show runs: $hot"
fi
fabric_check "fabric links all = ibnetdiscover -p" links "run ibnetdiscover -p" "fabric links all"
# --discovery lid: the fabric found with LID-routed SMPs prints as the
# directed routes' does in every view (nodes, links, LIDs, the topology
# file, JSON), with nothing on stderr; sa is --sa; a bad mode names the three.
for view in "fabric show" "fabric links all" "fabric topology" "-j fabric links all" "-j fabric show"; do
  # shellcheck disable=SC2086
  dr=$(run "$RDMA" $view 2>&1)
  # shellcheck disable=SC2086
  lid=$(run "$RDMA" --discovery lid $view 2>&1)
  # shellcheck disable=SC2086
  if [ -n "$dr" ] && [ "$dr" = "$lid" ] && run "$RDMA" --discovery lid $view >/dev/null; then
    ok "--discovery lid $view = directed routes' ($(wc -l <<<"$lid") lines), exit 0"
  else
    bad "--discovery lid $view: $(diff <(echo "$dr") <(echo "$lid") | head -5)"
  fi
done
sa=$(run "$RDMA" --sa fabric show 2>&1)
if [ -n "$sa" ] && [ "$sa" = "$(run "$RDMA" --discovery sa fabric show 2>&1)" ] &&
  [ "$(run "$RDMA" fabric show 2>&1)" = "$(run "$RDMA" --sa --discovery dr fabric show 2>&1)" ]; then
  ok "--discovery sa is --sa, the last given wins"
else
  bad "--discovery sa differs from --sa"
fi
expect "--discovery x: one line naming lid, dr and sa" 1 '^invalid --discovery "x" \(expected lid, dr or sa\)$' \
  --discovery x fabric show
expect "--discovery lid: a partial scan is by directed route" 1 \
  '^--discovery lid finds the whole fabric; a partial scan is by directed route$' \
  --discovery lid fabric links hops 2
expect "the dual-homed HCA shows both its LIDs" 0 '^type ca .* lids [0-9]+,[0-9]+ ports 2 description "h3"' \
  fabric show cas
# --node-name-map: the file infiniband-diags reads, with blanks and UTF-8
# in quoted and bare names; the names where the descriptions were, as
# ibnetdiscover -p and iblinkinfo print them.
{ run ibswitches; run ibhosts; } >nodes.txt 2>/dev/null
S1=$(sed -n 's/^Switch\s*: \(0x[0-9a-f]*\) .*"s1".*/\1/p' nodes.txt)
S3=$(sed -n 's/^Switch\s*: \(0x[0-9a-f]*\) .*"s3".*/\1/p' nodes.txt)
H3=$(sed -n 's/^Ca\s*: \(0x[0-9a-f]*\) .*"h3".*/\1/p' nodes.txt)
cat >names.map <<EOF
# the site's names
$S1 "leaf één (rack 1)"

$H3   "höst 3 ✓"   # two ports
$S3 spine ü 3
EOF
fabric_check "--node-name-map: fabric links all = ibnetdiscover -p --node-name-map" links \
  "run ibnetdiscover -p --node-name-map names.map" "--node-name-map names.map fabric links all"
run iblinkinfo --node-name-map names.map >lim.txt 2>/dev/null
run "$RDMA" -j --node-name-map names.map fabric links >lim.json 2>/dev/null
if out=$(python3 - lim.txt lim.json <<'PY' 2>&1
import json, re, sys
# iblinkinfo: "Switch: GUID NAME:" and "CA: NAME:" heads, then one line a
# port: "LID PORT[..] ==(...)==> LID PORT[..] "PEER"".
diags, head = set(), None
for line in open(sys.argv[1], encoding="utf-8"):
    m = re.match(r"^(?:Switch: 0x[0-9a-f]+|CA:) (.*):$", line.rstrip("\n"))
    if m:
        head = m.group(1)
        continue
    m = re.search(r"(\d+)\s+(\d+)\[..\] ==\(.*\)==>\s+(\d+)\s+(\d+)\[..\] \"(.*?)\"", line)
    if m:
        diags.add(frozenset(((head, int(m[2])), (m[5], int(m[4])))))
ours = {frozenset(((l["description"], l["port"]), (l["peer_description"], l["peer_port"])))
        for l in json.load(open(sys.argv[2], encoding="utf-8"))}
names = {"leaf één (rack 1)", "höst 3 ✓", "spine ü 3"}
seen = {n for link in ours for n, _ in link} & names
if not ours or diags != ours or seen != names:
    sys.exit(f"only iblinkinfo {[sorted(x) for x in diags - ours]}, "
             f"only rdma {[sorted(x) for x in ours - diags]}, names {seen}")
print(f"{len(ours)} links")
PY
); then
  ok "--node-name-map: fabric links = iblinkinfo --node-name-map ($out)"
else
  bad "--node-name-map: fabric links vs iblinkinfo: $out"
fi
expect "--node-name-map: fabric show quotes the name" 0 \
  "^type switch node_guid $S1 lids [0-9]+ ports 8 description \"leaf één \(rack 1\)\"" \
  --node-name-map names.map fabric show switches
expect "--node-name-map: node show" 0 "description \"spine ü 3\"" \
  --node-name-map names.map node show dr 0,1,3,6
printf '0x1 "ok"\n0x2g "bad"\n' >bad.map
expect "--node-name-map: a bad line names file and line" 1 '^bad.map:2: invalid GUID "0x2g"' \
  --node-name-map bad.map fabric show

# Nodes by name: `name NAME` or a bare word, the NodeDescription or the
# node-name-map's name. ibsim's SA has no RMPP, so its NodeRecord table is
# cut short and the names are found by discovery.
S1LID=$(run ibswitches 2>/dev/null | sed -n 's/.*"s1".* lid \([0-9]*\) .*/\1/p')
S3LID=$(run ibswitches 2>/dev/null | sed -n 's/.*"s3".* lid \([0-9]*\) .*/\1/p')
H1=$(sed -n 's/^Ca\s*: \(0x[0-9a-f]*\) .*"h1".*/\1/p' nodes.txt)
H2=$(sed -n 's/^Ca\s*: \(0x[0-9a-f]*\) .*"h2".*/\1/p' nodes.txt)
expect "node show name s3: the switch's LID" 0 "^lid $S3LID: type switch .*description \"s3\"" \
  node show name s3
expect "node show h5: a bare word is a name" 0 '^lid [0-9]+: type ca .*description "h5"' node show h5
expect "port show s1 port 3" 0 "^lid $S1LID: port 3 " port show s1 port 3
expect "perf show name h2" 0 '^lid [0-9]+: port 1 ' perf show name h2
H1LID=$(run "$RDMA" -j node show h1 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["target"].split()[1])')
H5LID=$(run "$RDMA" -j node show h5 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["target"].split()[1])')
by_name=$(run "$RDMA" route trace h1 h5 2>&1)
by_lid=$(run "$RDMA" route trace lid "$H1LID" lid "$H5LID" 2>&1)
if [ -n "$by_name" ] && [ "$by_name" = "$by_lid" ] && grep -q 'description "h5"' <<<"$by_name"; then
  ok "route trace h1 h5 = route trace lid $H1LID lid $H5LID"
else
  bad "route trace by name: $by_name / by LID: $by_lid"
fi
expect "--node-name-map: node show name NAME" 0 "^lid $S3LID: type switch .*description \"spine ü 3\"" \
  --node-name-map names.map node show name "spine ü 3"
printf '%s "gpu"\n%s "gpu"\n' "$H1" "$H2" >twice.map
expect "an ambiguous name lists the nodes, exit 1" 1 \
  "^node name \"gpu\" is ambiguous: 2 nodes have it \(\"gpu\" $H1, \"gpu\" $H2\)" \
  --node-name-map twice.map node show gpu
expect "an unknown name lists names like it, exit 1" 1 \
  '^no node named "h9" \(NodeDescription or node-name-map\) among 8 nodes; like it: .*"h1"' \
  node show name h9

# -d of one object: a field a line, as smpquery prints PortInfo.
out=$(run "$RDMA" -d port show s1 port 3 2>&1)
if [ "$(head -n 1 <<<"$out")" = "lid $S1LID:" ] && grep -qx 'port 3' <<<"$out" &&
  grep -qx 'state ACTIVE' <<<"$out" && [ "$(wc -l <<<"$out")" -gt 20 ] && ! grep -q ' $' <<<"$out"; then
  ok "-d port show: a field a line ($(wc -l <<<"$out") lines)"
else
  bad "-d port show: $out"
fi

# How one host is cabled: every port of the dual-homed h3, its end first,
# the peers as iblinkinfo sees them; `port N` one of them; hosts = cas.
run "$RDMA" -j fabric links node h3 >h3.json 2>/dev/null
run iblinkinfo >ibl.txt 2>/dev/null
if out=$(python3 - h3.json ibl.txt <<'PY' 2>&1
import json, re, sys
ours = json.load(open(sys.argv[1]))
peers = {(l["port"], l["peer_description"], l["peer_port"]) for l in ours}
# iblinkinfo: the switch lines whose peer is "h3": (h3's port, switch, its port).
diags, head = set(), None
for line in open(sys.argv[2]):
    m = re.match(r'^Switch: 0x[0-9a-f]+ (.*):$', line.rstrip("\n"))
    if m:
        head = m.group(1)
        continue
    m = re.search(r'\d+\s+(\d+)\[..\] ==\(.*\)==>\s+\d+\s+(\d+)\[..\] "h3"', line)
    if m and head:
        diags.add((int(m[2]), head, int(m[1])))
if len(ours) != 2 or any(l["description"] != "h3" for l in ours) or peers != diags:
    sys.exit(f"rdma {sorted(peers)} iblinkinfo {sorted(diags)}")
print(f"{len(peers)} ports")
PY
); then
  ok "fabric links node h3: both ports of the dual-homed HCA = iblinkinfo ($out)"
else
  bad "fabric links node h3: $out"
fi
expect "fabric links node h3 port 2: that port, the node type at both ends" 0 '^type ca node_guid 0x[0-9a-f]+ port 2 .*description "h3" peer_type switch peer_node_guid ' \
  fabric links node h3 port 2
n=$(run "$RDMA" fabric links node name h3 port 2 2>/dev/null | wc -l)
[ "$n" -eq 1 ] && ok "fabric links node name h3 port 2: one line" || bad "fabric links node h3 port 2: $n lines"
if [ "$(run "$RDMA" fabric show hosts 2>&1)" = "$(run "$RDMA" fabric show cas 2>&1)" ]; then
  ok "fabric show hosts = fabric show cas"
else
  bad "fabric show hosts differs from cas"
fi

# The SMPs a discovery costs, with -d, and how deep the fabric is from
# here: the longest directed route, ibnetdiscover -m's max hops.
hops=$(run ibnetdiscover -m 2>/dev/null | sed -n 's/^# Reported max hops discovered: \([0-9]*\)$/\1/p')
[ -n "$hops" ] && [ "$hops" -gt 1 ] || bad "ibnetdiscover -m: no max hops ($hops)"
expect "-d counts the MADs, max hops = ibnetdiscover -m ($hops)" 0 \
  "^fabric: 8 nodes, 9 links, max hops $hops; MADs sent [0-9]+, retried 0, failed 0" -d fabric show

# The topology file, read by a second ibsim: the same nodes there.
run "$RDMA" fabric topology >topo.txt 2>topo.err
run ibnetdiscover >topo-d.txt 2>/dev/null
run "$RDMA" -j fabric show >first.json 2>/dev/null
mkdir sim2
# exec: $! must be ibsim itself, or kill below ends only the subshell and
# leaves ibsim spinning on its closed console (seen: 64% CPU for hours)
( cd sim2 && IBSIM_SOCKNAME=$IBSIM_SOCKNAME-2 exec ibsim -s ../topo.txt </dev/null >ibsim.log 2>&1 ) &
SIM2=$!
for _ in $(seq 50); do grep -q "simulator ready" sim2/ibsim.log 2>/dev/null && break; sleep 0.2; done
( cd sim2 && IBSIM_SOCKNAME=$IBSIM_SOCKNAME-2 run "$RDMA" -j fabric show ) >second.json 2>second.err
kill "$SIM2" 2>/dev/null
wait "$SIM2" 2>/dev/null
if out=$(python3 "$HERE/fabric_compare.py" same first.json second.json 2>&1); then
  ok "fabric topology read back by a second ibsim (${out##*: })"
else
  bad "fabric topology read back: $out $(cat topo.err second.err sim2/ibsim.log | tail -n 5)"
fi

# grouped: ibnetdiscover -g on a third ibsim whose net file (chassis.net)
# makes boxes of its nodes: a Mellanox IS4 chassis whose chips name their
# slots, two Voltaire chassis (ISR9096, ISR9288) placed by their wiring
# with router and CA modules on their spines and a Mellanox chip both the
# ISR9096 and its own chassis take, a Topspin pair, a dual-chip host; the
# same chassis and numbers, each listing's chassis, section, note and
# [ext N] marks, and the grouped file read back by `from`.
mkdir sim3
( cd sim3 && IBSIM_SOCKNAME=$IBSIM_SOCKNAME-3 exec ibsim -s "$HERE/chassis.net" </dev/null >ibsim.log 2>&1 ) &
SIM3=$!
for _ in $(seq 50); do grep -q "simulator ready" sim3/ibsim.log 2>/dev/null && break; sleep 0.2; done
( cd sim3 && IBSIM_SOCKNAME=$IBSIM_SOCKNAME-3 run ibnetdiscover -g ) >grouped-d.txt 2>/dev/null
( cd sim3 && IBSIM_SOCKNAME=$IBSIM_SOCKNAME-3 run "$RDMA" fabric topology grouped ) >grouped.txt 2>grouped.err
( cd sim3 && IBSIM_SOCKNAME=$IBSIM_SOCKNAME-3 run "$RDMA" -j fabric topology grouped ) >grouped.json 2>>grouped.err
( cd sim3 && IBSIM_SOCKNAME=$IBSIM_SOCKNAME-3 run ibnetdiscover ) >plain-d.txt 2>/dev/null
( cd sim3 && IBSIM_SOCKNAME=$IBSIM_SOCKNAME-3 run "$RDMA" fabric topology ) >plain.txt 2>>grouped.err
kill "$SIM3" 2>/dev/null
wait "$SIM3" 2>/dev/null
# The files as a user diffing them sees them: equal but the date in the
# header (ours names rdma) and ibnetdiscover -g's blank after an empty
# note; so the node blocks in the same order too (switches, CAs, routers,
# each kind last found first, in each section).
body() { sed -e '/^# Topology file: generated /d' -e 's/[[:blank:]]*$//' "$1"; }
for pair in "ibnetdiscover:topo-d.txt:topo.txt:" "ibnetdiscover:plain-d.txt:plain.txt:" \
  "ibnetdiscover -g:grouped-d.txt:grouped.txt: grouped"; do
  IFS=: read -r what ref ours word <<<"$pair"
  n=$(grep -cE '^(Switch|Ca|Rt)'$'\t' "$ref")
  if [ "$n" -ge 8 ] && out=$(diff <(body "$ref") <(body "$ours")); then
    ok "fabric topology$word = $what, line for line ($n node blocks, ${ref%-d.txt})"
  else
    bad "fabric topology$word vs $what ($n node blocks): $(head -n 20 <<<"$out")"
  fi
done
if out=$(python3 "$HERE/fabric_compare.py" grouped grouped-d.txt grouped.txt 2>&1); then
  ok "fabric topology grouped = ibnetdiscover -g (${out//$'\n'/; })"
else
  bad "fabric topology grouped vs ibnetdiscover -g: $out $(cat grouped.err | tail -n 3)"
fi
if out=$(python3 - grouped.json <<'PY' 2>&1
import json, sys
recs = json.load(open(sys.argv[1]))
by = {r["description"]: r["chassis"] for r in recs}
l2, ts1, hca1 = by["MF0;sys1:MSX6536/L02/U1"], by["ts1"], by["hca1"]
vl2, vs = by["VL2"], by["VS"]
# Numbered as ibnetdiscover: Voltaire's first, the spine found last first
# (the ISR9288 behind the ISR9096); then the others, the last found first.
want = {"number": 5, "guid": "0x0002c90000abcd00", "type": "MSX6536", "slot": "line",
        "slot_number": 2, "chip": 1}
if l2 != want or ts1 != {"number": 4, "guid": "0x0005ad0000000001"} or hca1 is not None:
    sys.exit(f"L02 {l2}, ts1 {ts1}, hca1 {hca1}")
# The second chip of line slot 1, as the spine port it meets says; the
# chassis GUID the spine's less one.
vwant = {"number": 2, "guid": vl2["guid"], "type": "ISR9096", "slot": "line",
         "slot_number": 1, "chip": 2}
vs_guid = next(int(r["node_guid"], 16) for r in recs if r["description"] == "VS")
if vl2 != vwant or vs["slot"] != "spine" or int(vl2["guid"], 16) != vs_guid - 1:
    sys.exit(f"VL2 {vl2}, VS {vs}")
# Modules in line slots: by the spine port, on a sFB-12 the chip guessed
# from the spine's GUID (S9a's mod 4 is 1: chip 3; S9b's is 2: chip 2).
for name, number, typ, slot, chip in (("ipr", 1, "ISR9288", 3, 3), ("vca", 1, "ISR9288", 4, 2),
                                      ("mca", 2, "ISR9096", 2, 3), ("oca", 2, "ISR9096", 2, 2)):
    c = by[name]
    if (c or {}).get("number") != number or c["type"] != typ or c["slot"] != "router" or \
            (c["slot_number"], c["chip"]) != (slot, chip):
        sys.exit(f"{name} {c}")
print(f"{len(recs)} nodes, {sum(1 for c in by.values() if c)} in a chassis")
PY
); then
  ok "-j fabric topology grouped: a chassis object per node ($out)"
else
  bad "-j fabric topology grouped: $out"
fi
run "$RDMA" fabric topology grouped from grouped-d.txt >grouped2.txt 2>grouped.err
if out=$(python3 "$HERE/fabric_compare.py" grouped grouped-d.txt grouped2.txt 2>&1); then
  ok "fabric topology grouped from ibnetdiscover -g's file = ibnetdiscover -g (${out//$'\n'/; })"
else
  bad "fabric topology grouped from ibnetdiscover -g's file: $out $(tail -n 3 grouped.err)"
fi

# full: each link line's raw speed, width and VLCap codes as ibnetdiscover -f.
run ibnetdiscover -f >topo-f.txt 2>/dev/null
run "$RDMA" fabric topology full >topo-full.txt 2>topo.err
if out=$(python3 "$HERE/fabric_compare.py" full topo-f.txt topo-full.txt 2>&1); then
  ok "fabric topology full = ibnetdiscover -f (${out//$'\n'/; })"
else
  bad "fabric topology full vs ibnetdiscover -f: $out $(cat topo.err)"
fi

# The second reading of a window asks each PMA for PortSamplesControl
# (the tick of the wait share). ibsim answers none of them, and opensm 3.3
# sharing h1's port under umad2sim sometimes dies of what comes back (at
# once and always for one sent to h1's own LID, as with perfquery -c 1;
# rdma no longer asks that one). The suites after need an SM: one that died
# is said and started again.
revive_sm() {
  kill -0 "$OSM_PID" 2>/dev/null && return
  echo "note: opensm died after $1; started again" >&2
  start_opensm
}

# save, from FILE, diff.
run "$RDMA" fabric save saved.json 2>/dev/null
run ibnetdiscover --cache saved.cache >/dev/null 2>&1
live=$(run "$RDMA" -d fabric links all 2>/dev/null)
cached=$(run "$RDMA" -d fabric links all from saved.json 2>/dev/null)
if [ -n "$live" ] && [ "$live" = "$cached" ] && grep -q ' hoq_life ' <<<"$live"; then ok "from FILE gives what the live fabric gives (-d, hoq_life too)"; else bad "from FILE differs"; fi
expect "diff of an unchanged fabric: nothing, exit 0" 0 '^$' fabric diff saved.json
# A flap by state: s2 port 4 unlinked between two readings (save, then
# since; the port states are kept in the file); both ends were Active at
# the first and are DOWN at the second (s1 and s2 are still reached through
# their other link), and no other port is listed.
run "$RDMA" fabric errors save leave-before.json 2>/dev/null
sim 'Unlink "s2"[4]'
sleep 1
run "$RDMA" -j fabric errors since leave-before.json >leave.json 2>leave.err
rc=$?
if out=$(python3 - leave.json <<'PY' 2>&1
import json, sys
d = json.load(open(sys.argv[1]))[0]
ports = {(p["description"], p["port"]): p.get("flap", "") for p in d["ports"]}
if set(ports) != {("s1", 4), ("s2", 4)} or not all("left Active: now DOWN" in f for f in ports.values()):
    sys.exit(f"ports {ports}")
if d["summary"]["ports_flapped"] != 2:
    sys.exit(f"summary {d['summary']}")
print(ports[("s2", 4)])
PY
) && [ "$rc" -eq 1 ]; then
  ok "fabric errors since: Unlink makes both ends a flap ($out)"
else
  bad "fabric errors since, Unlink: exit $rc: $out $(cat leave.err)"
fi
revive_sm "the Unlink's since"
out=$(run "$RDMA" fabric diff saved.json 2>&1)
rc=$?
if [ "$rc" -eq 1 ] && grep -q '^gone link node_guid 0x[0-9a-f]\{16\} port 4 description "s[12]" peer_node_guid 0x[0-9a-f]\{16\} peer_port 4 peer_description "s[12]"' <<<"$out"; then
  ok "diff after Unlink names the link gone (exit 1)"
else
  bad "diff after Unlink: exit $rc: $out"
fi
run "$RDMA" -j fabric diff saved.json >diff.json 2>/dev/null
if python3 -c 'import json,sys; d=json.load(open("diff.json")); sys.exit(not any(c["change"]=="gone" and c["object"]=="link" for c in d))'; then
  ok "diff -j: a JSON array with the link gone"
else
  bad "diff -j: $(cat diff.json)"
fi
# ibnetdiscover --diff --diffcheck: the kinds of node looked at and what
# of them. The same links gone or added as ibnetdiscover lists under each
# node ("<" gone, ">" added), none where it lists none (the Unlink is
# between two switches, and changed no LID or description, though the
# ports' states changed); exit 1 with a change, 0 without.
diffcheck() { # --diffcheck KEYS, then our words
  local keys=$1 out rc
  shift
  run ibnetdiscover --diff saved.cache --diffcheck "$keys" >dc.txt 2>/dev/null
  run "$RDMA" -j fabric diff saved.json "$@" >dc.json 2>dc.err
  rc=$?
  if out=$(python3 - dc.txt dc.json <<'PY' 2>&1
import json, re, sys
diags, head = set(), None
for line in open(sys.argv[1], encoding="utf-8"):
    m = re.match(r'^(?:Switch|Ca|Rt)\s+\d+ ".*?"\s+# "(.*?)"', line)
    if m:
        head = m[1]
        continue
    m = re.match(r'^([<>]) \[(\d+)\].*?"[^"]*"\[(\d+)\].*# "(.*?)"', line)
    if m:
        diags.add((m[1], frozenset(((head, int(m[2])), (m[4], int(m[3]))))))
ours = set()
for c in json.load(open(sys.argv[2], encoding="utf-8")):
    if c["object"] != "link":
        sys.exit(f"not a link: {c}")
    ends = frozenset(((c["description"], c["port"]), (c["peer_description"], c["peer_port"])))
    ours.add(("<" if c["change"] == "gone" else ">", ends))
if diags != ours:
    sys.exit(f"ibnetdiscover {sorted(map(str, diags))}, rdma {sorted(map(str, ours))}")
print(len(ours))
PY
  ) && [ "$rc" -eq "$([ "$out" -gt 0 ] && echo 1 || echo 0)" ] && [ ! -s dc.err ]; then
    ok "fabric diff $* = ibnetdiscover --diffcheck $keys ($out links, exit $rc)"
  else
    bad "fabric diff $* vs --diffcheck $keys: exit $rc: $out $(cat dc.err)"
  fi
}
diffcheck sw,port switches links
diffcheck sw,ca,router,port links
diffcheck ca,port cas links
diffcheck sw,ca,router,lid lids
diffcheck sw,ca,router,nodedesc descriptions
diffcheck ca,router,port cas routers links
# iblinkinfo --filterdownports: the ports down now that were not down in
# the saved fabric (the Unlink's two ends, not the ports never cabled).
run iblinkinfo -d --filterdownports saved.cache >fdp.txt 2>/dev/null
run "$RDMA" -j fabric links down since saved.json >fdp.json 2>fdp.err
rc=$?
if out=$(python3 - fdp.txt fdp.json "$HERE" <<'PY' 2>&1
import json, re, sys
sys.path.insert(0, sys.argv[3])
from iblinkinfo_rows import port_lines
diags = {(head, port) for head, port, line in port_lines(sys.argv[1])
         if re.search(r"==\(\s*Down/", line)}
ours = {(p["description"], p["port"]) for p in json.load(open(sys.argv[2], encoding="utf-8"))}
if diags != ours or ours != {("s1", 4), ("s2", 4)}:
    sys.exit(f"iblinkinfo {sorted(diags)}, rdma {sorted(ours)}")
print(f"{len(ours)} ports")
PY
) && [ "$rc" -eq 1 ]; then
  ok "fabric links down since FILE = iblinkinfo -d --filterdownports ($out), exit 1"
else
  bad "fabric links down since FILE: exit $rc: $out $(cat fdp.err)"
fi
expect "fabric links since FILE without down is refused" 1 'only with "down"' \
  fabric links since saved.json
expect "fabric diff: an unknown check is refused, naming the checks (exit 2)" 2 \
  '^unknown fabric diff check "nodedesc"' fabric diff saved.json nodedesc
sim 'ReLink "s2"[4]'

# Error counters: PerformanceSet on switch and CA ports; the ports listed
# equal ibqueryerrors' (same counters, same values); reset clears them.
sim 'PerformanceSet "s2"[3] PortCounters.SymbolErrorCounter=17'
sim 'PerformanceSet "s3"[2] PortCounters.PortXmitDiscards=5'
sim 'PerformanceSet "h2"[1] PortCounters.PortRcvErrors=4'
sim 'PerformanceSet "h3"[2] PortCounters.LinkDownedCounter=2'
sleep 0.5
run ibqueryerrors >qe.txt 2>qe.err
run "$RDMA" -j fabric errors >errors.json 2>errors.err
rc=$?
if out=$(python3 "$HERE/errors_compare.py" qe.txt errors.json 2>&1) && [ "$rc" -eq 1 ]; then
  ok "fabric errors = ibqueryerrors ($out)"
else
  bad "fabric errors vs ibqueryerrors: exit $rc: $out $(cat qe.err errors.err)"
fi
# -r (peer): each port's far end; -D PATH (dr PATH): s2 alone, by its route.
run ibqueryerrors -r >qer.txt 2>qer.err
run "$RDMA" -j fabric errors peer >errors.json 2>errors.err
if out=$(python3 "$HERE/errors_compare.py" qer.txt errors.json 2>&1) && [[ $out == *"far ends"* ]]; then
  ok "fabric errors peer = ibqueryerrors -r ($out)"
else
  bad "fabric errors peer vs ibqueryerrors -r: $out $(cat qer.err errors.err)"
fi
s2dr=$(run ibnetdiscover -s 2>/dev/null | sed -n 's/.*DR path slid 0; dlid 0; \([0-9,]*\) .*"s2".*/\1/p' | head -n 1)
run ibqueryerrors -D "${s2dr:-0,1,3}" >qed.txt 2>qed.err
run "$RDMA" -j fabric errors dr "${s2dr:-0,1,3}" >errors.json 2>errors.err
if out=$(python3 "$HERE/errors_compare.py" qed.txt errors.json 2>&1) && [[ $out == "1 ports: s2/3;"* ]]; then
  ok "fabric errors dr ${s2dr:-0,1,3} = ibqueryerrors -D ($out)"
else
  bad "fabric errors dr vs ibqueryerrors -D ${s2dr:-0,1,3}: $out $(cat qed.err errors.err)"
fi
expect "fabric errors text: the counter by perf show's name" 1 '^node_guid 0x[0-9a-f]{16} description "s2" port 3 lid [0-9]+ symbol_errors 17$' \
  fabric errors
expect "fabric errors threshold: over means greater" 1 'description "h2" port 1 .*rcv_errors 4' \
  fabric errors threshold SymbolErrorCounter=17 threshold xmit_discards=5
out=$(run "$RDMA" fabric errors threshold SymbolErrorCounter=17 threshold xmit_discards=5 2>/dev/null)
n=$(grep -c '^node_guid ' <<<"$out")
if [ "$n" -eq 2 ] && [ "$(grep -c . <<<"$out")" -eq 3 ] &&
  grep -qE '^summary: [0-9]+ nodes checked, [0-9]+ ports checked, 2 ports over threshold on 2 nodes$' <<<"$out"; then
  ok "fabric errors threshold: 2 ports left, the summary says so"
else
  bad "fabric errors threshold: $n ports: $out"
fi
# Exit statuses as diff(1): bad input and a node not in the fabric are 2;
# a batch goes on past the line that found errors (1) and stops at the one
# that failed, naming both lines.
expect "fabric errors: an unknown word is 2" 2 '^unknown fabric errors argument "bogus"' fabric errors bogus
expect "fabric errors: no such node is 2" 2 '^no node with LID 999 in the fabric$' fabric errors lid 999
out=$(printf 'fabric errors\nfabric show switches\nfabric errors lid 999\nfabric show cas\n' |
  run "$RDMA" -b - 2>&1)
rc=$?
if [ "$rc" -eq 2 ] && grep -qx -- '-:1: found something (exit status 1)' <<<"$out" &&
  grep -qx -- '-:3: no node with LID 999 in the fabric' <<<"$out" &&
  grep -q '^type switch ' <<<"$out" && ! grep -q '^type ca ' <<<"$out"; then
  ok "batch: on past the line with findings, stopped at the failed one, exit 2"
else
  bad "batch with findings: exit $rc: $out"
fi
# Only the counters over their thresholds (s2 port 3 has only SymbolErrorCounter set).
expect "fabric errors: only the counters over threshold" 1 \
  '^node_guid [0-9a-f:x]+ description "s2" port 3 lid [0-9]+ symbol_errors 17$' fabric errors
expect "-d fabric errors: every counter" 1 'description "s2" port 3 lid [0-9]+ symbol_errors 17 link_error_recovery 0 .* xmit_wait 0 qp1_dropped 0$' \
  -d fabric errors
# A threshold file: every name ibqueryerrors reads is used, and QP1Dropped,
# which it ignores (no warning: ibsim cannot set QP1Dropped, so it is 0 and
# the listings agree); the same ports and counters as ibqueryerrors with the
# same file.
printf 'QP1Dropped=1\nSymbolErrorCounter=16\nPortXmitDiscards=5\nPortRcvErrors=3\nLinkDownedCounter=2\n' >thr
run ibqueryerrors --threshold-file thr >qet.txt 2>qet.err
run "$RDMA" -j fabric errors thresholds thr >errt.json 2>errt.err
rc=$?
if out=$(python3 "$HERE/errors_compare.py" qet.txt errt.json 2>&1) && [ "$rc" -eq 1 ] &&
  [ ! -s errt.err ]; then
  ok "fabric errors thresholds FILE = ibqueryerrors --threshold-file ($out)"
else
  bad "fabric errors thresholds FILE: exit $rc: $out $(cat qet.err errt.err)"
fi
# The site's file: read where it exists, as ibqueryerrors (the diags'
# package installs it, all comments); -d names the file read.
expect "-d fabric errors: names the thresholds file read" 1 \
  '^thresholds: /etc/infiniband-diags/error_thresholds \(the site.s file\)$' -d fabric errors
expect "-d fabric errors thresholds FILE: the file named wins" 1 '^thresholds: thr$' \
  -d fabric errors thresholds thr
# One port of a node (port N wherever a node is named).
s2lid=$(run "$RDMA" -j fabric show 2>/dev/null |
  python3 -c 'import json,sys; print([n["lids"][0] for n in json.load(sys.stdin) if n["description"] == "s2"][0])')
out=$(run "$RDMA" -j fabric errors lid "$s2lid" port 3 2>&1)
if python3 -c 'import json,sys; d=json.loads(sys.argv[1])[0]; p=d["ports"]
sys.exit(0 if [(x["description"], x["port"], x["symbol_errors"]) for x in p] == [("s2", 3, 17)] and d["summary"]["ports_checked"] == 1 else 1)' "$out"; then
  ok "fabric errors lid L port 3: that port alone"
else
  bad "fabric errors lid L port 3: $out"
fi
expect "fabric errors lid L port 1: nothing over, exit 0" 0 \
  '^summary: 1 node checked, 1 port checked, 0 ports over threshold on 0 nodes$' \
  fabric errors lid "$s2lid" port 1
run "$RDMA" fabric save errsaved.json 2>/dev/null
run "$RDMA" -j fabric errors from errsaved.json >errors2.json 2>/dev/null
if python3 "$HERE/errors_compare.py" qe.txt errors2.json >/dev/null 2>&1; then
  ok "fabric errors from FILE = ibqueryerrors"
else
  bad "fabric errors from FILE: $(cat errors2.json)"
fi
expect "fabric errors reset" 0 '^$' fabric errors reset
expect "after reset: nothing listed, exit 0" 0 \
  '^summary: [0-9]+ nodes checked, [0-9]+ ports checked, 0 ports over threshold on 0 nodes$' fabric errors
run ibqueryerrors >qe2.txt 2>/dev/null
if grep -q "0 ports have errors beyond threshold" qe2.txt; then
  ok "after reset: ibqueryerrors finds nothing"
else
  bad "after reset: ibqueryerrors: $(grep '##' qe2.txt)"
fi

# Rates: -w sweeps every 3 s; PerformanceSet between the sweeps. The
# first sweep (after the reset) lists nothing, the second the ports set with
# their rate per second over the time between the sweeps, the third a
# counter set lower as a reset (no rate).
# wait_lines FILE N: until FILE has N lines (at most 10 s).
wait_lines() {
  local i
  for i in $(seq 100); do
    [ "$(wc -l <"$1")" -ge "$2" ] && return 0
    sleep 0.1
  done
  return 1
}
run "$RDMA" -j -w 3 -c 3 fabric errors >rates.json 2>rates.err &
rates_pid=$!
wait_lines rates.json 1
sim 'PerformanceSet "s2"[3] PortCounters.SymbolErrorCounter=12'
sim 'PerformanceSet "h2"[1] PortCounters.PortRcvErrors=6'
wait_lines rates.json 2
sim 'PerformanceSet "s2"[3] PortCounters.SymbolErrorCounter=2'
wait "$rates_pid"
rc=$?
if out=$(python3 - rates.json <<'PY' 2>&1
import json, sys
docs = [json.loads(l) for l in open(sys.argv[1])]
if len(docs) != 3 or any(len(d) != 1 or set(d[0]) != {"time", "ports"} for d in docs):
    sys.exit(f"not 3 documents [{{time, ports}}]: {docs}")
times = [d[0]["time"] for d in docs]
if not (2.5 <= times[1] - times[0] <= 3.5 and 2.5 <= times[2] - times[1] <= 3.5):
    sys.exit(f"sweep times {times}")
docs = [d[0]["ports"] for d in docs]
if docs[0]:
    sys.exit(f"first sweep lists {docs[0]}")
by = {(p["description"], p["port"]): p for p in docs[1]}
if set(by) != {("s2", 3), ("h2", 1)}:
    sys.exit(f"second sweep lists {sorted(by)}")
s2, h2 = by[("s2", 3)], by[("h2", 1)]
# 12 and 6 over about 3 s (the time between the sweeps' starts); only
# what moved (s2's rcv_errors did not)
if not (s2["symbol_errors"] == 12 and 3.4 <= s2["rate"]["symbol_errors"] <= 4.6 and
        h2["rcv_errors"] == 6 and 1.7 <= h2["rate"]["rcv_errors"] <= 2.3 and
        "rcv_errors" not in s2):
    sys.exit(f"second sweep: {s2} {h2}")
by = {(p["description"], p["port"]): p for p in docs[2]}
s2 = by.get(("s2", 3), {})
if s2.get("reset") != ["symbol_errors"] or "symbol_errors" in s2.get("rate", {}):
    sys.exit(f"third sweep: {docs[2]}")
if ("h2", 1) in by:
    sys.exit(f"third sweep lists h2, which did not move: {by[('h2', 1)]}")
s2, h2 = docs[1][0], docs[1][1]
if s2["description"] != "s2":
    s2, h2 = h2, s2
print("%.2f/s, %.2f/s, then a reset" % (s2["rate"]["symbol_errors"], h2["rate"]["rcv_errors"]))
PY
) && [ "$rc" -eq 1 ]; then
  ok "fabric errors -w: rates over two intervals, a reset flagged ($out)"
else
  bad "fabric errors -w: exit $rc: $out $(cat rates.err)"
fi

# A counter window, never reset: PerformanceSet raises s2 port 3 during a
# 5 s window; h2 port 1 (rcv_errors 6 since the rates above) is high but
# does not move, so it is not reported. Then save / since across a reset.
# The raise waits 2 s so that it falls after the first reading even on a
# loaded machine (1 s was seen to land before it), inside the 5 s window.
run "$RDMA" -j fabric errors window 5 >window.json 2>window.err &
window_pid=$!
sleep 2
sim 'PerformanceSet "s2"[3] PortCounters.SymbolErrorCounter=9'
wait "$window_pid"
rc=$?
if out=$(python3 - window.json <<'PY' 2>&1
import json, sys
d = json.load(open(sys.argv[1]))[0]
ports = {(p["description"], p["port"]): p for p in d["ports"]}
if set(ports) != {("s2", 3)}:
    sys.exit(f"ports {sorted(ports)}")
c = ports[("s2", 3)]["symbol_errors"]
if (c["before"], c["after"], c["increase"]) != (2, 9, 7) or not 4.5 <= d["summary"]["window_seconds"] <= 6:
    sys.exit(f"{c} {d['summary']}")
print(f"+{c['increase']} in {d['summary']['window_seconds']:.1f} s")
PY
) && [ "$rc" -eq 1 ]; then
  ok "fabric errors window: the raised port only, with its increase ($out)"
else
  bad "fabric errors window: exit $rc: $out $(cat window.err)"
fi
revive_sm "the window"
# Lost bandwidth: PortXmitWait raised on h2 port 1 during a 5 s window
# with congestion 20; ibsim has no PortSamplesControl, so the tick is the
# default 7 and the share, by man rdma-fabric's formula, is
# increase x (7 + 1) x 8 / seconds / the link's rate (4X SDR, 1.25e9 B/s).
run "$RDMA" -j fabric errors window 5 congestion 20 >cong.json 2>cong.err &
cong_pid=$!
sleep 2
sim 'PerformanceSet "h2"[1] PortCounters.PortXmitWait=30000000'
wait "$cong_pid"
rc=$?
if out=$(python3 - cong.json <<'PY' 2>&1
import json, sys
d = json.load(open(sys.argv[1]))[0]
ports = {(p["description"], p["port"]): p for p in d["ports"]}
if set(ports) != {("h2", 1)}:
    sys.exit(f"ports {sorted(ports)}")
p, secs = ports[("h2", 1)], d["summary"]["window_seconds"]
w, inc = p["xmit_wait_share"], p["xmit_wait"]["increase"]
want = min(100.0, inc * (7 + 1) * 8 / secs / 1.25e9 * 100)
if (w["tick"], w["tick_source"], w["congested"]) != (7, "default", True) or abs(w["percent"] - want) > 0.01:
    sys.exit(f"{w}, want {want:.2f}% from +{inc} in {secs:.2f} s")
if (d["summary"]["ports_congested"], d["summary"]["congestion_percent"]) != (1, 20):
    sys.exit(f"summary {d['summary']}")
print(f"{w['percent']:.1f}% (+{inc} in {secs:.1f} s, tick 7 by default)")
PY
) && [ "$rc" -eq 1 ]; then
  ok "fabric errors window congestion: the raised port only, its share by the formula ($out)"
else
  bad "fabric errors window congestion: exit $rc: $out $(cat cong.err)"
fi
revive_sm "the congestion window"
sim 'PerformanceSet "h2"[1] PortCounters.PortXmitWait=0'
run "$RDMA" fabric errors save counters.json 2>/dev/null
expect "fabric errors since: nothing moved, exit 0" 0 '^window: [0-9]+ ports compared over .*, 0 over threshold, 0 cannot be judged, 0 flapped$' \
  fabric errors since counters.json
run "$RDMA" perf reset lid "$s2lid" port 3 >/dev/null 2>&1
sim 'PerformanceSet "h2"[1] PortCounters.PortRcvErrors=8'
expect "fabric errors since: a reset cannot be judged, a rise is over" 1 \
  'description "s2" port 3 .*symbol_errors 9->0 \(cannot judge: went down from 9 to 0 \(reset or wrapped\)\)' \
  fabric errors since counters.json
expect "fabric errors since: the rise" 1 'description "h2" port 1 .*rcv_errors 6->8 \(\+2, ' \
  fabric errors since counters.json
revive_sm "since"
sim 'PerformanceSet "h2"[1] PortCounters.PortRcvErrors=6'  # as the perf -w test below expects

# perf show -w: one port, the same way.
h2lid=$(run "$RDMA" -j fabric show 2>/dev/null |
  python3 -c 'import json,sys; print([n["lids"][0] for n in json.load(sys.stdin) if n["description"] == "h2"][0])')
run "$RDMA" -j -w 2 -c 2 perf show lid "$h2lid" >prates.json 2>prates.err &
rates_pid=$!
wait_lines prates.json 1
sim 'PerformanceSet "h2"[1] PortCounters.PortRcvErrors=16'
wait "$rates_pid"
rc=$?
if out=$(python3 - prates.json <<'PY' 2>&1
import json, sys
docs = [json.loads(l) for l in open(sys.argv[1])]
if len(docs) != 2 or "rate" in docs[0][0]:
    sys.exit(f"documents: {docs}")
p = docs[1][0]
if not (p["rcv_errors"] == 16 and 4.0 <= p["rate"]["rcv_errors"] <= 6.0):
    sys.exit(f"second reading: {p}")
print("%.2f/s" % p["rate"]["rcv_errors"])
PY
) && [ "$rc" -eq 0 ]; then
  ok "perf show -w: the rate after PerformanceSet ($out)"
else
  bad "perf show -w: exit $rc: $out $(cat prates.err)"
fi

# OpenMetrics and Prometheus text: read by prometheus_client's parsers,
# the same samples and values as -j. Debian's python3-prometheus-client is
# in /usr/bin/python3's path (a python3 of pyenv's first on PATH lacks it).
# The traffic counters count the MADs of the commands themselves.
traffic="xmit_bytes rcv_bytes xmit_pkts rcv_pkts unicast_xmit_pkts unicast_rcv_pkts"
traffic+=" multicast_xmit_pkts multicast_rcv_pkts"
pyprom=python3
python3 -c 'import prometheus_client' 2>/dev/null || pyprom=/usr/bin/python3
s2lid=$(run "$RDMA" -j fabric show 2>/dev/null |
  python3 -c 'import json,sys; print([n["lids"][0] for n in json.load(sys.stdin) if n["description"] == "s2"][0])')
sim 'PerformanceSet "s3"[2] PortCounters.PortXmitDiscards=5'
sim 'PerformanceSet "h3"[2] PortCounters.LinkDownedCounter=2'
sleep 0.5
# The metrics have every counter of every port (-d -j: of the ports listed),
# and no summary.
run "$RDMA" -d -j fabric errors data >om.all.json 2>/dev/null
# The port records (-j: [{"ports": [...], "summary": {...}}]).
python3 -c 'import json,sys; json.dump(json.load(open(sys.argv[1]))[0]["ports"], sys.stdout)' \
  om.all.json >om.json
run ibnetdiscover -p >ports.txt 2>/dev/null
for fmt in openmetrics prometheus; do
  run "$RDMA" --$fmt fabric errors data >om.txt 2>om.err
  rc=$?
  if out=$($pyprom "$HERE/metrics_compare.py" $fmt om.txt om.json rdma_ib_port_ \
    node_guid=local_guid description=local_name port=local_port -ignore lid port_guid \
    -rising $traffic -run rdma_ib_fabric_errors_ -more 2>&1) &&
    [ "$rc" -eq 1 ]; then
    ok "fabric errors --$fmt parsed = -j ($out)"
  else
    bad "fabric errors --$fmt: exit $rc: $out $(cat om.err)"
  fi
  run "$RDMA" -j perf show lid "$s2lid" port all >pm.json 2>/dev/null
  run "$RDMA" --$fmt perf show lid "$s2lid" port all >pm.txt 2>pm.err
  if out=$($pyprom "$HERE/metrics_compare.py" $fmt pm.txt pm.json rdma_ib_port_ port=local_port \
    -const local_guid local_name -rising $traffic -run rdma_ib_perf_ 2>&1); then
    ok "perf show --$fmt parsed = -j ($out)"
  else
    bad "perf show --$fmt: $out $(cat pm.err)"
  fi
  # One port of s2: its far end from the SA's LinkRecord, as the report has it.
  run "$RDMA" --$fmt perf show lid "$s2lid" port 1 >pm1.txt 2>pm.err
  if out=$($pyprom "$HERE/metrics_links.py" $fmt pm1.txt ports.txt rdma_ib_port_symbol_errors \
    -subset -up rdma_ib_perf_ 2>&1); then
    ok "perf show --$fmt: port 1's far end = ibnetdiscover -p ($out)"
  else
    bad "perf show --$fmt: far end: $out $(cat pm.err)"
  fi
  # Both ends of each cable as ibnetdiscover's ports report names them: every
  # connected port in fabric errors, every link once in fabric links.
  if out=$($pyprom "$HERE/metrics_links.py" $fmt om.txt ports.txt rdma_ib_port_symbol_errors \
    -up rdma_ib_fabric_errors_ 2>&1); then
    ok "fabric errors --$fmt: remote ends = ibnetdiscover -p ($out)"
  else
    bad "fabric errors --$fmt: remote ends: $out"
  fi
  run "$RDMA" --$fmt fabric links >lm.txt 2>lm.err
  if out=$($pyprom "$HERE/metrics_links.py" $fmt lm.txt ports.txt rdma_ib_link_state -each-once \
    -up rdma_ib_fabric_links_ 2>&1); then
    ok "fabric links --$fmt: the links = ibnetdiscover -p ($out)"
  else
    bad "fabric links --$fmt: $out $(cat lm.err)"
  fi
done
# --output: the file written whole when the run succeeds, replaced by up 0
# alone (no samples) when the sweep fails (no node has LID 999), left as it
# was after a command-line error (LID 60000 is no unicast LID); both
# failures exit 2 (fabric errors exits as diff(1));
# promtool's lint where Debian's prometheus package is installed.
rm -rf prom.d && mkdir prom.d
run "$RDMA" --prometheus --output prom.d/rdma_ib.prom fabric errors data >out.txt 2>out.err
rc=$?
cp prom.d/rdma_ib.prom prom.before 2>/dev/null
run "$RDMA" --prometheus --output prom.d/rdma_ib.prom fabric errors lid 60000 >>out.txt 2>>out.err
rc3=$?
cmp -s prom.d/rdma_ib.prom prom.before || rc3=kept-not
run "$RDMA" --prometheus --output prom.d/rdma_ib.prom fabric errors lid 999 >>out.txt 2>>out.err
rc2=$?
if [ "$rc" -le 1 ] && [ "$rc2" -eq 2 ] && [ "$rc3" = 2 ] && [ ! -s out.txt ] &&
  grep -qx 'rdma_ib_fabric_errors_up 1' prom.before &&
  grep -q '^rdma_ib_port_' prom.before &&
  grep -qx 'rdma_ib_fabric_errors_up 0' prom.d/rdma_ib.prom &&
  ! grep -q '^rdma_ib_port_' prom.d/rdma_ib.prom && [ "$(ls -A prom.d)" = rdma_ib.prom ]; then
  ok "--output: written when the sweep succeeds, up 0 alone when it fails, kept after a usage error"
else
  bad "--output: exit $rc/$rc2/$rc3, $(ls -A prom.d) $(cat out.err)"
fi
if command -v promtool >/dev/null; then
  if out=$(promtool check metrics <prom.d/rdma_ib.prom 2>&1) &&
    run "$RDMA" --prometheus fabric links | promtool check metrics >lint.txt 2>&1; then
    ok "promtool check metrics: fabric errors and fabric links"
  else
    bad "promtool check metrics: $out $(cat lint.txt)"
  fi
fi
# The window's metrics: a flap (LinkDowned rises during the window) and
# an increase as gauges, parsed by prometheus_client (and promtool).
run "$RDMA" fabric errors save wm.json 2>/dev/null
sim 'PerformanceSet "h3"[2] PortCounters.LinkDownedCounter=5'
sim 'PerformanceSet "h2"[1] PortCounters.PortXmitWait=1000000'
run "$RDMA" --prometheus fabric errors since wm.json >wm.prom 2>wm.err
rc=$?
if out=$($pyprom - wm.prom <<'PY' 2>&1
import sys
from prometheus_client.parser import text_string_to_metric_families as fams
f = {m.name: m for m in fams(open(sys.argv[1]).read())}
downs = [(s.labels["local_name"], s.labels["local_port"], s.value) for s in f["rdma_ib_port_link_downs"].samples if s.value]
if f["rdma_ib_port_link_downs"].type != "gauge" or downs != [("h3", "2", 3.0)]:
    sys.exit(f"link_downs {downs}")
waits = [(s.labels["local_name"], s.labels["local_port"]) for s in f["rdma_ib_port_xmit_wait_ratio"].samples if s.value]
share = [s.value for s in f["rdma_ib_port_xmit_wait_ratio"].samples if s.value]
if f["rdma_ib_port_xmit_wait_ratio"].type != "gauge" or waits != [("h2", "1")] or not 0 < share[0] <= 1:
    sys.exit(f"xmit_wait_ratio {waits} {share}")
print(f"{len(f['rdma_ib_port_link_downs'].samples)} ports, h3 port 2 down 3 times, h2 port 1 wait share {share[0]:.4f}")
PY
) && [ "$rc" -eq 1 ] && { ! command -v promtool >/dev/null || promtool check metrics <wm.prom >/dev/null 2>&1; }; then
  ok "fabric errors since --prometheus: the flap and the wait share as gauges ($out)"
else
  bad "fabric errors since --prometheus: exit $rc: $out $(cat wm.err)"
fi
revive_sm "since --prometheus"
run "$RDMA" fabric errors reset >/dev/null 2>&1

# Degraded links: ibsim trains every link at 4X SDR while its ports
# support 12X QDR, so iblinkinfo says "Could be" on each; the links (by LID
# and port, both ends) and the widths and speeds they could run at agree.
run iblinkinfo >li.txt 2>/dev/null
run "$RDMA" -j fabric links degraded >deg.json 2>deg.err
deg_rc=$?
if out=$(python3 - li.txt deg.json <<'PY' 2>&1
import json, re, sys
diags = set()
for line in open(sys.argv[1]):
    m = re.search(r"(\d+)\s+(\d+)\[..\] ==\(.*\)==>\s+(\d+)\s+(\d+)\[..\] \".*\" \(Could be (\S+) Could be (\S+) Gbps\)", line)
    if m:
        a, b = (int(m[1]), int(m[2])), (int(m[3]), int(m[4]))
        diags.add((min(a, b), max(a, b), m[5], float(m[6])))
ours = set()
for l in json.load(open(sys.argv[2])):
    a, b = (l["lid"], l["port"]), (l["peer_lid"], l["peer_port"])
    ours.add((min(a, b), max(a, b), l["could_be_width"], l["could_be_speed"]))
if not diags or diags != ours:
    sys.exit(f"iblinkinfo {sorted(diags)}, rdma {sorted(ours)}")
print(f"{len(ours)} links")
PY
) && [ "$deg_rc" -eq 1 ]; then
  ok "fabric links degraded = iblinkinfo's \"Could be\" ($out), exit 1 (findings)"
else
  bad "fabric links degraded: exit $deg_rc: $out $(cat deg.err)"
fi
run "$RDMA" fabric links down >down.txt 2>/dev/null
down_rc=$?
n=$(grep -c 'state DOWN' down.txt)
m=$(grep -c 'Down/ *Polling' li.txt)
if [ "$n" -gt 0 ] && [ "$n" -eq "$m" ] && [ "$down_rc" -eq 1 ]; then
  ok "fabric links down: $n ports, as iblinkinfo, exit 1 (findings)"
else
  bad "fabric links down: $n, iblinkinfo $m, exit $down_rc"
fi

# iblinkinfo's filters: --switches-only and --cas-only list the ports of
# those nodes only, each from its own end (a link between two switches
# twice): the same (node, port, peer, peer port) rows, each as often, as
# `fabric links switches|cas`.
kind_links() { # NAME IBLINKINFO-FLAG WORD
  local out
  run iblinkinfo "$2" >kind.txt 2>/dev/null
  run "$RDMA" -j fabric links "$3" >kind.json 2>kind.err
  if out=$(python3 - kind.txt kind.json "$HERE" <<'PY' 2>&1
import collections, json, sys
sys.path.insert(0, sys.argv[3])
from iblinkinfo_rows import rows
diags = collections.Counter(rows(sys.argv[1])[1])
ours = collections.Counter((l["description"], l["port"], l["peer_description"], l["peer_port"])
                           for l in json.load(open(sys.argv[2], encoding="utf-8")))
if not ours or diags != ours:
    sys.exit(f"only iblinkinfo {sorted((diags - ours).elements())}, "
             f"only rdma {sorted((ours - diags).elements())}")
print(f"{sum(ours.values())} ports")
PY
  ) && [ ! -s kind.err ]; then
    ok "$1 ($out)"
  else
    bad "$1: $out $(cat kind.err)"
  fi
}
kind_links "fabric links switches = iblinkinfo --switches-only" --switches-only switches
kind_links "fabric links cas = iblinkinfo --cas-only" --cas-only cas
expect "fabric links: switches and cas exclude each other" 1 \
  '^"switches" and "cas" exclude each other' fabric links switches cas

# iblinkinfo -p: each end's HOQLife and VLStallCount, in -d fabric links
# as hoq_life and vl_stall_count (peer_ for the other end). opensm sets a
# switch port's HOQLife apart from its host's, so each end must be its own.
run iblinkinfo -p >iblp.txt 2>/dev/null
run "$RDMA" -j -d fabric links >iblp.json 2>iblp.err
rc=$?
if out=$(python3 - iblp.txt iblp.json "$HERE" <<'PY' 2>&1
import json, re, sys
sys.path.insert(0, sys.argv[3])
from iblinkinfo_rows import port_lines
diags = {}
for head, port, line in port_lines(sys.argv[1]):
    m = re.search(r"\) \(HOQ:(\d+) VL_Stall:(\d+)\)==>", line)
    if m:
        diags[(head, port)] = (int(m[1]), int(m[2]))
ours = {}
for l in json.load(open(sys.argv[2], encoding="utf-8")):
    ours[(l["description"], l["port"])] = (l.get("hoq_life"), l.get("vl_stall_count"))
    ours[(l["peer_description"], l["peer_port"])] = (l.get("peer_hoq_life"),
                                                     l.get("peer_vl_stall_count"))
hoqs = {h for h, _ in diags.values()}
if not diags or diags != ours or len(hoqs) < 2:
    sys.exit(f"only iblinkinfo {sorted(set(diags.items()) - set(ours.items()))}, "
             f"only rdma {sorted(set(ours.items()) - set(diags.items()))}, HOQs {hoqs}")
print(f"{len(ours)} ports, HOQLife {sorted(hoqs)}")
PY
) && [ "$rc" -eq 0 ]; then
  ok "-d fabric links: hoq_life, vl_stall_count = iblinkinfo -p ($out)"
else
  bad "-d fabric links vs iblinkinfo -p: exit $rc: $out $(cat iblp.err)"
fi

# ibqueryerrors --counters (ibtool's ibdatacounters): every port's data
# counters, judged against nothing. The same ports (by node GUID and
# port), each counter ibqueryerrors prints present, the data in bytes (its
# words times 4); ours read after, so never below. No findings: exit 0.
run ibqueryerrors --counters >qc.txt 2>/dev/null
run "$RDMA" -j fabric counters >qc.json 2>qc.err
qc_rc=$?
if out=$(python3 - qc.txt qc.json <<'PY' 2>&1
import json, re, sys
KEYS = {"XmitData": "xmit_bytes", "RcvData": "rcv_bytes", "XmitPkts": "xmit_pkts",
        "RcvPkts": "rcv_pkts", "UnicastXmitPkts": "unicast_xmit_pkts",
        "UnicastRcvPkts": "unicast_rcv_pkts", "MulticastXmitPkts": "multicast_xmit_pkts",
        "MulticastRcvPkts": "multicast_rcv_pkts"}
diags = {}
for line in open(sys.argv[1]):
    m = re.match(r"^\s+GUID (0x[0-9a-f]+) port (\d+):(.*)$", line)
    if m:
        vals = {}
        for name, v in re.findall(r"\[(\w+) == (\d+)", m[3]):
            key = KEYS[name.removeprefix("Port").replace("Xmt", "Xmit")]
            vals[key] = int(v) * (4 if key.endswith("_bytes") else 1)
        diags[(int(m[1], 16), int(m[2]))] = vals
ours = {(int(p["node_guid"], 16), p["port"]): p for p in json.load(open(sys.argv[2]))}
bad = [f"{k}: {n} {v} > {ours.get(k, {}).get(n)}" for k, d in diags.items() for n, v in d.items()
       if ours.get(k, {}).get(n, -1) < v]
if not diags or set(diags) != set(ours) or bad:
    sys.exit(f"only ibqueryerrors {sorted(set(diags) - set(ours))}, "
             f"only rdma {sorted(set(ours) - set(diags))}, {bad[:5]}")
print(f"{len(ours)} ports, {sum(len(d) for d in diags.values())} counters")
PY
) && [ "$qc_rc" -eq 0 ] && [ ! -s qc.err ]; then
  ok "fabric counters = ibqueryerrors --counters ($out), exit 0"
else
  bad "fabric counters: exit $qc_rc: $out $(cat qc.err)"
fi
expect "fabric counters lid L port N: that port only" 0 "^node_guid .* port 1 .*xmit_bytes " \
  fabric counters lid "$(run "$RDMA" -j fabric show cas 2>/dev/null | python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["lids"][0])')" port 1

# Partial scans: fabric links from TARGET and hops N list the links
# iblinkinfo -D PATH and -n N print between the nodes they found
# (a port whose peer lies beyond the scan has no peer in either).
S2=$(sed -n 's/^Switch\s*: \(0x[0-9a-f]*\) .*"s2".*/\1/p' nodes.txt)
partial_links() { # NAME "IBLINKINFO ARGS" RDMA ARGS...
  local name=$1 diags=$2 out
  shift 2
  # shellcheck disable=SC2086
  run iblinkinfo $diags >part.txt 2>/dev/null
  run "$RDMA" -j fabric links "$@" >part.json 2>part.err
  if out=$(python3 - part.txt part.json "$HERE" <<'PY' 2>&1
import json, sys
sys.path.insert(0, sys.argv[3])
from iblinkinfo_rows import rows
heads, found = rows(sys.argv[1])
lines = [((h, p), (n, q)) for h, p, n, q in found]
# -S/-D print the start node alone: its links; -n every node found.
diags = {frozenset(l) for l in lines if len(heads) == 1 or l[1][0] in heads}
ours = {frozenset(((l["description"], l["port"]), (l["peer_description"], l["peer_port"])))
        for l in json.load(open(sys.argv[2], encoding="utf-8"))}
if not ours or diags != ours:
    sys.exit(f"only iblinkinfo {[sorted(x) for x in diags - ours]}, "
             f"only rdma {[sorted(x) for x in ours - diags]}")
print(f"{len(ours)} links")
PY
  ) && [ ! -s part.err ]; then
    ok "$name ($out)"
  else
    bad "$name: $out $(cat part.err)"
  fi
}
# (iblinkinfo -S GUID prints no link on ibsim: s2's ports by its route.)
partial_links "fabric links from guid (through the SA) = iblinkinfo -D" "-D 0,1,3" from guid "$S2"
partial_links "fabric links from dr = iblinkinfo -D" "-D 0,1" from dr 0,1
S3_LID=$(run "$RDMA" -j fabric show switches 2>/dev/null |
  python3 -c 'import json, sys; print(*[n["lids"][0] for n in json.load(sys.stdin) if n["description"] == "s3"])')
partial_links "fabric links from lid (through the tables) = iblinkinfo -D" "-D 0,1,3,6" from lid "$S3_LID"
partial_links "fabric links hops 2 = iblinkinfo -n 2" "-n 2" hops 2

# A sick node: ibsim drops h4's NodeInfo (umad2sim gives each try back at
# once, as said). The rest is listed, one warning
# names the route and the attribute, exit 1, and the time is one
# timeout x tries, not one per query.
sim 'Error "h4" 100 17'
sleep 0.5
start=$(date +%s%N)
out=$(run "$RDMA" --timeout 200 --retries 1 fabric show 2>&1)
rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
if [ "$rc" -eq 1 ] && grep -q '^warning: no reply to NodeInfo from dr 0,1,3,2 (2 tries, each given back at once by the local port: Connection timed out)$' <<<"$out" &&
  [ "$(grep -c '^type ' <<<"$out")" -eq 7 ] && [ "$ms" -lt 5000 ]; then
  ok "sick node: 7 of 8 nodes, one warning, exit 1, ${ms} ms"
else
  bad "sick node: exit $rc, ${ms} ms: $out"
fi
sim 'Error "h4" 0 17'

check_line_ends
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
