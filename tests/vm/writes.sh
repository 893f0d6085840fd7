#!/bin/bash
# Exercise the write commands of our rdma (--rdma PATH) in the VM and check
# each result with iproute2's rdma: device rename and back, link add/delete
# (rxe and siw), system netns shared/exclusive (visibility from another netns),
# moving a device to another netns and back (rxe refuses: then ours must
# fail like iproute2), the same by a process ID (netns PID),
# adaptive-moderation on/off, and the node description (node set
# description, checked in sysfs: iproute2 has no view of it).  Uses the "basic" fixture (no user resources,
# so a device can change netns).
# usage: tests/vm/writes.sh --rdma PATH [--kernel 6.1|6.12]... [-v]
# Ends with "N passed, M failed"; exits 1 if any failed.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)

KERNELS=()
RDMA_BIN=
VERBOSE=0
while [ $# -gt 0 ]; do
    case "$1" in
        --kernel) KERNELS+=("$2"); shift 2 ;;
        --rdma) RDMA_BIN=$2; shift 2 ;;
        -v) VERBOSE=1; shift ;;
        *) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
    esac
done
[ -n "$RDMA_BIN" ] && [ -x "$RDMA_BIN" ] || { echo "writes: --rdma PATH (executable) is required" >&2; exit 2; }
[ ${#KERNELS[@]} -eq 0 ] && KERNELS=(6.1 6.12)

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# The guest script: "step" runs our binary, "check" runs a shell test that
# uses iproute2's rdma.  Every step and check writes one "ok"/"not ok" line
# to $OUT/results; output of failures goes to $OUT/log.
cat > "$WORK/guest.sh" <<'GEOF'
#!/bin/bash
R=$OUT/results
L=$OUT/log
: > "$R"; : > "$L"
NEW=$RDMA_NEW

step() { # description, then our rdma's arguments
    local desc=$1; shift
    if out=$("$NEW" "$@" 2>&1); then
        echo "ok - $desc (rdma-new $*)" >> "$R"
    else
        echo "not ok - $desc (rdma-new $* -> exit $?)" >> "$R"
        { echo "## rdma-new $*"; echo "$out"; } >> "$L"
    fi
}
check() { # description, then a shell command (iproute2's rdma inside)
    local desc=$1; shift
    if out=$(bash -c "$*" 2>&1); then
        echo "ok - $desc" >> "$R"
    else
        echo "not ok - $desc" >> "$R"
        { echo "## check: $*"; echo "$out"; } >> "$L"
    fi
}

# --- rename and back
step "rename rxe0 to rxe9" dev set rxe0 name rxe9
check "rxe9 exists" 'rdma dev show rxe9 | grep -q "rxe9:"'
check "rxe0 is gone" '! rdma dev show rxe0 >/dev/null 2>&1'
check "link of rxe9 keeps veth0" 'rdma link show rxe9/1 | grep -q "netdev veth0"'
step "rename rxe9 back to rxe0" dev set rxe9 name rxe0
check "rxe0 is back" 'rdma dev show rxe0 | grep -q "rxe0:"'
check "rxe9 is gone" '! rdma dev show rxe9 >/dev/null 2>&1'

# --- link add / delete
ip link add veth2 type veth peer name veth3
ip link set veth2 up; ip link set veth3 up
step "link add rxe2 over veth2" link add rxe2 type rxe netdev veth2
check "rxe2 exists" 'rdma dev show rxe2 | grep -q "rxe2:"'
check "rxe2/1 uses veth2" 'rdma link show rxe2/1 | grep -q "netdev veth2"'
step "link delete rxe2" link delete rxe2
check "rxe2 is gone" '! rdma dev show rxe2 >/dev/null 2>&1'
check "rxe0 and rxe1 remain" '[ "$(rdma dev | grep -c "rxe[01]:")" = 2 ]'

# --- iWARP: link add / delete of a siw device (the kernel loads siw on
# demand, as rdma-link-siw); the image has siw when setup.sh built it
if modinfo siw > /dev/null 2>&1; then
    ip link add veth4 type veth peer name veth5
    ip link set veth4 up; ip link set veth5 up
    step "link add siw0 over veth4" link add siw0 type siw netdev veth4
    check "siw0 exists, an iWARP device" 'rdma dev show siw0 | grep -q "siw0: node_type rnic "'
    check "siw0/1 uses veth4" 'rdma link show siw0/1 | grep -q "netdev veth4"'
    step "rename siw0 to siw9" dev set siw0 name siw9
    check "siw9 exists, siw0 is gone" 'rdma dev show siw9 | grep -q "siw9:" && ! rdma dev show siw0 >/dev/null 2>&1'
    # siw cannot change its node description (no modify_device): one line
    # saying so, exit 1, as the kernel refuses the write.
    "$NEW" node set description "vm siw9" dev siw9 > "$OUT/nodedesc-siw.out" 2>&1
    rc=$?
    check "siw9 refuses a node description: exit 1, one line" \
        "[ $rc = 1 ] && grep -q 'Operation not supported' '$OUT/nodedesc-siw.out' && [ \"\$(wc -l < '$OUT/nodedesc-siw.out')\" = 1 ]"
    step "link delete siw9" link delete siw9
    check "siw9 is gone" '! rdma dev show siw9 >/dev/null 2>&1'
else
    echo "not ok - no siw module in the image (tests/vm/setup.sh builds it)" >> "$R"
fi

# --- adaptive moderation
step "adaptive-moderation on" dev set rxe0 adaptive-moderation on
check "rxe0 shows adaptive-moderation on" 'rdma -d dev show rxe0 | grep -q "adaptive-moderation on"'
step "adaptive-moderation off" dev set rxe0 adaptive-moderation off
check "rxe0 shows adaptive-moderation off" 'rdma -d dev show rxe0 | grep -q "adaptive-moderation off"'

# --- node description: sysfs node_desc (no netlink carries it), read
# back by the kernel's own file
step "node set description of rxe0" node set description "vm-host HCA-0" dev rxe0
check "rxe0's node_desc reads it back" '[ "$(cat /sys/class/infiniband/rxe0/node_desc)" = "vm-host HCA-0" ]'
check "rxe1's node_desc is untouched" '[ "$(cat /sys/class/infiniband/rxe1/node_desc)" != "vm-host HCA-0" ]'
step "node set description of every device" node set description "vm-host"
check "rxe0 and rxe1 both read it back" '[ "$(cat /sys/class/infiniband/rxe[01]/node_desc | sort -u)" = "vm-host" ]'
check "65 bytes are refused, nothing changed" "! \"\$RDMA_NEW\" node set description $(printf 'x%.0s' $(seq 65)) 2>/dev/null && [ \"\$(cat /sys/class/infiniband/rxe0/node_desc)\" = vm-host ]"

# --- netns exclusive, move a device to another netns and back
check "netns mode is shared at start" 'rdma system show | grep -q "netns shared"'
ip netns add ns0
check "shared mode: a new netns sees rxe0 and rxe1" '[ "$(ip netns exec ns0 rdma dev | grep -c "rxe[01]:")" = 2 ]'
ip netns delete ns0
step "system set netns exclusive" system set netns exclusive
check "netns mode is exclusive" 'rdma system show | grep -q "netns exclusive"'
ip netns add ns1
ip netns attach init 1
check "exclusive mode: ns1 sees no device" '[ -z "$(ip netns exec ns1 rdma dev)" ]'
check "exclusive mode: init netns sees rxe0 and rxe1" '[ "$(rdma dev | grep -c "rxe[01]:")" = 2 ]'
# The kernel moves only devices whose driver can disassociate user contexts;
# rxe cannot (EOPNOTSUPP).  If ours fails, iproute2 must fail the same way.
if out=$("$NEW" dev set rxe1 netns ns1 2>&1); then
    echo "ok - move rxe1 to netns ns1 (rdma-new dev set rxe1 netns ns1)" >> "$R"
    check "rxe1 is gone from init netns" '! rdma dev show rxe1 >/dev/null 2>&1'
    check "rxe1 is visible in ns1" 'ip netns exec ns1 rdma dev show rxe1 | grep -q "rxe1:"'
    if out=$(ip netns exec ns1 "$NEW" dev set rxe1 netns init 2>&1); then
        echo "ok - move rxe1 back (in ns1: rdma-new dev set rxe1 netns init)" >> "$R"
    else
        echo "not ok - move rxe1 back (in ns1: rdma-new dev set rxe1 netns init)" >> "$R"
        { echo "## move back"; echo "$out"; } >> "$L"
        ip netns exec ns1 rdma dev set rxe1 netns init
    fi
    check "rxe1 is back in init netns" 'rdma dev show rxe1 | grep -q "rxe1:"'
    check "ns1 sees no device" '[ -z "$(ip netns exec ns1 rdma dev)" ]'
else
    ours=$?
    ref_out=$(rdma dev set rxe1 netns ns1 2>&1); ref=$?
    if [ "$ref" != 0 ] && [ "$ours" = "$ref" ] && [ -n "$out" ]; then
        echo "ok - move rxe1 to netns ns1 refused like iproute2 (exit $ours: $out | iproute2: $ref_out)" >> "$R"
    else
        echo "not ok - move rxe1 to netns ns1: ours exit $ours, iproute2 exit $ref" >> "$R"
        { echo "## rdma-new dev set rxe1 netns ns1"; echo "$out"; echo "## iproute2"; echo "$ref_out"; } >> "$L"
        [ "$ref" = 0 ] && ip netns exec ns1 rdma dev set rxe1 netns init
    fi
    check "rxe1 stays in init netns" 'rdma dev show rxe1 | grep -q "rxe1:"'
fi
# --- netns by process ID: a process in ns1 names the namespace.  Ours
# must open /proc/PID/ns/net, send that fd as RDMA_NLDEV_NET_NS_FD (68,
# bytes 08 00 44 00 FD 00 00 00 in the strace dump) and get the kernel's
# answer for ns1 (rxe: EOPNOTSUPP, as iproute2 with the name).
ip netns exec ns1 sleep 600 &
nspid=$!
sleep 0.5
check "process $nspid runs in ns1" "[ \"\$(stat -L -c %i /proc/$nspid/ns/net)\" = \"\$(stat -L -c %i /run/netns/ns1)\" ]"
strace -f -xx -s 512 -e trace=openat,sendto -o "$OUT/netns-pid.strace" \
    "$NEW" dev set rxe1 netns "$nspid" > "$OUT/netns-pid.out" 2>&1
ours=$?
rdma dev set rxe1 netns ns1 > "$OUT/netns-name-ref.out" 2>&1
ref=$?
# -xx writes every string in hex: the path as strace shows it, then the fd
# openat returned, then the attribute with that fd.
hexpath=$(printf '%s' "/proc/$nspid/ns/net" | od -An -tx1 | tr -d ' \n' | sed 's/../\\x&/g')
fd=$(grep -F "openat(AT_FDCWD, \"$hexpath\"" "$OUT/netns-pid.strace" | sed -n 's/.*) = \([0-9]*\)$/\1/p' | head -1)
if [ -n "$fd" ]; then
    echo "ok - ours opened /proc/$nspid/ns/net as fd $fd" >> "$R"
    attr=$(printf '\\x08\\x00\\x44\\x00\\x%02x\\x00\\x00\\x00' "$fd")
    if grep 'sendto(' "$OUT/netns-pid.strace" | grep -qF "$attr"; then
        echo "ok - the SET request carries NET_NS_FD $fd" >> "$R"
    else
        echo "not ok - no NET_NS_FD $fd ($attr) in the SET request" >> "$R"
        cat "$OUT/netns-pid.strace" >> "$L"
    fi
else
    echo "not ok - ours did not open /proc/$nspid/ns/net" >> "$R"
    cat "$OUT/netns-pid.strace" >> "$L"
fi
if [ "$ours" = 0 ]; then
    check "netns PID moved rxe1 into ns1" 'ip netns exec ns1 rdma dev show rxe1 | grep -q "rxe1:"'
    ip netns exec ns1 rdma dev set rxe1 netns init
elif [ "$ref" != 0 ] && [ -s "$OUT/netns-pid.out" ] && [ "$(wc -l < "$OUT/netns-pid.out")" = 1 ]; then
    echo "ok - netns PID refused like iproute2 with the name (exit $ours/$ref: $(cat "$OUT/netns-pid.out") | $(cat "$OUT/netns-name-ref.out"))" >> "$R"
else
    echo "not ok - netns PID: ours exit $ours, iproute2 (name) exit $ref" >> "$R"
    { echo "## netns PID"; cat "$OUT/netns-pid.out" "$OUT/netns-name-ref.out" "$OUT/netns-pid.strace"; } >> "$L"
fi
check "rxe1 in init netns after netns PID" 'rdma dev show rxe1 | grep -q "rxe1:"'
kill "$nspid"; wait "$nspid" 2>/dev/null
# A process that is not there: one line naming it, nothing sent.
"$NEW" dev set rxe1 netns 4000000 > "$OUT/netns-nopid.out" 2>&1
rc=$?
check "netns of a missing process: exit 1, one line" \
    "[ $rc = 1 ] && grep -qx 'cannot open the network namespace of process 4000000 (/proc/4000000/ns/net): No such file or directory' '$OUT/netns-nopid.out'"
ip netns delete ns1
ip netns delete init
step "system set netns shared" system set netns shared
check "netns mode is shared again" 'rdma system show | grep -q "netns shared"'
check "rxe0 and rxe1 both present at the end" '[ "$(rdma dev | grep -c "rxe[01]:")" = 2 ]'
GEOF

passed=0
failed=0
for kv in "${KERNELS[@]}"; do
    out=$WORK/out-$kv
    if ! "$HERE/run" --kernel "$kv" --fixture basic --rdma "$RDMA_BIN" --script "$WORK/guest.sh" \
            --outdir "$out" --console "$WORK/console-$kv.log" > /dev/null 2> "$WORK/run-$kv.err" \
            || [ ! -f "$out/results" ]; then
        echo "not ok - [$kv] VM run failed"
        sed 's/^/    /' "$WORK/run-$kv.err"
        failed=$((failed + 1))
        continue
    fi
    if [ "$(cat "$out/fixture.status")" != 0 ]; then
        echo "not ok - [$kv] fixture failed"; sed 's/^/    /' "$out/fixture.err"
        failed=$((failed + 1))
    fi
    while IFS= read -r l; do
        case "$l" in
            "ok - "*) passed=$((passed + 1)); [ "$VERBOSE" = 1 ] && echo "ok - [$kv] ${l#ok - }" ;;
            *) failed=$((failed + 1)); echo "not ok - [$kv] ${l#not ok - }" ;;
        esac
    done < "$out/results"
    if [ -s "$out/log" ]; then sed 's/^/    /' "$out/log"; fi
    if [ -s "$out/stderr" ]; then echo "    [$kv] guest script stderr:"; sed 's/^/    /' "$out/stderr"; fi
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
