#!/bin/bash
# rdma fabric check against the infiniband-diags an admin runs for the same
# look at a fabric, side by side on one simulator: a generated fat tree
# (bench/fattree.py, 4768 nodes by default) in ibsim, opensm programming
# the forwarding tables (one sweep, then no more: -s 0).
#
# The reference, run one after another as a sequence (each step timed):
#   ibnetdiscover -g --cache C > T   one discovery for the two Perl scripts:
#                                    T is ibidsverify's topology file (in a
#                                    private copy of its cache directory), C
#                                    check_lft_balance's -i cache
#   ibidsverify                      duplicate and zero LIDs/GUIDs, from T
#   dump_fts > L                     every switch's LFT (its own discovery)
#   check_lft_balance -l L -i C      unbalanced switches (it runs iblinkinfo
#                                    --load-cache C once per switch)
# So the diags are allowed one shared cache; `ibidsverify -R` would run a
# discovery of its own on top. Against it, from nothing (a live discovery
# each run): `rdma fabric check` (all six checks: ids links sm routes
# credit balance) and `rdma fabric check ids routes balance` (the
# reference's three).
#
# The three take turns, RUNS rounds (3 by default), each round under
# $IBSIM_LOCK (default $TMPDIR/rdma-ibsim.lock; so two benches do not time each other's load). Wall time (median, min-max), CPU seconds
# of the tools (user+system, children included) and of ibsim during the
# run, peak RSS (the sequence's: its largest step); ratios ours/theirs.
# Every run is checked: each tool exits 0, the diags find no duplicate id
# and no unbalanced switch, dump_fts dumps a table for every switch with
# every LID, and rdma reports no error and every node checked; each tool's
# balance findings are the same in every run (they differ between the
# tools by design: check_lft_balance counts every port of a switch, also
# the down ports toward leaves with fewer hosts; rdma only a switch's up
# ports and parallel links, where the tables choose). The script fails
# otherwise.
#
#   bench/check_ibsim.sh [--rdma PATH] [--runs N] [--keep] [SIZES...]   # default 4768
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
IBSW_PM=${IBSW_PM:-/usr/share/perl5/IBswcountlimits.pm}
LOCK=${IBSIM_LOCK:-${TMPDIR:-/tmp}/rdma-ibsim.lock}
need ibsim opensm sminfo ibnetdiscover ibidsverify dump_fts check_lft_balance iblinkinfo \
  python3 flock /usr/bin/time "$RDMA"
[ -f "$IBSW_PM" ] || { echo "missing: $IBSW_PM (infiniband-diags)"; exit 1; }
bench_dir check "$KEEP"
# ibidsverify reads (and with -R writes) its topology in a fixed directory
# shared by everyone on the machine: a copy of its module with the
# directory moved into $WORK, found first through PERL5LIB.
mkdir -p perl diags-cache
sed "s|^\(\$IBswcountlimits::cache_dir *= *\).*|\1\"$WORK/diags-cache\";|" "$IBSW_PM" \
  >perl/IBswcountlimits.pm
grep -q "cache_dir *= *\"$WORK/diags-cache\"" perl/IBswcountlimits.pm ||
  { echo "could not move ibidsverify's cache directory"; exit 1; }
export PERL5LIB=$WORK/perl
TOPO=$WORK/diags-cache/ibnetdiscover--.topology

add() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f\n", a + b}'; }
# seconds between two readings of cpu_ticks
ticks() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f\n", (b - a) / 100}'; }
# step OUT CMD...: one timed step, "wall rss cpu" into OUT.t, its stdout in
# OUT.out (unless the command redirects it), stderr in OUT.err; fails when
# the command does.
step() {
  local out=$1
  shift
  sim /usr/bin/time -f "%e %M %U %S %x" -o "$out.t" "$@" >"$out.out" 2>"$out.err"
  local rc=$?
  awk '{printf "%s %s %.2f\n", $1, $2, $3 + $4}' "$out.t" | tail -n 1 >"$out.w"
  return $rc
}
# fail WHAT FILE: the bench is void; show why.
fail() {
  echo "!! $1"
  [ -n "${2:-}" ] && tail -n 8 "$2"
  FAILED=1
}
# The reference sequence, one round: "wall rss cpu sim_cpu" appended to
# ref$n.times (wall and cpu summed over the steps, rss the largest), each
# step's "wall rss cpu" to its own ref$n-STEP.times.
reference() {
  local sim0 sim1 s w r c wall=0 rss=0 cpu=0 steps="ibnd ids fts bal"
  sim0=$(cpu_ticks "$IBSIM_PID")
  step "ibnd$n" sh -c 'ibnetdiscover -g --cache "$1" >"$2"' sh "$WORK/ibnd$n.cache" "$TOPO" ||
    fail "ibnetdiscover failed" "ibnd$n.err"
  step "ids$n" ibidsverify || fail "ibidsverify failed (exit $?)" "ids$n.out"
  step "fts$n" sh -c 'dump_fts >"$1"' sh "$WORK/fts$n.lft" || fail "dump_fts failed" "fts$n.err"
  if [ "${1:-}" = warm ]; then
    steps="ibnd ids fts"
  else
    step "bal$n" check_lft_balance -l "fts$n.lft" -i "ibnd$n.cache" ||
      fail "check_lft_balance failed" "bal$n.err"
  fi
  sim1=$(cpu_ticks "$IBSIM_PID")
  for s in $steps; do
    cat "$s$n.w" >>"$s$n.times"
    read -r w r c <"$s$n.w"
    wall=$(add "$wall" "$w")
    cpu=$(add "$cpu" "$c")
    [ "$r" -gt "$rss" ] && rss=$r
  done
  echo "$wall $rss $cpu $(ticks "$sim0" "$sim1")" >>"ref$n.times"
  # The same thing found: the topology and the tables whole, no duplicate
  # id, the unbalanced switches counted.
  local found lids tables
  found=$(grep -c '^Switch\|^Ca' "$TOPO")
  [ "$found" = "$nodes" ] || fail "ibnetdiscover found $found nodes of $nodes"
  [ -s "ids$n.out" ] && fail "ibidsverify found something" "ids$n.out"
  tables=$(grep -c '^Unicast lids' "fts$n.lft")
  [ "$tables" = "$switches" ] || fail "dump_fts dumped $tables tables of $switches" "fts$n.err"
  # Every LID the topology names (dual-homed HCAs have two) in every table.
  expect_lids=$(grep -o 'lid [0-9]*' "$TOPO" | sort -u | wc -l)
  lids=$(sed -n 's/^\([0-9]*\) valid lids dumped.*/\1/p' "fts$n.lft" | sort -u | paste -sd/)
  [ "$lids" = "$expect_lids" ] || fail "dump_fts: $lids valid LIDs per switch, expected $expect_lids"
  [ "${1:-}" = warm ] && return
  # The unbalanced switches by kind (the fat tree's names: leaf-, spine-...).
  sed -n 's/^Unbalanced Switch Port Usage: \([a-z]*\)-.*/\1/p' "bal$n.out" | sort | uniq -c |
    awk '{printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $2} END {if (!NR) printf "none"; print ""}' \
      >>"unbalanced$n"
}
# ours OUT ARGS...: rdma fabric check ARGS, one round: "wall rss cpu
# sim_cpu" appended to OUT.times; its findings checked.
ours() {
  local out=$1 sim0 sim1 errors nodes_checked
  shift
  sim0=$(cpu_ticks "$IBSIM_PID")
  step "$out" "$RDMA" -d fabric check "$@"
  local rc=$?
  sim1=$(cpu_ticks "$IBSIM_PID")
  echo "$(cat "$out.w") $(ticks "$sim0" "$sim1")" >>"$out.times"
  [ $rc = 0 ] || fail "rdma fabric check $* exited $rc" "$out.out"
  errors=$(grep -c '^check [a-z]* severity error' "$out.out")
  [ "$errors" = 0 ] && grep -q '0 errors' "$out.out" || fail "rdma fabric check $*: $errors errors" "$out.out"
  nodes_checked=$(sed -n 's/^summary: \([0-9]*\) nodes checked.*/\1/p' "$out.out")
  [ "$nodes_checked" = "$nodes" ] || fail "rdma fabric check $*: $nodes_checked nodes of $nodes" "$out.out"
  grep -c '^check balance severity warning' "$out.out" >>"$out.balance"
  cp "$out.err" "$out.err.last"
}

