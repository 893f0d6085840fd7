#!/bin/bash
# The verbs views in the VM, on rxe and siw: `rdma -j dev limits` and
# `rdma -j -d link status` value for value against ibv_devinfo -v, `rdma -j
# gid show` against the GID tables of sysfs (also after an address is added
# to veth0 and removed), libibverbs loaded only by the verbs commands, and
# one clear line for a device that cannot be opened.  One boot per kernel
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
            --outdir "$out" > /dev/null 2> "$WORK/run-$kv.err" || [ ! -f "$out/devinfo.txt" ]; then
        echo "FAIL: [$kv] VM run failed:" | tee -a "$out_all"
        sed 's/^/    /' "$WORK/run-$kv.err"
        continue
    fi
    python3 "$HERE/verbs-check.py" "$out" "$kv" | tee -a "$out_all"
done
p=$(grep -c '^ok: ' "$out_all")
f=$(grep -c '^FAIL: ' "$out_all")
echo "$p passed, $f failed"
[ "$f" = 0 ]
