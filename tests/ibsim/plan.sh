#!/bin/bash
# The cable-plan suite: `rdma fabric plan` on plan.net (the fabric as
# designed) and plan-built.net (as built, one case of each finding; its
# header is the ground truth checked here). Two simulator sessions:
#  1. plan.net: before opensm every cable is INIT (10 not-active errors);
#     then no finding against plan.net itself, against the plans rdma
#     writes (CSV, topology, saved fabric) and against ibnetdiscover's own
#     topology file; the CSV's cables are ibnetdiscover's links.
#  2. plan-built.net: each of those plans gives exactly the findings the
#     net file's header lists (the replaced HCA only where the plan has
#     GUIDs, the slow link against the plan's 4X where it has rates), and
#     exit status 1; a plan that cannot be read is status 2.
#  3. tests/data/fattree-3level.net (bench/fattree.py, three levels):
#     `fabric topology slurm` (tree and block) equal to the golden files
#     the unit tests check on the fabric double, and the tree read by
#     Slurm's own parser: slurmctld 22.05 (munged beside it) with a minimal
#     slurm.conf, then `scontrol show topology`: every switch, the levels
#     Slurm computes (leaf 0, agg 1, core 2), each leaf's hosts as the net
#     file cables them, each switch's switches as ours. And `fabric check
#     fattree` there: three levels, no error, every CA port pair in the
#     hop histogram. (`fabric check nodes` in session 2: the duplicate.)
#   tests/ibsim/plan.sh [--rdma PATH]
# Ends with "N passed, M failed"; exits non-zero on any failure.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ARGS=("$@")
PLANS=$(mktemp -d /tmp/rdma-plan.XXXXXX)
trap 'rm -rf "$PLANS"' EXIT

# session NET BODY: ibsim on NET (lib.sh) in a subshell, BODY's checks;
# prints its "N passed, M failed".
session() (
  NET=$HERE/$1
  set -- "${ARGS[@]}"
  # shellcheck source=tests/ibsim/lib.sh
  . "$HERE/lib.sh"
  "$BODY"
  echo "$PASS passed, $FAIL failed"
)

# plan_json PLAN: rdma -j fabric plan check PLAN into $PLANS/r.json, its
# exit status in RC.
plan_json() {
  run "$RDMA" -j fabric plan check "$1" >"$PLANS/r.json" 2>"$PLANS/r.err"
  RC=$?
}

designed() {
  plan_json "$HERE/plan.net"
  if out=$(python3 - "$PLANS/r.json" <<'PY' 2>&1
import json, sys
j = json.load(open(sys.argv[1]))
f, s = j[:-1], j[-1]["summary"]
assert len(f) == 10 and all(x["finding"] == "not-active" and "is INIT, not ACTIVE" in x["what"] for x in f), f
assert s == {"planned": 10, "as_planned": 10, "errors": 10, "warnings": 0, "notes": 0}, s
PY
  ) && [ "$RC" -eq 1 ]; then
    ok "plan check before the SM: every cable INIT, exit 1"
  else
    bad "plan check before the SM: exit $RC $out $(cat "$PLANS/r.err")"
  fi
  start_opensm
  expect "plan check plan.net: as designed, exit 0" 0 \
    '^summary: 10 cables planned, 10 as planned, 0 errors, 0 warnings, 0 notes' \
    fabric plan check "$HERE/plan.net"
  run "$RDMA" fabric plan write "$PLANS/plan.csv" && ok "plan write csv" || bad "plan write csv"
  run "$RDMA" fabric plan write "$PLANS/plan.topo" topology && ok "plan write topology" ||
    bad "plan write topology"
  run "$RDMA" fabric save "$PLANS/plan.fab" && ok "fabric save" || bad "fabric save"
  run ibnetdiscover >"$PLANS/ibnd.topo" 2>/dev/null
  run ibnetdiscover -p >"$PLANS/ibnd-p.txt" 2>/dev/null
  for p in plan.csv plan.topo plan.fab ibnd.topo; do
    out=$(run "$RDMA" fabric plan check "$PLANS/$p" 2>&1)
    rc=$?
    if [ "$rc" -eq 0 ] && [ "$out" = "summary: 10 cables planned, 10 as planned, 0 errors, 0 warnings, 0 notes" ]; then
      ok "plan check $p: as designed"
    else
      bad "plan check $p: exit $rc: $out"
    fi
  done
  # The CSV's cables against ibnetdiscover -p's links (description, port).
  if out=$(python3 - "$PLANS/plan.csv" "$PLANS/ibnd-p.txt" <<'PY' 2>&1
import csv, re, sys
ours = set()
for r in csv.DictReader(open(sys.argv[1])):
    assert r["LinkType"] == "Data" and r["Width"] == "4X" and r["Speed"] == "SDR", r
    ours.add(frozenset([(r["StartDevice"], int(r["StartPort"])), (r["EndDevice"], int(r["EndPort"]))]))
theirs = set()
for line in open(sys.argv[2]):
    m = re.match(r"^(SW|CA)\s+\d+\s+(\d+)\s+0x[0-9a-f]+\s.*?\s-\s+(SW|CA)\s+\d+\s+(\d+)\s+0x[0-9a-f]+\s+\(\s*'([^']*)'\s+-\s+'([^']*)'\s*\)", line)
    if m:
        theirs.add(frozenset([(m.group(5), int(m.group(2))), (m.group(6), int(m.group(4)))]))
assert len(theirs) == 10, theirs
assert ours == theirs, (ours ^ theirs)
print(len(ours), "cables")
PY
  ); then
    ok "plan write csv: ibnetdiscover -p's links ($out)"
  else
    bad "plan write csv against ibnetdiscover -p: $out"
  fi
}

