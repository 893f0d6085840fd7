#!/bin/bash
# Run inside the test VM (tests/vm/run --fixture basic --script THIS):
# `rdma monitor` must print the events caused by link add, rename and link
# delete (6.12 sends REGISTER, NETDEV_ATTACH and UNREGISTER for these;
# rename events came with 6.13). On a kernel without monitor support (6.1)
# it must print one line and exit 1. With "ports", a flap of veth0 (down,
# up) must show rxe0's PORT_ERR and PORT_ACTIVE verbs events with
# timestamps, beside netlink events. Output goes to /out/monitor-*.txt.
N=${RDMA_NEW:-/bin/rdma-new}
fail=0
check() { # $1 = description, rest = command that must succeed
    local what=$1; shift
    if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fail=1; fi
}

ip link add veth2 type veth peer name veth3
ip link set veth2 up

if uname -r | grep -q '^6\.1\.'; then
    $N monitor > /out/monitor-unsupported.txt 2>&1
    rc=$?
    cat /out/monitor-unsupported.txt
    check "monitor exits 1 on 6.1" [ "$rc" = 1 ]
    check "one line" [ "$(wc -l < /out/monitor-unsupported.txt)" = 1 ]
    # Port events come from verbs on any kernel: a flap of veth0.
    $N -t monitor dev rxe0 ports > /out/monitor-ports.txt 2>&1 &
    p5=$!
    sleep 2
    ip link set veth0 down; sleep 1; ip link set veth0 up; sleep 1.5
    kill $p5; wait $p5
    cat -A /out/monitor-ports.txt
    check "6.1 ports: PORT_ERR of rxe0/1" grep -q $'\\] \\[PORT_ERR\\]\tdev 0 rxe0 port 1$' /out/monitor-ports.txt
    check "6.1 ports: PORT_ACTIVE of rxe0/1" grep -q $'\\] \\[PORT_ACTIVE\\]\tdev 0 rxe0 port 1$' /out/monitor-ports.txt
    exit $fail
fi

# Text, JSON lines, a filtered one and one with timestamps, in the background.
$N -c 3 monitor > /out/monitor-text.txt 2>&1 &
p1=$!
$N -j -c 3 monitor > /out/monitor-json.txt 2>&1 &
p2=$!
$N -c 2 monitor dev rxe2 > /out/monitor-dev.txt 2>&1 &
p3=$!
$N --timestamp -c 1 monitor > /out/monitor-ts.txt 2>&1 &
p4=$!
sleep 1
rdma link add rxe2 type rxe netdev veth2
sleep 0.5
rdma dev set rxe2 name rxe9 2>/dev/null || true
ip link set dev veth2 name veth9 2>/dev/null || true
sleep 0.5
rdma link delete rxe9 2>/dev/null || rdma link delete rxe2
for i in $(seq 50); do
    kill -0 $p1 2>/dev/null || kill -0 $p2 2>/dev/null || kill -0 $p3 2>/dev/null || break
    sleep 0.2
done
kill $p1 $p2 $p3 $p4 2>/dev/null
wait $p1; r1=$?
wait $p2; r2=$?
wait $p3; r3=$?
wait $p4; r4=$?
for f in text json dev ts; do echo "--- monitor-$f"; cat -A /out/monitor-$f.txt; done
check "text monitor ended by -c" [ "$r1" = 0 ]
check "json monitor ended by -c" [ "$r2" = 0 ]
check "dev monitor ended by -c" [ "$r3" = 0 ]
check "timestamp monitor ended by -c" [ "$r4" = 0 ]
check "REGISTER" grep -q $'^\\[REGISTER\\]\tdev [0-9]* rxe2$' /out/monitor-text.txt
check "NETDEV_ATTACH" grep -q $'^\\[NETDEV_ATTACH\\]\tdev [0-9]* rxe2 port 1 netdev [0-9]* veth2$' /out/monitor-text.txt
check "UNREGISTER" grep -q $'^\\[UNREGISTER\\]\tdev [0-9]* rxe[29]$' /out/monitor-text.txt
check "JSON lines" [ "$(grep -c '^{"event_type":"\[[A-Z_]*\]","rdma_index":[0-9]*,"rdma_dev":"rxe[29]"' /out/monitor-json.txt)" = 3 ]
check "dev filter" [ "$(grep -c 'rxe[29]' /out/monitor-dev.txt)" = 2 ]
check "timestamp" grep -q '^\[20[0-9-]*T[0-9:.]*\] \[REGISTER\]' /out/monitor-ts.txt

# The host side of a flap (`monitor ports`): verbs async events of rxe0's
# port when veth0 goes down and up, with timestamps, beside a netlink
# REGISTER (a device added meanwhile; not opened, so it can go again).
$N -t monitor ports > /out/monitor-ports.txt 2>&1 &
p5=$!
$N -j monitor dev rxe0 ports > /out/monitor-ports-json.txt 2>&1 &
p6=$!
sleep 2
ip link set veth0 down
sleep 1
ip link set veth0 up
sleep 1
ip link add veth6 type veth peer name veth7
ip link set veth6 up
rdma link add rxe3 type rxe netdev veth6
sleep 1.5
kill $p5 $p6 2>/dev/null
wait $p5 $p6
rdma link delete rxe3
for f in ports ports-json; do echo "--- monitor-$f"; cat -A /out/monitor-$f.txt; done
ts='^\[20[0-9-]*T[0-9:.]*\] '
err_line=$(grep -n "$ts"$'\\[PORT_ERR\\]\tdev 0 rxe0 port 1$' /out/monitor-ports.txt | head -1 | cut -d: -f1)
act_line=$(grep -n "$ts"$'\\[PORT_ACTIVE\\]\tdev 0 rxe0 port 1$' /out/monitor-ports.txt | tail -1 | cut -d: -f1)
check "ports: PORT_ERR of rxe0/1 with a timestamp" [ -n "$err_line" ]
check "ports: PORT_ACTIVE of rxe0/1 after it" [ "${act_line:-0}" -gt "${err_line:-999999}" ]
check "ports: netlink REGISTER beside them" grep -q "$ts"$'\\[REGISTER\\]\tdev [0-9]* rxe3$' /out/monitor-ports.txt
check "ports: every line an event with a timestamp" [ -z "$(grep -v "$ts"'\[[A-Z_]*\]'$'\t''dev ' /out/monitor-ports.txt)" ]
check "ports JSON: PORT_ERR then PORT_ACTIVE of rxe0/1" \
    [ "$(grep -o '"event_type":"\[PORT_[A-Z]*\]","rdma_index":0,"rdma_dev":"rxe0","port":1' /out/monitor-ports-json.txt | sed 's/.*\[\(PORT_[A-Z]*\)\].*/\1/' | uniq | tr '\n' ' ')" = "PORT_ERR PORT_ACTIVE " ]
check "ports JSON: only rxe0 (dev filter)" [ -z "$(grep -v '"rdma_dev":"rxe0"' /out/monitor-ports-json.txt)" ]
exit $fail
