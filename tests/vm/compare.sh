#!/bin/bash
# Run every line of tests/vm/corpus.txt with iproute2's rdma and with ours
# (--rdma PATH) in the VM, on the same frozen fixture state (one boot per
# kernel), and compare stdout, stderr and exit status byte for byte after
# the normalisation rules named in tests/vm/differences.txt.
# usage: tests/vm/compare.sh --rdma PATH [--kernel 6.1|6.12]... [--corpus FILE]
#                            [--keep DIR] [-q]
# (--corpus: another corpus file, default tests/vm/corpus.txt)
# Ends with "N passed, M failed"; exits 1 if any failed.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

KERNELS=()
RDMA_BIN=
KEEP=
QUIET=0
CORPUS=$HERE/corpus.txt
while [ $# -gt 0 ]; do
    case "$1" in
        --kernel) KERNELS+=("$2"); shift 2 ;;
        --rdma) RDMA_BIN=$2; shift 2 ;;
        --keep) KEEP=$2; shift 2 ;;
        --corpus) CORPUS=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
        -q) QUIET=1; shift ;;
        *) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
    esac
done
[ -n "$RDMA_BIN" ] || { echo "compare: --rdma PATH is required" >&2; exit 2; }
[ -x "$RDMA_BIN" ] || { echo "compare: $RDMA_BIN is not executable" >&2; exit 2; }
[ ${#KERNELS[@]} -eq 0 ] && KERNELS=(6.1 6.12)

# ------------------------------------------------------------------ rules
# Each rule of differences.txt is the function rule_<NAME with - as _>.
# It gets a directory holding ref.{out,err,rc} (iproute2) and
# new.{out,err,rc} (ours) and may rewrite new.* where the rule allows a
# difference.  It returns 0 when it applied.

is_unknown_msg() { grep -Eq '^Unknown ' "$1"; }

rule_UNKNOWN_EXIT_STATUS() {
    local d=$1
    [ "$(cat "$d/ref.rc")" = 0 ] || return 1
    [ ! -s "$d/ref.out" ] && is_unknown_msg "$d/ref.err" || return 1
    [ "$(cat "$d/new.rc")" != 0 ] && [ ! -s "$d/new.out" ] && [ -s "$d/new.err" ] || return 1
    cp "$d/ref.rc" "$d/new.rc"
    touch "$d/.unknown"
}

rule_ERROR_WORDING() {
    local d=$1
    [ "$(cat "$d/ref.rc")" != 0 ] || [ -e "$d/.unknown" ] || return 1
    [ -s "$d/ref.err" ] && [ -s "$d/new.err" ] || return 1
    cmp -s "$d/ref.err" "$d/new.err" && return 1
    cp "$d/ref.err" "$d/new.err"
}

# Our version and usage texts describe this tool.
rule_HELP_AND_VERSION() {
    local d=$1
    if grep -q '^Usage: rdma' "$d/ref.out" && grep -q '^Usage: rdma' "$d/new.out"; then
        cp "$d/ref.out" "$d/new.out"; return 0
    fi
    if grep -q '^rdma utility, iproute2-' "$d/ref.out" && grep -q '^rdma utility, version ' "$d/new.out"; then
        cp "$d/ref.out" "$d/new.out"; return 0
    fi
    return 1
}

# iproute2 6.1 prints text for `-j system`; ours prints JSON. Render ours as
# iproute2's text (booleans as on/off) to compare the values.
rule_SYSTEM_JSON() {
    local d=$1
    grep -q '^netns ' "$d/ref.out" && head -c1 "$d/new.out" | grep -q '\[' || return 1
    python3 -c '
import json, sys
for o in json.load(open(sys.argv[1])):
    items = [(k, ("on" if v else "off") if isinstance(v, bool) else str(v)) for k, v in o.items()]
    print(" ".join(k + " " + v for k, v in items[:-1]) + " " + " ".join(items[-1]))
' "$d/new.out" > "$d/new.out.txt" || return 1
    mv "$d/new.out.txt" "$d/new.out"
}

# Attributes newer than iproute2 6.1 that the kernel sends and newer iproute2
# prints: protocol in `dev`, privileged-qkey and monitor in `system`.
rule_NEWER_FIELDS() {
    local d=$1
    sed -E -e 's/protocol [a-z]+ //g; s/privileged-qkey (on|off) //g; s/monitor (on|off) //g' \
        -e 's/,"protocol":"[a-z]+"//g; s/,"privileged-qkey":(true|false)//g' \
        -e 's/,"monitor":(true|false)//g' \
        -e '/^ +"protocol": "[a-z]+",$/d; /^ +"(privileged-qkey|monitor)": (true|false),$/d' \
        "$d/new.out" > "$d/new.out.tmp"
    if cmp -s "$d/new.out" "$d/new.out.tmp"; then rm -f "$d/new.out.tmp"; return 1; fi
    mv "$d/new.out.tmp" "$d/new.out"
}

# `link show DEV` lists every port of DEV; iproute2 fails ("Wrong device name").
rule_LINK_SHOW_DEV() {
    local d=$1
    [ "$(cat "$d/ref.rc")" != 0 ] && [ "$(cat "$d/new.rc")" = 0 ] || return 1
    grep -q '^Wrong device name' "$d/ref.err" || return 1
    [ -s "$d/new.out" ] && ! grep -qv '^link [^ ]*/[0-9]* ' "$d/new.out" || return 1
    cp "$d/ref.out" "$d/new.out"; cp "$d/ref.err" "$d/new.err"; cp "$d/ref.rc" "$d/new.rc"
}

# Stat views print one counter per line (iproute2 6.7+ layout); 6.1 prints a
# port's counters on one line. Joined, ours must equal 6.1's.
rule_STAT_ONE_PER_LINE() {
    local d=$1
    grep -q '^    ' "$d/new.out" && ! grep -q '^    ' "$d/ref.out" || return 1
    python3 -c '
import re, sys
t = open(sys.argv[1]).read()
sys.stdout.write(re.sub(r"\n    ", "", t))
' "$d/new.out" > "$d/new.out.tmp" && mv "$d/new.out.tmp" "$d/new.out"
}

# iproute2 6.1 prints an SRQ's QP list as its comm; ours prints the owner's
# name. Only the comm value may differ.
rule_SRQ_COMM() {
    local d=$1
    grep -q 'srqn' "$d/ref.out" || return 1
    python3 -c '
import re, sys
ref, new = open(sys.argv[1]).read(), open(sys.argv[2]).read()
pat = re.compile(r"(comm |\"comm\":)(\"[^\"]*\"|[^ \n]*)")
if pat.sub("", ref) != pat.sub("", new):
    sys.exit(1)
sys.stdout.write(ref)
' "$d/ref.out" "$d/new.out" > "$d/new.out.tmp" || { rm -f "$d/new.out.tmp"; return 1; }
    mv "$d/new.out.tmp" "$d/new.out"
}

# `-r res show srq` asks the kernel for raw SRQs (RES_SRQ_GET_RAW); rxe has
# none and says "Invalid argument". iproute2 6.1 ignores -r for SRQs.
rule_RAW_SRQ() {
    local d=$1
    [ "$(cat "$d/ref.rc")" = 0 ] && grep -q 'srqn' "$d/ref.out" || return 1
    [ "$(cat "$d/new.rc")" != 0 ] && grep -q 'Invalid argument' "$d/new.err" || return 1
    [ ! -s "$d/new.out" ] || [ "$(cat "$d/new.out")" = "[]" ] || return 1
    cp "$d/ref.out" "$d/new.out"; cp "$d/ref.err" "$d/new.err"; cp "$d/ref.rc" "$d/new.rc"
}

# `link DEV` filters every resource type; iproute2 refuses it for some
# ("Unsupported filter option: link"). Ours must print records of DEV only.
rule_LINK_FILTER() {
    local d=$1
    grep -q '^Unsupported filter option: link' "$d/ref.err" || return 1
    [ "$(cat "$d/new.rc")" = 0 ] && [ -s "$d/new.out" ] || return 1
    [ "$(cut -d' ' -f1,2 "$d/new.out" | sort -u | wc -l)" = 1 ] || return 1
    cp "$d/ref.out" "$d/new.out"; cp "$d/ref.err" "$d/new.err"; cp "$d/ref.rc" "$d/new.rc"
}

# iproute2 accepts the filter keys cm_id dev-type/transport-type and MR
# rkey/lkey but ignores them (it prints every record); ours applies them.
# Ours must print a subset of iproute2's records, in the same order.
rule_IGNORED_FILTER_KEYS() {
    local d=$1
    grep -Eq ' (dev-type|transport-type|rkey|lkey) [^ ]' "$d/cmd" || return 1
    [ "$(cat "$d/ref.rc")" = 0 ] && [ "$(cat "$d/new.rc")" = 0 ] || return 1
    cmp -s "$d/ref.err" "$d/new.err" || return 1
    python3 -c '
import json, sys
ref, new = open(sys.argv[1]).read(), open(sys.argv[2]).read()
if ref.startswith("["):
    ref, new = json.loads(ref), json.loads(new)
else:
    ref, new = ref.splitlines(True), new.splitlines(True)
it = iter(ref)
sys.exit(0 if all(any(r == n for r in it) for n in new) else 1)
' "$d/ref.out" "$d/new.out" || return 1
    cp "$d/ref.out" "$d/new.out"
}

# Without CAP_NET_ADMIN the kernel refuses raw data (EPERM); iproute2 fails,
# ours shows the entries the plain view gives (issue 6: "show what it gives,
# no error"). Ours must exit 0 with entries and no raw data in them.
rule_RAW_UNPRIVILEGED() {
    local d=$1
    grep -q '^@unpriv .*-r' "$d/cmd" || return 1
    [ "$(cat "$d/ref.rc")" != 0 ] && grep -q 'Operation not permitted' "$d/ref.err" || return 1
    [ "$(cat "$d/new.rc")" = 0 ] && [ ! -s "$d/new.err" ] && [ -s "$d/new.out" ] || return 1
    python3 -c '
import json, sys
t = open(sys.argv[1]).read()
if t.startswith("["):
    objs = json.loads(t)
    sys.exit(0 if objs and all("data" not in o for o in objs) else 1)
lines = t.splitlines()
sys.exit(0 if all(l.startswith(("link ", "dev ")) and " data " not in l for l in lines) else 1)
' "$d/new.out" || return 1
    cp "$d/ref.out" "$d/new.out"; cp "$d/ref.err" "$d/new.err"; cp "$d/ref.rc" "$d/new.rc"
}

RULES=()
while IFS=$'\t' read -r name desc || [ -n "$name" ]; do
    case "$name" in ''|'#'*) continue ;; esac
    fn=rule_${name//-/_}
    if ! declare -F "$fn" > /dev/null; then
        echo "compare: rule $name in differences.txt has no function $fn" >&2; exit 2
    fi
    RULES+=("$name")
done < "$HERE/differences.txt"

# ------------------------------------------------------------------ run
passed=0
failed=0
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

for kv in "${KERNELS[@]}"; do
    mapfile -t LINES < <(corpus_lines "$kv" "$CORPUS")
    guest_corpus_script "$kv" cmp compare "$CORPUS" > "$WORK/guest-$kv.sh"
    out=${KEEP:+$KEEP/$kv}
    out=${out:-$WORK/out-$kv}
    rm -rf "$out"
    t0=$(date +%s)
    if ! "$HERE/run" --kernel "$kv" --timeout "${RDMA_VM_TIMEOUT:-1800}" --rdma "$RDMA_BIN" --script "$WORK/guest-$kv.sh" \
            --outdir "$out" --console "$WORK/console-$kv.log" > /dev/null 2> "$WORK/run-$kv.err" \
            || [ "$(cat "$out/fixture.status" 2>/dev/null)" != 0 ]; then
        echo "FAIL [$kv] VM run or fixture failed:" 
        cat "$WORK/run-$kv.err" "$out/fixture.err" 2>/dev/null | sed 's/^/    /'
        failed=$((failed + ${#LINES[@]}))
        continue
    fi
    [ "$QUIET" = 1 ] || echo "compare: [$kv] VM run took $(( $(date +%s) - t0 ))s" >&2
    for idx in "${!LINES[@]}"; do
        line=${LINES[$idx]}
        n=$(printf '%03d' $((idx + 1)))
        c=$out/cmp/$n
        if cmp -s "$c.out" "$c.new.out" && cmp -s "$c.err" "$c.new.err" && cmp -s "$c.rc" "$c.new.rc"; then
            passed=$((passed + 1))
            [ "$QUIET" = 1 ] || echo "ok   [$kv] rdma $line"
            continue
        fi
        d=$WORK/cmp-$kv-$n
        mkdir -p "$d"
        for s in out err rc; do
            cp "$out/cmp/$n.$s" "$d/ref.$s"
            cp "$out/cmp/$n.new.$s" "$d/new.$s"
        done
        printf '%s\n' "$line" > "$d/cmd"
        applied=()
        for r in "${RULES[@]}"; do
            if "rule_${r//-/_}" "$d"; then applied+=("$r"); fi
        done
        ok=1
        for s in out err rc; do cmp -s "$d/ref.$s" "$d/new.$s" || ok=0; done
        if [ $ok = 1 ]; then
            passed=$((passed + 1))
            [ "$QUIET" = 1 ] || echo "ok   [$kv] rdma $line${applied:+  (rules: ${applied[*]})}"
        else
            failed=$((failed + 1))
            echo "FAIL [$kv] rdma $line${applied:+  (rules: ${applied[*]})}"
            for s in out err; do
                cmp -s "$d/ref.$s" "$d/new.$s" || \
                    diff -u --label "iproute2.std$s" --label "ours.std$s" "$d/ref.$s" "$d/new.$s" | sed 's/^/    /'
            done
            cmp -s "$d/ref.rc" "$d/new.rc" || \
                echo "    exit status: iproute2 $(cat "$d/ref.rc"), ours $(cat "$d/new.rc")"
        fi
    done
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