row() { printf '%-6s %-40s %7s %11s %6s %6s %8s %7s %6s %6s\n' "$@"; }
FAILED=0

for n in "${@:-4768}"; do
  fattree "$n"
  start_ibsim "$n"
  t0=$SECONDS
  start_opensm "$n" 1200
  first_sweep "$n" "$t0" 1800
  # Every port has its LID and every switch its table: one untimed round
  # of each (also warms the page cache), which must pass the checks
  # (check_lft_balance, minutes at this size, only in the timed rounds).
  reference warm
  ours "all$n"
  ours "three$n" ids routes balance
  if [ $FAILED = 1 ]; then
    echo "# $n nodes: the fabric is not ready or a tool failed ($settled); nothing timed"
    stop
    continue
  fi
  rm -f ./*"$n".times ./*"$n".balance "unbalanced$n"
  echo "# $n nodes ($(cat "gen$n.txt")); $settled"
  for r in $(seq "$RUNS"); do
    # The lock a round at a time (the reference takes minutes here: the
    # simulator suites of others get their turn between rounds).
    exec 9>"$LOCK"
    waited=$SECONDS
    flock 9
    echo "# round $r: waited $((SECONDS - waited)) s for $LOCK; load before: $(load)"
    # Who goes first changes each round.
    case $((r % 3)) in
      1) reference; ours "all$n"; ours "three$n" ids routes balance ;;
      2) ours "all$n"; ours "three$n" ids routes balance; reference ;;
      0) ours "three$n" ids routes balance; reference; ours "all$n" ;;
    esac
    flock -u 9
    exec 9>&-
    echo "# round $r done, load after: $(load)"
  done
  row nodes tool wall_s min-max cpu sim rss_kib wall_x cpu_x rss_x
  read -r ref_wall ref_min ref_max < <(stats "ref$n.times" 1)
  read -r ref_rss _ < <(stats "ref$n.times" 2)
  read -r ref_cpu _ < <(stats "ref$n.times" 3)
  read -r ref_sim _ < <(stats "ref$n.times" 4)
  row "$n" "ibidsverify+dump_fts+check_lft_balance" "$ref_wall" "$ref_min-$ref_max" "$ref_cpu" \
    "$ref_sim" "$ref_rss" 1.00 1.00 1.00
  for s in "ibnd:  ibnetdiscover -g --cache" "ids:  ibidsverify" "fts:  dump_fts" \
    "bal:  check_lft_balance"; do
    read -r w mn_mx < <(stats "${s%%:*}$n.times" 1 | awk '{print $1, $2 "-" $3}')
    read -r r _ < <(stats "${s%%:*}$n.times" 2)
    read -r c _ < <(stats "${s%%:*}$n.times" 3)
    row "" "${s#*:}" "$w" "$mn_mx" "$c" "" "$r" "$(ratio "$w" "$ref_wall")" "" ""
  done
  for o in "all:rdma fabric check" "three:rdma fabric check ids routes balance"; do
    t=${o%%:*}$n
    read -r wall min max < <(stats "$t.times" 1)
    read -r rss _ < <(stats "$t.times" 2)
    read -r cpu _ < <(stats "$t.times" 3)
    read -r simc _ < <(stats "$t.times" 4)
    row "$n" "${o#*:}" "$wall" "$min-$max" "$cpu" "$simc" "$rss" "$(ratio "$wall" "$ref_wall")" \
      "$(ratio "$(add "$cpu" "$simc")" "$(add "$ref_cpu" "$ref_sim")")" \
      "$(ratio "$rss" "$ref_rss")"
  done
  # The balance findings: the same in every run of each tool.
  echo "# unbalanced switches (check_lft_balance): $(sort -u "unbalanced$n" | paste -sd/);" \
    "balance warnings (rdma): $(sort -u "all$n.balance" "three$n.balance" | paste -sd/)"
  [ "$(sort -u "unbalanced$n" | wc -l)" = 1 ] && [ "$(sort -u "all$n.balance" "three$n.balance" | wc -l)" = 1 ] ||
    fail "a tool's balance findings differ between runs"
  echo "# rdma -d (last run of all checks):"
  sed 's/^/#   /' "all$n.err.last"
  echo "# load after: $(load)"
  stop
done
exit $FAILED
