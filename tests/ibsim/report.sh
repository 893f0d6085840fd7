#!/bin/bash
# The fabric report suite: `rdma fabric report DIR` on a generated fat tree
# whose links run at what both ends support (bench/fattree.py --link), first
# healthy (verdict healthy, only notes, exit 0), then sick: an error counter
# raised (PerformanceSet), the SM stopped and a leaf-spine link unlinked
# under its stale tables, a duplicate LID (Baselid), two cables crossed
# against the cable plan (`plan`), and symbol errors rising during a
# counter window (`window`). Each problem is
# checked in findings.json, in the page and in metrics.prom (prometheus
# client's parser, promtool), and the page is read by html5lib and shown by
# headless Chromium (report_page.py: the verdict and the checks' table in
# the first screen, a screenshot kept in the log directory).
#   tests/ibsim/report.sh [--rdma PATH]
# Ends with "N passed, M failed"; exits non-zero on any failure.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
GEN=$(mktemp /tmp/rdma-report-net.XXXXXX)
python3 "$HERE/../../bench/fattree.py" --nodes 60 --link "w=8 s=7" >"$GEN" 2>/dev/null
NET=$GEN
# shellcheck source=tests/ibsim/lib.sh
. "$(dirname "$0")/lib.sh"
SHOTS=${RDMA_TEST_LOG:-$WORK}
PY=/usr/bin/python3  # Debian's, with html5lib, selenium and prometheus_client

# page DIR NAME: report_page.py's checks as this suite's.
page() {
  local out
  out=$(env -u LD_PRELOAD timeout 120 "$PY" "$HERE/report_page.py" "$1" "$SHOTS/report-$2.png" 2>&1)
  while IFS= read -r line; do
    case $line in
      ok:*) ok "$2: ${line#ok: }" ;;
      FAIL:*) bad "$2: ${line#FAIL: }" ;;
    esac
  done <<<"$out"
  grep -qE '^(ok|FAIL):' <<<"$out" || bad "$2: report_page.py: $out"
}

# findings DIR PYTHON-EXPR: true when the expression holds for findings.json
# (j) and its list of findings (f).
findings() {
  python3 -c 'import json,sys; j=json.load(open(sys.argv[1]+"/findings.json")); f=j["findings"]; sys.exit(0 if eval(sys.argv[2]) else 1)' "$@"
}

# metrics DIR: metrics.prom read by prometheus_client and linted by promtool.
metrics() {
  if "$PY" -c 'import sys; from prometheus_client.parser import text_string_to_metric_families as p; n=sum(len(f.samples) for f in p(open(sys.argv[1]).read())); sys.exit(0 if n else 1)' "$1/metrics.prom"; then
    ok "$2: metrics.prom parses (prometheus_client)"
  else
    bad "$2: metrics.prom does not parse"
  fi
  if out=$(promtool check metrics <"$1/metrics.prom" 2>&1); then
    ok "$2: promtool check metrics"
  else
    bad "$2: promtool: $out"
  fi
}

start_opensm

# Healthy: every link at its best, one SM.
run "$RDMA" fabric report clean >clean.txt 2>clean.err
rc=$?
[ "$rc" -eq 0 ] && ok "healthy: exit 0" || bad "healthy: exit $rc: $(cat clean.txt clean.err)"
grep -qE '^clean/report.html: fabric healthy: 0 errors, 0 warnings, [1-9][0-9]* notes?$' clean.txt &&
  ok "healthy: the verdict line" || bad "healthy: $(cat clean.txt)"
for f in report.html fabric.json findings.json counters.json metrics.prom; do
  [ -s "clean/$f" ] && ok "healthy: $f written" || bad "healthy: no $f"
done
findings clean 'j["summary"]["verdict"] == "healthy" and all(x["severity"] == "info" for x in f)' &&
  ok "healthy: findings.json has notes only" || bad "healthy: $(head -c 600 clean/findings.json)"
page clean healthy
metrics clean healthy
# The saved fabric is one `from` loads.
run "$RDMA" fabric links from clean/fabric.json >links.txt 2>&1 &&
  [ "$(wc -l <links.txt)" -gt 50 ] && ok "healthy: fabric.json loads with from" ||
  bad "healthy: from clean/fabric.json: $(head -3 links.txt)"
# -j: the summary alone on stdout, one object.
run "$RDMA" -j fabric report clean >clean.json 2>/dev/null
python3 -c 'import json,sys; j=json.load(open("clean.json")); sys.exit(0 if len(j) == 1 and j[0]["verdict"] == "healthy" and j[0]["report"] == "clean/report.html" else 1)' &&
  ok "healthy -j: one summary object" || bad "healthy -j: $(cat clean.json)"

# The cable plan while the fabric is as built, then two of its cables
# crossed in the plan: the report with the plan names the swap.
run "$RDMA" fabric plan write plan.csv csv 2>/dev/null
python3 - plan.csv <<'PY'
import sys
rows = open(sys.argv[1]).read().splitlines()
a = next(i for i, r in enumerate(rows) if r.startswith("leaf-000,2,"))
b = next(i for i, r in enumerate(rows) if r.startswith("leaf-000,3,"))
fa, fb = rows[a].split(","), rows[b].split(",")
fa[2], fb[2] = fb[2], fa[2]
rows[a], rows[b] = ",".join(fa), ",".join(fb)
open(sys.argv[1], "w").write("\n".join(rows) + "\n")
PY

