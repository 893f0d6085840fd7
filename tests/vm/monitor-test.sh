#!/bin/bash
# Run inside the test VM (tests/vm/run --fixture basic --script THIS):
# `rdma monitor` must print the events caused by link add, rename and link
# delete (6.12 sends REGISTER, NETDEV_ATTACH and UNREGISTER for these;
# rename events came with 6.13). On a kernel without monitor support (6.1)
# it must print one line and exit 1. Output goes to /out/monitor-*.txt.
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
exit $fail
