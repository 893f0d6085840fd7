#!/bin/bash
# Batch files on a real kernel (issue 27): `rdma -b FILE` with 500 and 1000
# lines of dev/link/res/stat/sys commands, ours against iproute2's, side by
# side in one VM (fixture basic: rxe0, rxe1), and an empty batch (one
# comment line: the start alone). --also NAME=PATH adds another build of ours
# (e.g. main's, to see before and after in one boot).
#
# Every run is timed by bench/res_measure.c (fork + exec + wait, to the
# microsecond). In each of R rounds every program runs every batch once, the
# order rotated every round, so the host's load falls on all alike. Prints,
# per batch size and program, the median wall time, the time a line
# (median / lines, and (median - median of the empty batch) / lines: a
# line without the start), ours/iproute2 of both, the peak RSS and the
# exit status (iproute2 6.1 runs out of file descriptors after ~530 lines:
# it opens a socket a line and never closes it).
#
# Then per command: a batch of N (--per-command, default 100) lines of one
# command, so that the cost of each kind of line is seen apart (net of the
# start, ms a line, and ours/iproute2).
#
# Beside them the floor (bench/batch_floor.c): the very requests ours sends
# for the same batch (taken from its RDMA_NETLINK_TRACE in the VM), sent
# over one socket with every reply read and thrown away, with a 64 KiB
# (floor) and a 4 KiB (floor4k, libmnl's MNL_SOCKET_BUFFER_SIZE) receive
# buffer: no user-space program that asks the kernel the same can be
# cheaper. Every row also shows the user and system CPU time a line (the
# guest's tick-sampled rusage, net of the start).
#
# usage: bench/batch_vm.sh [--kernel 6.1|6.12] [--rdma PATH] [--rounds R]
#                          [--lines "N..."] [--per-command N] [--also NAME=PATH]...
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
KERNEL=6.12
RDMA=$HERE/../build/rdma
ROUNDS=5
LINES="500 1000"
PER=100
ALSO=()
usage() { sed -n '21,22p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
    case "$1" in
        --kernel) KERNEL=$2; shift 2 ;;
        --rdma) RDMA=$2; shift 2 ;;
        --rounds) ROUNDS=$2; shift 2 ;;
        --lines) LINES=$2; shift 2 ;;
        --per-command) PER=$2; shift 2 ;;
        --also) ALSO+=("$2"); shift 2 ;;
        *) usage ;;
    esac
done
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
gcc -O2 -o "$W/measure" "$HERE/res_measure.c"
gcc -O2 -o "$W/floor" "$HERE/batch_floor.c" -lmnl

# The programs: "TOOL PATH", or "TOOL PATH BUFFER" for the floor.
PROGS=("iproute2 /usr/bin/rdma" "ours /opt/rdma-new/rdma" "floor /tmp/floor 65536"
       "floor4k /tmp/floor 4096")