built() {
  start_opensm
  for p in "$HERE/plan.net" "$PLANS/plan.csv" "$PLANS/plan.topo" "$PLANS/plan.fab" "$PLANS/ibnd.topo"; do
    plan_json "$p"
    if out=$(python3 - "$PLANS/r.json" "$(basename "$p")" <<'PY' 2>&1
import json, sys
j, plan = json.load(open(sys.argv[1])), sys.argv[2]
want = {
    ("swapped", '"s2" port 1 goes to "h6" port 1 and "s2" port 2 to "h5" port 1'),
    ("missing", '"s1" port 4 - "s2" port 4 is missing'),
    ("unplanned", '"s1" port 7 - "s2" port 7 is not in the plan'),
    ("miswired", '"h4" port 1 goes to "s1" port 9, the plan says "s1" port 6'),
    ("absent", 'planned node "h9" is not found'),
    ("unknown", 'node "h8" 0x0002c90300abcdf1 is not in the plan'),
    ("ambiguous", 'the name "h2" is used by 2 nodes of the fabric'),
}
if plan != "plan.net":  # plans with rates
    want.add(("slow", '"s1" port 5 - "h3" port 1 runs 1X SDR, the plan says 4X SDR'))
if plan != "plan.net" and plan != "plan.csv":  # plans with GUIDs
    want.add(("replaced", '"h7" has node GUID 0x0002c90300abcdef, the plan says 0x000000000010000c'))
f, s = j[:-1], j[-1]["summary"]
got = set()
for x in f:
    match = [w for w in want if w[0] == x["finding"] and w[1] in x["what"]]
    assert len(match) == 1, ("unexpected", x)
    got.add(match[0])
assert got == want and len(f) == len(want), ("missing", want - got)
sev = {x["finding"]: x["severity"] for x in f}
assert sev["unknown"] == sev["unplanned"] == "warning", sev
assert sev.get("replaced", "info") == "info", sev
assert sev["swapped"] == "error" and len(next(x for x in f if x["finding"] == "swapped")["ports"]) == 4
errors = 5 if plan == "plan.net" else 6
assert s["planned"] == 10 and s["as_planned"] == 4 and s["errors"] == errors and s["warnings"] == 2, s
print(len(f), "findings")
PY
    ) && [ "$RC" -eq 1 ]; then
      ok "plan check $(basename "$p") on the fabric as built: each case once, exit 1 ($out)"
    else
      bad "plan check $(basename "$p") as built: exit $RC $out $(cat "$PLANS/r.err")"
    fi
  done
  expect "plan check, text: the swap on one line" 1 \
    '^finding swapped severity error what "cables swapped: "s2" port 1 goes to' \
    fabric plan check "$HERE/plan.net"
  # fabric check nodes: the second node described "h2", a warning (exit 0).
  expect "fabric check nodes: the duplicate description" 0 \
    '^check nodes severity warning what "description "h2" on 2 nodes" where "h2" 0x0000000000100002 port 1 lid [0-9]+; "h2" 0x0002c90300abcdf3 port 1 lid [0-9]+' \
    fabric check nodes
  printf 'StartDevice,StartPort\n' >"$PLANS/bad.csv"
  expect "plan check of a plan that cannot be read: exit 2" 2 \
    'bad.csv:1: the header must name StartDevice' fabric plan check "$PLANS/bad.csv"
}

