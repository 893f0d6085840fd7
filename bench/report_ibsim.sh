#!/bin/bash
# rdma fabric report against what it replaces, side by side on one
# simulator: a generated fat tree (bench/fattree.py) in ibsim, opensm
# programming the tables (one sweep: -s 0). Issue 38's goal: the report in
# at most 1.2x the time of `rdma fabric check` plus one `rdma fabric
# errors` sweep, with one discovery (the two commands make two).
#
# Taking turns, RUNS rounds (3 by default), each timed (wall, and peak RSS):
#   A  rdma fabric check; rdma fabric errors   (one after the other)
#   B  rdma fabric report DIR
# Every run is checked: the report's page and files are written and its
# findings count equals `fabric check`'s plus the ports `fabric errors`
# lists (a line of `fabric check` that groups findings counts its
# "count N"; the fattree check's notes, which only the report runs, aside). Prints median (min-max) wall seconds, the ratio B/A, and peak RSS.
#
#   bench/report_ibsim.sh [--rdma PATH] [--runs N] [--keep] [SIZES...]   # default 1000
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/ibsim_lib.sh
. "$HERE/ibsim_lib.sh"
RUNS=3
KEEP=0
while [ $# -gt 0 ]; do
  case $1 in
    --rdma) RDMA=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --keep) KEEP=1; shift ;;
    *) break ;;
  esac
done
RDMA=$(abs_path "$RDMA")
need ibsim opensm sminfo python3 dot /usr/bin/time "$RDMA"
bench_dir report "$KEEP"
[ $# -gt 0 ] || set -- 1000

# timed NAME COMMAND...: wall seconds and peak RSS (KB) of the command, as
# "NAME SECONDS RSS" appended to runs.txt; the command's exit status.
timed() {
  local name=$1 t0 t1 status
  shift
  t0=$(date +%s.%N)
  sim /usr/bin/time -f "%M" -o rss.txt "$@" >out-"$name".txt 2>err-"$name".txt
  status=$?
  t1=$(date +%s.%N)
  echo "$name $(python3 -c "print(f'{$t1 - $t0:.3f}')") $(tail -n1 rss.txt)" >>runs.txt
  return $status
}

for n in "$@"; do
  simulated_tree "$n"
  echo "$n nodes ($hcas HCAs, $switches switches): $settled"
  : >runs.txt
  for r in $(seq "$RUNS"); do
    timed check "$RDMA" fabric check
    timed errors "$RDMA" fabric errors
    rm -rf rep
    timed report "$RDMA" fabric report rep
    checks=$(awk '/^check / {n = 1; for (i = 1; i < NF; i++) if ($i == "count") n = $(i + 1); s += n}
      END {print s + 0}' out-check.txt)
    ports=$(grep -c '^node_guid ' out-errors.txt)
    found=$(python3 -c 'import json
print(sum(x["check"] != "fattree" for x in json.load(open("rep/findings.json"))["findings"]))')
    [ -s rep/report.html ] && [ "$found" -eq $((checks + ports)) ] ||
      { echo "run $r: report findings $found, check $checks + errors $ports"; exit 1; }
  done
  awk '$1 == "check" {c[++i] = $2} $1 == "errors" {e[++j] = $2} END {for (k = 1; k <= i; k++) print "both", c[k] + e[k]}' runs.txt >>runs.txt
  for name in both report; do
    grep "^$name " runs.txt >"$name.txt"
    read -r med lo hi < <(stats "$name.txt" 2)
    read -r rss _ < <(sort -n -k3 "$name.txt" | tail -n1 | awk '{print $3}')
    eval "${name}_med=$med"
    echo "  $name: $med s ($lo-$hi)${rss:+, peak RSS ${rss} KB}"
  done
  grep -E '^(check|errors) ' runs.txt | sort -k3 -n | tail -n1 | awk '{print "  check/errors peak RSS: " $3 " KB"}'
  echo "  report / (check + errors): $(ratio "$report_med" "$both_med")"
  stop
done