ADD=()
for a in "${ALSO[@]}"; do
    name=${a%%=*} path=${a#*=}
    [ -x "$path" ] || { echo "batch_vm: $path is not executable" >&2; exit 2; }
    mkdir -p "$W/also"
    cp -L "$path" "$W/also/$name"
    ADD+=(--add "$W/also/$name")
    PROGS+=("$name /opt/add/$name")
done

{
echo '#!/bin/bash'
echo "base64 -d > /tmp/measure <<'B64'"
base64 "$W/measure"
echo 'B64'
echo "chmod +x /tmp/measure"
echo "base64 -d > /tmp/floor <<'B64'"
base64 "$W/floor"
echo 'B64'
echo "chmod +x /tmp/floor"
echo "PROGS=("
for p in "${PROGS[@]}"; do echo "  '$p'"; done
echo ")"
cat <<EOS
# The commands of a batch, in turn: each object, with and without a device.
CMDS=('dev' 'dev show rxe0' 'link' 'link show rxe1/1' 'res' 'res show pd' 'stat show'
      'stat show link rxe0/1' 'sys' 'res show qp')
echo '# the start alone' > /tmp/b0
for n in $LINES; do
    for ((i = 0; i < n; i++)); do echo "\${CMDS[i % \${#CMDS[@]}]}"; done > /tmp/b\$n
done
SIZES="0 $LINES"
echo "loadavg-guest \$(cat /proc/loadavg)"
# The requests ours sends for batch FILE, one hex message a line: FILE.req.
requests() {
    rm -f /tmp/trace
    RDMA_NETLINK_TRACE=/tmp/trace /opt/rdma-new/rdma -b "\$1" > /dev/null 2>&1
    { grep '^> ' /tmp/trace || true; } | cut -c3- > "\$1.req"
}
# The command line of program "TOOL PATH [BUFFER]" for batch FILE.
argv() {
    local f=\$1; shift
    if [ \$# -ge 3 ]; then ARGV=("\$2" "\$f.req" "\$3"); else ARGV=("\$2" -b "\$f"); fi
}
for n in \$SIZES; do requests /tmp/b\$n; echo "requests \$n \$(wc -l < /tmp/b\$n.req)"; done
# Both print the same objects (the text differs only as differences.txt
# allows); show line counts and the first error of each.
for p in "\${PROGS[@]}"; do
    set -- \$p
    for n in \$SIZES; do
        argv /tmp/b\$n \$p
        "\${ARGV[@]}" > /tmp/out 2> /tmp/err
        echo "check \$1 \$n status \$? out-lines \$(wc -l < /tmp/out) err \$(head -c 120 /tmp/err | head -1)"
    done
done
# Each command alone: its output lines, status and first error, per tool.
for c in "\${CMDS[@]}"; do
    for p in "\${PROGS[@]}"; do
        set -- \$p
        [ -n "\${3:-}" ] && continue
        echo "\$c" > /tmp/one
        "\$2" -b /tmp/one > /tmp/out 2> /tmp/err
        echo "cmd \$1 '\$c' status \$? out-lines \$(wc -l < /tmp/out) err \$(head -c 120 /tmp/err | head -1)"
    done
done
# Per command: a batch of $PER lines of that command alone (0: none).
if [ $PER -gt 0 ]; then
    for ((k = 0; k < \${#CMDS[@]}; k++)); do
        for ((i = 0; i < $PER; i++)); do echo "\${CMDS[k]}"; done > /tmp/c\$k
        requests /tmp/c\$k
        echo "cmdidx \$k \${CMDS[k]}"
    done
fi
np=\${#PROGS[@]}
for ((i = 0; i < $ROUNDS; i++)); do
    for ((j = 0; j < np; j++)); do
        p=\${PROGS[(i + j) % np]}
        set -- \$p
        for n in \$SIZES; do
            argv /tmp/b\$n \$p
            r=\$(/tmp/measure "\${ARGV[@]}" 2> /dev/null); s=\$?
            echo "run \$n \$1 \$r \$s"
        done
        if [ $PER -gt 0 ]; then
            for ((k = 0; k < \${#CMDS[@]}; k++)); do
                argv /tmp/c\$k \$p
                r=\$(/tmp/measure "\${ARGV[@]}" 2> /dev/null); s=\$?
                echo "per \$k \$1 \$r \$s"
            done
        fi
    done
done
echo "loadavg-guest \$(cat /proc/loadavg)"
exit 0
EOS
} > "$W/guest.sh"
chmod +x "$W/guest.sh"
echo "host load before: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"
RDMA_VM_TIMEOUT=${RDMA_VM_TIMEOUT:-3600} "$HERE/../tests/vm/run" --kernel "$KERNEL" --rdma "$RDMA" \
    --fixture basic "${ADD[@]}" --script "$W/guest.sh" > "$W/out.txt" || echo "batch_vm: VM run failed ($?)" >&2
echo "host load after: $(cut -d' ' -f1-3 /proc/loadavg)"
[ -n "${BENCH_OUT:-}" ] && cp "$W/out.txt" "$BENCH_OUT"
grep -E '^(loadavg-guest|requests|check|cmd) ' "$W/out.txt" || true
echo "kernel $KERNEL: $ROUNDS rounds, each program runs each batch once a round, the order rotated;"
echo "median ms of a run; ms a line: median/lines, and net of the start (median - median of"
echo "the empty batch)/lines; ratio: ours/iproute2 of the same; status: exit statuses seen"
awk '$1 == "run" && NF >= 9 {
       key = $2 SUBSEP $3; k = ++n[key]; t[key, k] = $4 * 1000; rss[key] = $5
       n[key, "u"] = n[key, "s"] = k; t[key, "u", k] = $6 * 1000; t[key, "s", k] = $7 * 1000
       st[key] = (key in st && index(" " st[key] " ", " " $9 " ")) ? st[key] : (key in st ? st[key] " " : "") $9
       if (!(key in seen)) { seen[key] = 1; rows[++nr] = key }
     }
     function med(key,   i, j, k, v) {
       k = n[key]
       if (!(key in done)) {
         done[key] = 1
         for (i = 1; i <= k; i++) {  # insertion sort (mawk has no asort)
           v = t[key, i]
           for (j = i - 1; j >= 1 && s[key, j] > v; j--) s[key, j + 1] = s[key, j]
           s[key, j + 1] = v
         }
       }
       return k % 2 ? s[key, (k + 1) / 2] : (s[key, k / 2] + s[key, k / 2 + 1]) / 2
     }
     $1 == "per" && NF >= 9 {
       key = "c" $2 SUBSEP $3; k = ++n[key]; t[key, k] = $4 * 1000
       if (!(key in seen)) { seen[key] = 1; prow[++npr] = key }
     }
     $1 == "cmdidx" { name[$2] = $3; for (i = 4; i <= NF; i++) name[$2] = name[$2] " " $i }
     END {
       printf "%5s %-10s %9s %9s %7s %9s %7s %8s %8s %8s %s\n", "lines", "program", "median", "ms/line",
              "ratio", "net/line", "ratio", "usr/line", "sys/line", "rss KiB", "status"
       for (r = 1; r <= nr; r++) {
         split(rows[r], a, SUBSEP); lines = a[1]; tool = a[2]
         m = med(rows[r])
         if (lines == 0) {
           printf "%5d %-10s %9.2f %9s %7s %9s %7s %8.2f %8.2f %8d %s\n", lines, tool, m, "", "", "", "",
                  med(rows[r] SUBSEP "u"), med(rows[r] SUBSEP "s"), rss[rows[r]], st[rows[r]]
           continue
         }
         per = m / lines; net = (m - med(0 SUBSEP tool)) / lines
         usr = (med(rows[r] SUBSEP "u") - med(0 SUBSEP tool SUBSEP "u")) / lines
         sys = (med(rows[r] SUBSEP "s") - med(0 SUBSEP tool SUBSEP "s")) / lines
         ref = lines SUBSEP "iproute2"
         if (tool != "iproute2" && (ref in n)) {
           rp = med(ref) / lines; rn = (med(ref) - med(0 SUBSEP "iproute2")) / lines
           printf "%5d %-10s %9.2f %9.4f %6.2fx %9.4f %6.2fx %8.4f %8.4f %8d %s\n", lines, tool, m,
                  per, per / rp, net, net / rn, usr, sys, rss[rows[r]], st[rows[r]]
         } else
           printf "%5d %-10s %9.2f %9.4f %7s %9.4f %7s %8.4f %8.4f %8d %s\n", lines, tool, m, per, "",
                  net, "", usr, sys, rss[rows[r]], st[rows[r]]
       }
       if (npr) printf "\nper command, %d lines of it: net ms a line and ours/iproute2\n", nper
       for (r = 1; r <= npr; r++) {
         split(prow[r], a, SUBSEP); c = substr(a[1], 2); tool = a[2]
         net = (med(prow[r]) - med(0 SUBSEP tool)) / nper
         ref = a[1] SUBSEP "iproute2"
         if (tool != "iproute2" && (ref in n))
           printf "  %-24s %-10s %8.4f %6.2fx\n", name[c], tool, net,
                  net / ((med(ref) - med(0 SUBSEP "iproute2")) / nper)
         else
           printf "  %-24s %-10s %8.4f\n", name[c], tool, net
       }
     }' nper=$PER "$W/out.txt"
