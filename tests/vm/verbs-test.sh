#!/bin/bash
# The verbs views in the VM, on rxe and siw: `rdma -j dev limits` and
# `rdma -j -d link status` value for value against ibv_devinfo -v, `rdma -j
# gid show` against the GID tables of sysfs (also after an address is added
# to veth0 and removed), libibverbs loaded only by the verbs commands, and
# one clear line for a device that cannot be opened; `stat show` as OpenMetrics
# and Prometheus text parsed by prometheus_client, equal to -j; `rdma bw`
# between rxe1 and rxe0 beside perftest (bw-guest.sh, bw-check.py).  One boot per kernel
# (fixture basic; verbs-guest.sh in the VM, verbs-check.py on the host).
# usage: tests/vm/verbs-test.sh --rdma PATH [--kernel 6.1|6.12]... [--keep DIR]
# Prints "ok: ..." / "FAIL: ..." lines and "N passed, M failed".
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
KERNELS=()
RDMA_BIN=
KEEP=
while [ $# -gt 0 ]; do
    case "$1" in
        --kernel) KERNELS+=("$2"); shift 2 ;;
        --rdma) RDMA_BIN=$2; shift 2 ;;
        --keep) KEEP=$2; shift 2 ;;
        *) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
    esac
done
[ -n "$RDMA_BIN" ] && [ -x "$RDMA_BIN" ] || { echo "verbs-test: --rdma PATH (executable) is required" >&2; exit 2; }
[ ${#KERNELS[@]} -eq 0 ] && KERNELS=(6.1 6.12)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
out_all=$WORK/results
: > "$out_all"
for kv in "${KERNELS[@]}"; do
    out=${KEEP:+$KEEP/$kv}
    out=${out:-$WORK/out-$kv}
    rm -rf "$out"
    if ! "$HERE/run" --kernel "$kv" --fixture basic --rdma "$RDMA_BIN" --script "$HERE/verbs-guest.sh" \
            --add "$HERE/bw-guest.sh" \
            --outdir "$out" > /dev/null 2> "$WORK/run-$kv.err" || [ ! -f "$out/devinfo.txt" ]; then
        echo "FAIL: [$kv] VM run failed:" | tee -a "$out_all"
        sed 's/^/    /' "$WORK/run-$kv.err"
        continue
    fi
    python3 "$HERE/verbs-check.py" "$out" "$kv" | tee -a "$out_all"
    # rdma bw between rxe1 and rxe0 beside perftest's ib_write_bw and ib_send_lat
    python3 "$HERE/bw-check.py" "$out" "$kv" | tee -a "$out_all"
    # `stat show --openmetrics/--prometheus` read by Debian's
    # python3-prometheus-client (tests/ibsim/setup.sh installs it; a pyenv
    # python3 first on PATH may lack it), every sample equal to -j's value
    # (or above it: traffic may move a counter between the two commands)
    pyprom=python3
    python3 -c 'import prometheus_client' 2>/dev/null || pyprom=/usr/bin/python3
    rising=$(python3 -c 'import json,sys
print(" ".join(sorted({k for o in json.load(open(sys.argv[1])) for k in o} - {"ifname", "port"})))' \
        "$out/stat-j.out" 2>/dev/null)
    for fmt in om:openmetrics prom:prometheus; do
        f=${fmt%%:*} fmt=${fmt#*:}
        # shellcheck disable=SC2086
        if res=$($pyprom "$HERE/../ibsim/metrics_compare.py" "$fmt" "$out/stat-$f.out" "$out/stat-j.out" \
                rdma_stat_ ifname=device port=port -rising $rising 2>&1) &&
                { { [ "$(cat "$out/stat-$f.rc")" = 0 ] && [ ! -s "$out/stat-$f.err" ]; } ||
                  # siw's ports have no counters: a line each, exit 1
                  { [ "$(cat "$out/stat-$f.rc")" = 1 ] &&
                    ! grep -qv '^cannot read the counters of siw[0-9]*/[0-9]*: ' "$out/stat-$f.err"; }; }; then
            echo "ok: [$kv] stat show --$fmt parsed by prometheus_client = -j ($res; $(wc -l <"$out/stat-$f.err") ports without counters)" |
                tee -a "$out_all"
        else
            echo "FAIL: [$kv] stat show --$fmt: exit $(cat "$out/stat-$f.rc"): $res $(head -c 300 "$out/stat-$f.err")" |
                tee -a "$out_all"
        fi
    done
done
p=$(grep -c '^ok: ' "$out_all")
f=$(grep -c '^FAIL: ' "$out_all")
echo "$p passed, $f failed"
[ "$f" = 0 ]
