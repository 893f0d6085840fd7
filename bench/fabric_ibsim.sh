#!/bin/bash
# rdma fabric against ibnetdiscover, side by side on the same simulator:
# generated fat trees (bench/fattree.py) loaded into ibsim, discovered by
# ibnetdiscover (default options) and by `rdma fabric show` (at each window
# given), each under umad2sim, with wall time, peak RSS and MADs sent, and
# the ratios ours/ibnetdiscover. Also `rdma fabric show from FILE`. The
# user CPU time and what it makes per MAD sent (us_mad) is the harness's
# CPU per MAD: the tool's own work (ibsim's is another process's).
#
#   bench/fabric_ibsim.sh [--rdma PATH] [--base PATH] [--windows "8 32 64"] [--runs N]
#                         [SIZES...]                # sizes default: 100 1000 5000
#
# cpu_s is user + system time of the tool's process (its umad2sim reader
# thread included, as ibnetdiscover's), cpu_us_mad that per MAD sent: the
# median of --runs runs (default 3) taken in turns.
#
# --base PATH: also an earlier build (e.g. main's), run at each window in
# turns with --rdma's (base, ours, base, ours, ...), so both see the same
# load; its rows are "base ...".
#
# Each size gets its own ibsim (-N/-S/-P from fattree.py --ibsim-flags) and
# IBSIM_SOCKNAME; the tools take turns (3 runs each, the median is shown)
# and exit normally; then ibsim is stopped. ibnetdiscover's MADs are counted
# by bench/umad_count.c (its -m is the maximum hop count, not a MAD count);
# ours by its own count (-d), since rdma loads libibumad with dlopen.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/ibsim_lib.sh
. "$HERE/ibsim_lib.sh"
BASE=""
WINDOWS="8 32 64"
RUNS=3
while [ $# -gt 0 ]; do
  case $1 in
    --rdma) RDMA=$2; shift 2 ;;
    --base) BASE=$2; shift 2 ;;
    --windows) WINDOWS=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    *) break ;;
  esac
done
RDMA=$(abs_path "$RDMA")
[ -n "$BASE" ] && BASE=$(abs_path "$BASE")
need ibsim ibnetdiscover cc python3 /usr/bin/time "$RDMA" ${BASE:+"$BASE"}
bench_dir fabric
build_umad_count

# median OUT: each column's median over the runs' OUT.t* files ("wall_s
# rss_kib user_s sys_s") into OUT.
median() {
  cat "$1".t* | python3 -c "import sys, statistics as s
rows = [l.split() for l in sys.stdin if l.strip()]
print(' '.join(f'{s.median(float(r[i]) for r in rows):g}' for i in range(4)))" >"$1"
}
# timed OUT CMD...: the median of RUNS runs into OUT (median); the last
# run's stdout in OUT.out, stderr in OUT.err.
timed() {
  local out=$1
  shift
  rm -f "$out".t*
  for i in $(seq "$RUNS"); do
    /usr/bin/time -f "%e %M %U %S" -o "$out.t$i" "$@" >"$out.out" 2>"$out.err"
  done
  median "$out"
}
# timed_pair OUT_A OUT_B N CMD_A... CMD_B... (N words each): as timed, the
# two commands in turns.
timed_pair() {
  local a=$1 b=$2 n=$3
  shift 3
  local cmd_a=("${@:1:n}") cmd_b=("${@:n+1}")
  rm -f "$a".t* "$b".t*
  for i in $(seq "$RUNS"); do
    /usr/bin/time -f "%e %M %U %S" -o "$a.t$i" "${cmd_a[@]}" >"$a.out" 2>"$a.err"
    /usr/bin/time -f "%e %M %U %S" -o "$b.t$i" "${cmd_b[@]}" >"$b.out" 2>"$b.err"
  done
  median "$a"
  median "$b"
}

# us_per USER SYS MADS: microseconds of CPU (user + system) per MAD.
us_per() { python3 -c "import sys; u, s, m = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]); print(f'{(u + s) * 1e6 / m:.1f}' if m else '-')" "$1" "$2" "$3"; }
cpu() { python3 -c "import sys; print(f'{float(sys.argv[1]) + float(sys.argv[2]):.2f}')" "$1" "$2"; }
printf '%-6s %-22s %8s %9s %8s %8s %8s %7s %10s\n' nodes tool wall_s rss_kib mads wall_x rss_x cpu_s cpu_us_mad
for n in "${@:-100 1000 5000}"; do
  fattree "$n"
  start_ibsim "$n"

  timed "ibnd$n" env LD_PRELOAD="$WORK/umad_count.so $UMAD2SIM" ibnetdiscover
  found=$(grep -c '^Switch\|^Ca' "ibnd$n.out")
  [ "$found" = "$nodes" ] || { echo "ibnetdiscover found $found nodes of $nodes"; exit 1; }
  read -r ref_wall ref_rss ref_user ref_sys <"ibnd$n"
  ref_mads=$(sed -n 's/^umad_count: \([0-9]*\) sent$/\1/p' "ibnd$n.err")
  printf '%-6s %-22s %8s %9s %8s %8s %8s %7s %10s\n' "$n" ibnetdiscover "$ref_wall" "$ref_rss" "$ref_mads" 1.00 1.00 \
    "$(cpu "$ref_user" "$ref_sys")" "$(us_per "$ref_user" "$ref_sys" "$ref_mads")"

  for w in $WINDOWS; do
    run=(env LD_PRELOAD="$UMAD2SIM" "$RDMA" -d --window "$w" fabric show)
    if [ -n "$BASE" ]; then
      base=(env LD_PRELOAD="$UMAD2SIM" "$BASE" -d --window "$w" fabric show)
      timed_pair "base$n-$w" "rdma$n-$w" "${#base[@]}" "${base[@]}" "${run[@]}"
      rows="base rdma"
    else
      timed "rdma$n-$w" "${run[@]}"
      rows=rdma
    fi
    for r in $rows; do
      found=$(grep -c '^type ' "$r$n-$w.out")
      [ "$found" = "$nodes" ] || { echo "$r found $found nodes of $nodes"; cat "$r$n-$w.err"; exit 1; }
      read -r wall rss user sys <"$r$n-$w"
      mads=$(sed -n 's/^fabric: .*MADs sent \([0-9]*\),.*/\1/p' "$r$n-$w.err")
      label="rdma fabric show w$w"
      [ "$r" = base ] && label="base fabric show w$w"
      printf '%-6s %-22s %8s %9s %8s %8s %8s %7s %10s\n' "$n" "$label" "$wall" "$rss" "$mads" \
        "$(ratio "$wall" "$ref_wall")" "$(ratio "$rss" "$ref_rss")" "$(cpu "$user" "$sys")" \
        "$(us_per "$user" "$sys" "$mads")"
    done
  done
  env LD_PRELOAD="$UMAD2SIM" "$RDMA" fabric save "saved$n.json" 2>/dev/null
  timed "from$n" "$RDMA" fabric show from "saved$n.json"
  read -r wall rss user sys <"from$n"
  printf '%-6s %-22s %8s %9s %8s %8s %8s %7s %10s\n' "$n" "rdma ... from FILE" "$wall" "$rss" 0 \
    "$(ratio "$wall" "$ref_wall")" "$(ratio "$rss" "$ref_rss")" "$(cpu "$user" "$sys")" -
  stop
done