# Slurm's controller on $WORK/slurm with topology.conf from $1, munged
# beside it; SLURM_CONF set; stop_slurm stops both.
start_slurm() {
  local d=$WORK/slurm hosts
  mkdir -p "$d/state"
  chmod 711 "$WORK"  # munged wants every directory above its socket searchable
  SLURM_CONF=$d/slurm.conf
  export SLURM_CONF
  mungekey -c -k "$d/munge.key" -b 1024 2>/dev/null
  munged --key-file="$d/munge.key" --socket="$d/munge.sock" --pid-file="$d/munged.pid" \
    --log-file="$d/munged.log" --seed-file="$d/munge.seed" 2>/dev/null
  cp "$1" "$d/topology.conf"
  cat >"$d/slurm.conf" <<CONF
ClusterName=rdmatest
SlurmctldHost=localhost
SlurmctldPort=$((20000 + $$ % 10000))
AuthType=auth/munge
AuthInfo=socket=$d/munge.sock
CredType=cred/munge
SlurmUser=$(id -un)
StateSaveLocation=$d/state
SlurmctldPidFile=$d/slurmctld.pid
SlurmctldLogFile=$d/slurmctld.log
MailProg=/bin/true
TopologyPlugin=topology/tree
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/linear
NodeName=DEFAULT CPUs=1 State=UNKNOWN
CONF
  # Every host the file names (scontrol expands hostlists without a
  # controller, with a configuration that has no node yet).
  hosts=$(sed -n 's/.* Nodes=//p' "$1" | tr '\n' ',' | sed 's/,$//' |
    xargs -I{} scontrol show hostnames {} | sort -u)
  for h in $hosts; do echo "NodeName=$h NodeAddr=127.0.0.1" >>"$d/slurm.conf"; done
  echo "PartitionName=all Nodes=ALL Default=YES" >>"$d/slurm.conf"
  slurmctld -D -f "$d/slurm.conf" >"$d/slurmctld.out" 2>&1 &
  SLURMCTLD_PID=$!
  for _ in $(seq 60); do scontrol show topology >/dev/null 2>&1 && break; sleep 0.5; done
}
stop_slurm() {
  kill "$SLURMCTLD_PID" 2>/dev/null && wait "$SLURMCTLD_PID" 2>/dev/null
  [ -f "$WORK/slurm/munged.pid" ] && kill "$(cat "$WORK/slurm/munged.pid")" 2>/dev/null
}