# Sick: an error counter, then (no SM) a dead link under stale tables and a
# duplicate LID. The link is one of leaf-002's 18 uplinks: the tables
# still send a share of its LIDs down it from spine-000 and send some from
# leaf-002 up it, so a few nodes cannot be reached from hca-00000 (a partial
# report), the others can.
sim 'PerformanceSet "leaf-001"[3] PortCounters.SymbolErrorCounter=42'
kill "$OSM_PID" 2>/dev/null && wait "$OSM_PID" 2>/dev/null
OSM_PID=""
sim 'Unlink "leaf-002"[19]'
dup=$(run "$RDMA" -j fabric show cas 2>/dev/null |
  python3 -c 'import json,sys; print([n for n in json.load(sys.stdin) if n["description"] == "hca-00003"][0]["lids"][0])')
sim "Baselid \"hca-00005\"[1] $dup"
sleep 1
# The report with the plan and a 3 s counter window, while symbol errors
# rise on hca-00007's port.
(for i in 1 2 3 4 5 6 7 8; do sim "PerformanceSet \"hca-00007\"[1] PortCounters.SymbolErrorCounter=$((i * 5))"; sleep 0.5; done) &
riser=$!
run "$RDMA" fabric report sick plan plan.csv window 3 >sick.txt 2>sick.err
rc=$?
wait "$riser"
[ "$rc" -eq 1 ] && ok "sick: exit 1" || bad "sick: exit $rc: $(cat sick.txt sick.err)"
grep -qE '^sick/report.html: fabric unhealthy: [1-9][0-9]* errors' sick.txt &&
  ok "sick: the verdict line" || bad "sick: $(cat sick.txt)"
findings sick 'any(x["check"] == "ids" and x["what"] == "duplicate LID %s on 2 ports" % sys.argv[3] for x in f)' "$dup" &&
  ok "sick: the duplicate LID $dup in findings.json" || bad "sick: no duplicate LID $dup"
findings sick 'any(x["check"] == "routes" and "which has no link (DOWN)" in x["what"] and x["where"][0]["description"] == "leaf-002" and x["where"][0]["port"] == 19 for x in f)' &&
  ok "sick: leaf-002's routes into its dead port 19" || bad "sick: no route into leaf-002 port 19"
findings sick 'all(x["check"] for x in f)' && ok "sick: every finding names its check" ||
  bad "sick: a finding without its check"
findings sick 'any(x["check"] == "errors" and x["detail"] == "symbol_errors 42" and x["where"][0]["description"] == "leaf-001" and x["where"][0]["port"] == 3 for x in f)' &&
  ok "sick: leaf-001 port 3's symbol errors" || bad "sick: no error counter finding"
findings sick 'any(x["check"] == "plan" and x["severity"] == "error" and x["what"].startswith("cables swapped: \"leaf-000\" port 2 goes to \"hca-00001\"") for x in f)' &&
  ok "sick: the crossed cables at leaf-000 ports 2 and 3, against the plan" ||
  bad "sick: plan: $(python3 -c 'import json; print([x for x in json.load(open("sick/findings.json"))["findings"] if x["check"] == "plan"])')"
findings sick 'any(x["check"] == "window" and x["where"][0]["description"] == "hca-00007" and x["detail"].startswith("SymbolErrorCounter +") for x in f)' &&
  ok "sick: hca-00007's symbol errors rising in the window" ||
  bad "sick: window: $(python3 -c 'import json; print([x for x in json.load(open("sick/findings.json"))["findings"] if x["check"] == "window"])')"
html=sick/report.html
for want in "duplicate LID $dup on 2 ports" "which has no link (DOWN)" "error counters over threshold" ": symbol_errors 42" "42 errors"; do
  grep -qF "$want" "$html" && ok "sick: the page says \"$want\"" || bad "sick: the page lacks \"$want\""
done
grep -qE '^rdma_ib_port_symbol_errors_total\{.*local_name="leaf-001",local_port="3",.*\} 42$' sick/metrics.prom &&
  ok "sick: metrics.prom has leaf-001 port 3's 42 symbol errors" ||
  bad "sick: metrics: $(grep -m3 'symbol_errors_total{.*local_name="leaf-001"' sick/metrics.prom)"
for g in ids_errors routes_errors errors_errors plan_errors window_errors; do
  grep -qE "^rdma_ib_fabric_report_$g [1-9]" sick/metrics.prom && ok "sick: metrics.prom: rdma_ib_fabric_report_$g" ||
    bad "sick: metrics.prom: $(grep "rdma_ib_fabric_report_$g" sick/metrics.prom)"
done
grep -qx 'rdma_ib_fabric_report_healthy 0' sick/metrics.prom && grep -qx 'rdma_ib_fabric_report_healthy 1' clean/metrics.prom &&
  ok "metrics.prom: rdma_ib_fabric_report_healthy 1 healthy, 0 sick" || bad "metrics: healthy gauge"
page sick sick
metrics sick sick
grep -q 'stroke="red"' "$html" && ok "sick: the picture has a red link" || bad "sick: no red link in the picture"

rm -f "$GEN"
check_line_ends
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
