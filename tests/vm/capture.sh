#!/bin/bash
# Run every line of tests/vm/corpus.txt with iproute2's rdma in the VM (one
# boot per kernel, the fixture's frozen state shared by all lines) and store
#   tests/data/reference/<kver>/<name>.{out,err,rc}, INDEX, ENV
#   tests/data/golden/<kver>/<name>.nl   (netlink exchange, see strace2nl.py)
# usage: tests/vm/capture.sh [--kernel 6.1|6.12]... [--iwarp]   (default: both)
# --iwarp: corpus-iwarp.txt on the full resources fixture (with siw0), stored
# under iwarp-<kver>/ (replayed by the unit tests, not modelled by the test
# kernel).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
. "$HERE/lib.sh"

KERNELS=()
# Without siw0 by default: lib/testing/kernel's VM fixture (checked against these
# captures) models rxe0/rxe1 only.
FIXTURE=resources-rxe
CORPUS=$HERE/corpus.txt
PREFIX=
while [ $# -gt 0 ]; do
    case "$1" in
        --kernel) KERNELS+=("$2"); shift 2 ;;
        --iwarp) FIXTURE=resources; CORPUS=$HERE/corpus-iwarp.txt; PREFIX=iwarp-; shift ;;
        *) echo "usage: $0 [--kernel 6.1|6.12]... [--iwarp]" >&2; exit 2 ;;
    esac
done
[ ${#KERNELS[@]} -eq 0 ] && KERNELS=(6.1 6.12)

for kv in "${KERNELS[@]}"; do
    tmp=$(mktemp -d)
    guest_corpus_script "$kv" ref ref "$CORPUS" > "$tmp/guest.sh"
    t0=$(date +%s)
    "$HERE/run" --kernel "$kv" --fixture "$FIXTURE" --timeout "${RDMA_VM_TIMEOUT:-2400}" --script "$tmp/guest.sh" --outdir "$tmp/out" \
        --console "$tmp/console.log" > /dev/null 2> "$tmp/run.err" || {
        echo "capture: VM run for $kv failed:" >&2; cat "$tmp/run.err" >&2; exit 1; }
    t1=$(date +%s)
    if [ "$(cat "$tmp/out/fixture.status")" != 0 ]; then
        echo "capture: fixture failed on $kv:" >&2; cat "$tmp/out/fixture.err" >&2; exit 1
    fi
    ref=$TOP/tests/data/reference/$PREFIX$kv
    gold=$TOP/tests/data/golden/$PREFIX$kv
    rm -rf "$ref" "$gold"
    mkdir -p "$ref" "$gold"
    i=0
    declare -A seen=()
    : > "$ref/INDEX"
    pairs=()
    while IFS= read -r line; do
        i=$((i + 1)); n=$(printf '%03d' $i)
        name=$(corpus_name "$line")
        if [ -n "${seen[$name]:-}" ]; then name="$name.$n"; fi
        seen[$name]=1
        cp "$tmp/out/ref/$n.out" "$ref/$name.out"
        cp "$tmp/out/ref/$n.err" "$ref/$name.err"
        cp "$tmp/out/ref/$n.rc" "$ref/$name.rc"
        pairs+=("$tmp/out/ref/$n.strace" "$gold/$name.nl")
        printf '%s\t%s\n' "$name" "$line" >> "$ref/INDEX"
    done < <(corpus_lines "$kv" "$CORPUS")
    unset seen
    python3 "$HERE/strace2nl.py" "${pairs[@]}"
    {
        echo "kernel_short=$kv"
        echo "kernel_package=$(cat "${RDMA_VM_CACHE:-$HOME/.cache/rdma-vm}/kernel-$kv/.pkg")"
        echo "kernel_release=$(sed -n 's/^uname=//p' "$tmp/out/vm-info")"
        echo "proc_version=$(cat "$tmp/out/ref/proc-version")"
        echo "iproute2_rdma=$(cat "$tmp/out/ref/rdma-version")"
        echo "iproute2_package=$(dpkg-query -W -f='${Version}' iproute2)"
        echo "rdma_core_package=$(dpkg-query -W -f='${Version}' rdma-core)"
        echo "fixture=$FIXTURE (tests/vm/fixture.sh), corpus=$(basename "$CORPUS")"
        echo "captured=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    } > "$ref/ENV"
    cp "$tmp/out/fixture.log" "$ref/FIXTURE.log"
    echo "capture: $kv: $i commands in $((t1 - t0))s -> $ref, $gold" >&2
    rm -rf "$tmp"
done