fattree() {
  local golden=$HERE/../data/golden/slurm
  for format in tree block; do
    run "$RDMA" fabric topology slurm $format >"$PLANS/$format.conf" 2>"$PLANS/$format.err"
    if diff -u "$golden/fattree-3level.$format.conf" "$PLANS/$format.conf" >"$PLANS/diff" 2>&1; then
      ok "topology slurm $format: the golden file (the fabric double's)"
    else
      bad "topology slurm $format: $(cat "$PLANS/diff" "$PLANS/$format.err")"
    fi
  done
  # fabric check fattree: the tables opensm programs; three levels, no
  # error, every CA port pair routed (P ports with a link: P*(P-1) pairs).
  start_opensm
  run "$RDMA" -j fabric check fattree >"$PLANS/ft.json" 2>"$PLANS/ft.err"
  rc=$?
  if out=$(python3 - "$PLANS/ft.json" "$NET" <<'PY' 2>&1
import json, re, sys
f = json.load(open(sys.argv[1]))  # fabric check -j: the findings alone
assert all(x["severity"] == "info" for x in f), f
notes = [x["what"] for x in f]
assert notes[0].startswith("level 1: 10 switches, ") and notes[1].startswith("level 2: 12 switches, ") \
    and notes[2].startswith("level 3: 8 switches, "), notes
ports = 0
cur = None
for line in open(sys.argv[2]):
    if re.match(r'^Hca\s', line):
        cur = "hca"
    elif re.match(r'^Switch\s', line):
        cur = "sw"
    elif cur == "hca" and re.match(r'^\[\d+\]\s+"', line):
        ports += 1
hist = dict((int(a), int(b)) for a, b in re.findall(r'(\d+): (\d+)', notes[3].split(":", 1)[1]))
assert "not routed" not in notes[3] and sum(hist.values()) == ports * (ports - 1), (notes[3], ports)
assert set(hist) <= {1, 3, 5}, hist  # same leaf, over an agg, over a core
print(notes[3])
PY
  ) && [ "$rc" -eq 0 ]; then
    ok "fabric check fattree: three levels, no error ($out)"
  else
    bad "fabric check fattree: exit $rc $out $(cat "$PLANS/ft.err")"
  fi
  for t in slurmctld scontrol munged mungekey; do
    command -v $t >/dev/null || { bad "$t missing (tests/ibsim/setup.sh)"; return; }
  done
  start_slurm "$PLANS/tree.conf"
  scontrol show topology >"$PLANS/scontrol.txt" 2>&1
  stop_slurm
  if out=$(python3 - "$PLANS/scontrol.txt" "$PLANS/tree.conf" "$NET" <<'PY' 2>&1
import re, subprocess, sys
def hosts(expr):
    if not expr:
        return set()
    return set(subprocess.run(["scontrol", "show", "hostnames", expr], capture_output=True,
                              text=True, check=True).stdout.split())
def fields(line):
    return dict(w.split("=", 1) for w in line.split())
slurm = {}
for line in open(sys.argv[1]):
    if line.startswith("SwitchName="):
        f = fields(line)
        slurm[f["SwitchName"]] = f
ours = {}
for line in open(sys.argv[2]):
    if line.startswith("SwitchName="):
        f = fields(line)
        ours[f["SwitchName"]] = f
# The net file's ground truth: each switch's hosts.
truth, cur = {}, None
for line in open(sys.argv[3]):
    m = re.match(r'^Switch\s+\d+\s+"([^"]+)"', line)
    if m:
        cur = m.group(1)
        truth[cur] = set()
    elif re.match(r'^(Hca|Ca)\s', line):
        cur = None
    else:
        m = re.match(r'^\[\d+\]\s+"(hca-\d+)"', line)
        if m and cur:
            truth[cur].add(m.group(1))
assert set(slurm) == set(ours) == set(truth), (set(slurm) ^ set(truth))
levels = {"leaf": "0", "agg": "1", "core": "2"}
for name, f in slurm.items():
    assert f["Level"] == levels[name.split("-")[0]], (name, f)
    if f["Level"] == "0":
        assert hosts(f.get("Nodes")) == truth[name], (name, f)
    else:
        assert hosts(f["Switches"]) == hosts(ours[name]["Switches"]), (name, f)
print(len(slurm), "switches,", len(hosts(",".join(f["Nodes"] for f in slurm.values() if f["Level"] == "0"))), "hosts")
PY
  ); then
    ok "topology slurm tree read by slurmctld: scontrol show topology ($out)"
  else
    bad "topology slurm tree in Slurm: $out $(head -5 "$PLANS/scontrol.txt") $(grep error "$WORK/slurm/slurmctld.log" | head -5)"
  fi
}

total_pass=0
total_fail=0
for s in "plan.net designed" "plan-built.net built" "../data/fattree-3level.net fattree"; do
  read -r net body <<<"$s"
  # Each session's lines reach the log through a file: a tee to
  # /dev/stderr reopens a log file at offset 0 and wrote over the lines
  # before it (CI's summary read "4 passed" where there were 22).
  (BODY=$body session "$net") >"$PLANS/session.out" 2>&1
  cat "$PLANS/session.out"
  result=$(tail -n 1 "$PLANS/session.out")
  p=${result%% passed*}
  f=${result##*passed, }
  f=${f%% failed}
  [[ $p =~ ^[0-9]+$ && $f =~ ^[0-9]+$ ]] || { p=0; f=1; }
  total_pass=$((total_pass + p))
  total_fail=$((total_fail + f))
done 2>&1
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
